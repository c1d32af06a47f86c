package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The startup grace checker: records the first verdicts and stops of a run, each worded as a violation, and counts
 * them all; {@link #applies} says whether the run is one on which each of them is a violation.
 */
final class GraceCheck
{
    private final long seed;
    private final List<String> events = new ArrayList<>();
    private int count;

    GraceCheck(final long seed)
    {
        this.seed = seed;
    }

    /**
     * Counts one verdict or stop.
     *
     * @return true if it is among the first reported, so its wording is wanted: built only then, as a million-node
     * run makes tens of millions of declarations.
     */
    boolean counted()
    {
        return count++ < Checks.MAX_REPORTED;
    }

    /**
     * @param what a verdict or stop that {@link #counted()} wants worded.
     */
    void event(final String what)
    {
        events.add("seed=" + seed + ": grace: " + what + " on a run whose only disturbances were boot " +
            "stalls that ended before anyone could judge");
    }

    /**
     * Appends every recorded verdict and stop, and a count of the rest.
     */
    void report(final List<String> out)
    {
        out.addAll(events);
        Checks.reportRest(out, seed, "grace", count);
    }

    /**
     * Whether the startup grace checker judges this run. The rule (issue 12, {@code DetectorNode.armed} and
     * {@code MajorityRule.verifyMinority}): a silence that began inside the grace is never held against anyone. Every
     * node's first verdict, and every minority notice's check, waits until δ after that node's grace ends.
     * <p>
     * Checked as: on a run with a startup grace whose only disturbances are boot stalls (no crash, leave, partition,
     * cut, forged frame, random pause or loss, and delays within τ), where every node starts before the first grace
     * ends (G, the earliest start plus the grace) and every boot stall ends by G + δ − η − 2τ (so the stalled node
     * has resumed, beaten, and been heard before any node may judge), no node may declare any rank dead, by verdict
     * or notice, and no node may stop (MINORITY, ISOLATED, fenced, ...) at all. The simulator records every verdict
     * and stop; on such a run each one is a violation.
     *
     * @param config       the run's parameters.
     * @param firstStartNs when each rank's first life started.
     * @param bootStallsNs the boot stalls as [from, until] pairs.
     * @return true if the run meets the conditions above.
     */
    static boolean applies(final SimConfig config, final long[] firstStartNs, final List<long[]> bootStallsNs)
    {
        final ProtocolOptions protocol = config.protocol();
        final NetworkOptions network = config.network();
        final FaultOptions faults = config.faults();
        final long graceNs = protocol.startupGraceNs();
        if (graceNs == 0 || faults.failures() > 0 || !faults.injections().isEmpty() || faults.randomPauses() > 0 ||
            !network.partitions().isEmpty() || network.lossProbability() > 0 || network.customDelays() ||
            config.boot().mode() == BootMode.LATE_MEMBERS || network.maxDelayNs() >= protocol.suspicionTimeoutNs())
        {
            return false;
        }
        long firstNs = Long.MAX_VALUE;
        long lastNs = Long.MIN_VALUE;
        for (final long startNs : firstStartNs)
        {
            firstNs = Math.min(firstNs, startNs);
            lastNs = Math.max(lastNs, startNs);
        }
        final long graceEndNs = firstNs + graceNs;
        if (lastNs >= graceEndNs)
        {
            return false;
        }
        final long latestResumeNs = graceEndNs + protocol.suspicionTimeoutNs() - protocol.heartbeatPeriodNs() -
            2 * network.maxDelayNs();
        for (final long[] stall : bootStallsNs)
        {
            if (stall[1] > latestResumeNs)
            {
                return false;
            }
        }
        return true;
    }
}
