package io.ringwatch.core.sim;

import static io.ringwatch.core.sim.Options.require;

/**
 * What bounds a run and what its stabilization is held to: the quiet margin after it became stable, the time cap,
 * the event budget, and the stabilization bound. Set through {@link SimConfig}; the time cap's default is derived
 * from everything the run plans, so it is concluded last.
 */
public final class LimitOptions
{
    long quietMarginNs = -1;
    long timeCapNs = -1;
    long eventBudget = Long.MAX_VALUE;
    StabilizationBound bound = StabilizationBound.THEOREM_1;

    LimitOptions copy()
    {
        final LimitOptions copy = new LimitOptions();
        copy.quietMarginNs = quietMarginNs;
        copy.timeCapNs = timeCapNs;
        copy.eventBudget = eventBudget;
        copy.bound = bound;
        return copy;
    }

    void conclude(final SimConfig config)
    {
        require(bound != null, "bound must be set");
        require(eventBudget >= 1, "eventBudget must be >= 1: " + eventBudget);
        final ProtocolOptions protocol = config.protocol();
        final FaultOptions faults = config.faults();
        final long deltaNs = protocol.suspicionTimeoutNs;
        if (quietMarginNs < 0)
        {
            quietMarginNs = 2 * deltaNs;
        }
        if (timeCapNs < 0)
        {
            final int nodes = config.nodes();
            final int f = Math.max(1, Math.max(faults.failures, faults.injections.size()));
            final long boundNs =
                StabilizationBound.THEOREM_1.boundNs(f, nodes, deltaNs, config.network().maxDelayNs);
            timeCapNs = lastPlannedNs(config) + 2 * boundNs + quietMarginNs + 4 * deltaNs;
            if (config.boot().restartAfterNs > 0)
            {
                // a restart comes D after its stop, and a stop can itself follow a restart (a fenced joiner)
                timeCapNs += 2 * config.boot().restartAfterNs + 8 * deltaNs;
            }
        }
        require(timeCapNs > faults.firstFailureNs, "time cap " + timeCapNs + "ns must be after the first failure");
    }

    /**
     * @return when the last planned disturbance (crash window, pause, boot, grace, injection, partition) ends.
     */
    private static long lastPlannedNs(final SimConfig config)
    {
        final ProtocolOptions protocol = config.protocol();
        final FaultOptions faults = config.faults();
        final BootOptions boot = config.boot();
        final long deltaNs = protocol.suspicionTimeoutNs;
        long lastNs = faults.firstFailureNs + faults.crashWindowNs;
        lastNs += faults.randomPauses > 0 ? faults.randomPauseNs : 0;
        if (boot.mode != BootMode.MEMBERS)
        {
            // the last rank starts within the spread, then asks every δ/2 and is admitted within a broadcast
            lastNs = Math.max(lastNs, boot.startSpreadNs + 4 * deltaNs);
        }
        if (protocol.startupGraceNs > 0)
        {
            // judging starts δ after the last grace ends; a boot stall may run on past it
            final long lastStartNs = boot.mode != BootMode.MEMBERS ? boot.startSpreadNs : protocol.heartbeatPeriodNs;
            lastNs = Math.max(lastNs, lastStartNs + protocol.startupGraceNs + 2 * deltaNs +
                (faults.bootStalls > 0 ? faults.bootStallMaxNs : 0));
        }
        for (final Injection injection : faults.injections)
        {
            lastNs = Math.max(lastNs, injection.timeNs() + injection.durationNs());
        }
        for (final Partition partition : config.network().partitions)
        {
            lastNs = Math.max(lastNs, partition.endNs());
        }
        return lastNs;
    }

    /**
     * @return how long a run goes on after it became stable, to catch late false suspicions.
     */
    public long quietMarginNs()
    {
        return quietMarginNs;
    }

    /**
     * @return virtual time at which a run stops even if it never stabilized (a violation).
     */
    public long timeCapNs()
    {
        return timeCapNs;
    }

    /**
     * @return most events a run may process before it stops with a {@code flood} violation.
     */
    public long eventBudget()
    {
        return eventBudget;
    }

    /**
     * @return the bound each one-port run's stabilization time is checked against.
     */
    public StabilizationBound bound()
    {
        return bound;
    }
}
