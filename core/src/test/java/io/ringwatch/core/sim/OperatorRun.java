package io.ringwatch.core.sim;

/**
 * A cluster as the operator guide runs it, in the simulator: δ = 250 ms, η = 25 ms, a 3 s startup grace, every
 * stopped node restarted 6 s later through the join protocol. One rank crashes once the others' grace has passed and
 * restarts; its new life asks its contact when its own grace is over ({@link #ASKS_NS}).
 */
final class OperatorRun
{
    static final long MS = 1_000_000L;
    static final long DELTA_NS = 250 * MS;
    static final long GRACE_NS = 3_000 * MS;
    static final long RESTART_NS = 6_000 * MS;
    /** When the rank that rejoins crashes: 2δ after the grace, once every node watches it. */
    static final long CRASH_NS = GRACE_NS + 2 * DELTA_NS;
    /** When its restart asks its contact to join; it is admitted a few τ later. */
    static final long ASKS_NS = CRASH_NS + RESTART_NS + GRACE_NS;

    private OperatorRun()
    {
    }

    /**
     * @param nodes        N.
     * @param rejoiner     the rank that crashes at {@link #CRASH_NS} and restarts.
     * @param seed         the run's seed.
     * @param brokenRules  negative controls' rules, 0 for none.
     * @return the config, not concluded: add the fault under test.
     */
    static SimConfig withRejoin(final int nodes, final int rejoiner, final long seed, final int brokenRules)
    {
        return new SimConfig()
            .nodes(nodes)
            .heartbeatPeriodNs(25 * MS)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(MS)
            .startupGraceNs(GRACE_NS)
            .restartAfterNs(RESTART_NS)
            .brokenRules(brokenRules)
            .inject(Injection.crash(rejoiner, CRASH_NS))
            .seed(seed);
    }
}
