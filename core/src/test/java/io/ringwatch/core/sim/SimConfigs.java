package io.ringwatch.core.sim;

/**
 * Simulation settings the tests start from.
 */
final class SimConfigs
{
    private SimConfigs()
    {
    }

    /**
     * @param nodes   N.
     * @param etaNs   heartbeat period η.
     * @param deltaNs suspicion timeout δ.
     * @param tauNs   largest message delay τ.
     * @param seed    the run's seed.
     * @return a config with this timing and the defaults for everything else.
     */
    static SimConfig timing(final int nodes, final long etaNs, final long deltaNs, final long tauNs, final long seed)
    {
        return new SimConfig()
            .nodes(nodes)
            .heartbeatPeriodNs(etaNs)
            .suspicionTimeoutNs(deltaNs)
            .maxDelayNs(tauNs)
            .seed(seed);
    }
}
