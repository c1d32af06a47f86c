package io.ringwatch.core.sim;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.ExclusionCause;

import java.util.List;

/**
 * The partition checkers: the majority rule's outcome of a cut (the majority side loses nobody, a side without a
 * majority stops within its bound), no side holding a majority of steadfast nodes ever loses one, and a short cut
 * changes nothing. As functions of plain arrays for hand-made states, and as they apply to one finished run: which of
 * them judge it, given its faults, fed from the {@link GroundTruth} and the {@link FaultPlan}'s placement of the first
 * partition.
 */
public final class PartitionCheck
{
    private static final long NONE = -1;

    private final SimConfig config;
    private final FaultPlan plan;
    private final GroundTruth truth;

    PartitionCheck(final SimConfig config, final FaultPlan plan, final GroundTruth truth)
    {
        this.config = config;
        this.plan = plan;
        this.truth = truth;
    }

    /**
     * The partition checks, on runs whose only faults are partitions (crashes and pauses would blur who must stop).
     *
     * @param exclusions nodes that excluded themselves in the run.
     * @param found      violations are appended here.
     * @return from the first cut to the last node of a side without a majority stopping, -1 if it does not apply.
     */
    long check(final int exclusions, final List<String> found)
    {
        final boolean[] losing = plan.losing();
        if (losing == null)
        {
            return NONE;
        }
        final int n = config.nodes();
        final long seed = config.seed();
        final long deltaNs = config.protocol().suspicionTimeoutNs();
        final List<Partition> partitions = config.network().partitions();
        final Partition first = partitions.get(0);
        final long minorityFenceNs = PartitionOutcome.lastStopNs(losing, truth.stoppedAtNs(), first.startNs());
        // restarts bring stopped nodes back as new lives: who stopped at the end no longer tells who had to
        final FaultOptions faults = config.faults();
        final boolean onlyPartitions = faults.failures() == 0 && faults.randomPauses() == 0 &&
            faults.cutStallNs() == 0 && faults.injections().isEmpty() && config.boot().restartAfterNs() <= 0;
        if (!onlyPartitions)
        {
            return minorityFenceNs;
        }
        // cuts flapping with short up times add up to one longer outage
        boolean allShort = config.network().flaps() == 1;
        for (final Partition partition : partitions)
        {
            allShort &= 2 * partition.durationNs() < deltaNs;
        }
        if (allShort)
        {
            int declared = 0;
            for (int rank = 0; rank < n; rank++)
            {
                declared += truth.isStopped(rank) ? 0 : truth.deadSet(rank).size();
            }
            shortCut(exclusions, declared, seed, found);
        }
        if (config.protocol().partitionPolicy() == PartitionPolicy.MAJORITY && partitions.size() == 1)
        {
            final boolean[] excluded = new boolean[n];
            for (int rank = 0; rank < n; rank++)
            {
                excluded[rank] = truth.isExcluded(rank);
            }
            outcome(losing, truth.stoppedAtNs(), excluded, first.startNs(), first.durationNs(),
                minorityBoundNs(n, deltaNs), seed, found);
        }
        return minorityFenceNs;
    }

    /**
     * The majority checker needs one clean cut: no pauses or stalls (a paused node is rightly fenced), no loss, no
     * flapping, no forged or injected faults, and the majority rule.
     *
     * @param found violations are appended here.
     */
    void checkMajority(final List<String> found)
    {
        final FaultOptions faults = config.faults();
        final NetworkOptions network = config.network();
        if (plan.firstPartitionGroups() != null && network.partitions().size() == 1 && network.flaps() == 1 &&
            config.protocol().partitionPolicy() == PartitionPolicy.MAJORITY && faults.randomPauses() == 0 &&
            faults.cutStallNs() == 0 && faults.injections().isEmpty() && faults.bootStalls() == 0 &&
            network.lossProbability() == 0)
        {
            majorityKept(plan.firstPartitionGroups(), truth.crashedEver(), truth.firstExcludedNs(),
                truth.firstExclusionCauses(), config.seed(), found);
        }
    }

    /**
     * @return nodes of the side of the first partition that should survive under the majority rule that ended
     * excluded.
     */
    int majorityLost()
    {
        int lost = 0;
        for (final int rank : plan.majority())
        {
            lost += truth.isExcluded(rank) ? 1 : 0;
        }
        return lost;
    }

    /**
     * A side that holds a strict majority of the cluster file among nodes that never crash keeps every one of them,
     * crashes and restarts elsewhere notwithstanding: they hear each other, and M never holds more than N ranks, so
     * each of them can always count a majority of its M. With restarts the end state no longer shows it (a node that
     * stopped wrongly comes back as a new life, and with the re-form rule even a whole cluster stopped wrongly ends
     * whole again), so every exclusion is judged when it happens.
     *
     * @param groups       group of each rank during the cut.
     * @param crashedEver  ranks that crashed at some time of the run.
     * @param excludedAtNs when each rank was first excluded (not a leave), or -1.
     * @param causes       the cause of that exclusion.
     * @param seed         for the messages.
     * @param out          violations are appended here.
     */
    public static void majorityKept(
        final int[] groups,
        final boolean[] crashedEver,
        final long[] excludedAtNs,
        final ExclusionCause[] causes,
        final long seed,
        final List<String> out)
    {
        final int n = groups.length;
        int groupCount = 0;
        for (final int g : groups)
        {
            groupCount = Math.max(groupCount, g + 1);
        }
        final int[] steadfast = new int[groupCount];
        for (int rank = 0; rank < n; rank++)
        {
            steadfast[groups[rank]] += crashedEver[rank] ? 0 : 1;
        }
        int lost = 0;
        for (int rank = 0; rank < n; rank++)
        {
            final int g = groups[rank];
            if (2 * steadfast[g] > n && !crashedEver[rank] && excludedAtNs[rank] >= 0 && lost++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": majority: node " + rank + " stopped as " + causes[rank] + " at " +
                    excludedAtNs[rank] + "ns, though its side had " + steadfast[g] + " of " + n +
                    " nodes that never crashed");
            }
        }
        Checks.reportRest(out, seed, "majority", lost);
    }

    /**
     * @param nodes   N.
     * @param deltaNs δ.
     * @return the bound within which a minority or isolated node must stop under the majority rule:
     * (⌊log₂ N⌋ + 2)·δ from the cut.
     */
    public static long minorityBoundNs(final int nodes, final long deltaNs)
    {
        return (31 - Integer.numberOfLeadingZeros(nodes) + 2L) * deltaNs;
    }

    /**
     * Majority rule: the side with a majority loses no node because of the partition; a losing node stops within
     * {@link #minorityBoundNs} of the cut if the cut lasts that long.
     *
     * @param losing     per rank, whether it is on a side without a majority.
     * @param stoppedNs  per rank, when it stopped (-1 if it runs).
     * @param excluded   per rank, whether it stopped by excluding itself (not a crash or a leave).
     * @param startNs    when the cut started.
     * @param durationNs how long it lasted.
     * @param boundNs    the minority bound.
     * @param seed       for the messages.
     * @param out        violations are appended here.
     */
    public static void outcome(
        final boolean[] losing,
        final long[] stoppedNs,
        final boolean[] excluded,
        final long startNs,
        final long durationNs,
        final long boundNs,
        final long seed,
        final List<String> out)
    {
        int lost = 0;
        int late = 0;
        for (int rank = 0; rank < losing.length; rank++)
        {
            if (!losing[rank] && excluded[rank] && lost++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": majority lost: node " + rank + " of the majority side was excluded at " +
                    stoppedNs[rank] + "ns (cut at " + startNs + "ns for " + durationNs + "ns)");
            }
            if (losing[rank] && durationNs >= boundNs && (stoppedNs[rank] < 0 || stoppedNs[rank] - startNs > boundNs) &&
                late++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": minority bound: node " + rank + " of a side without a majority " +
                    (stoppedNs[rank] < 0 ? "never stopped" : "stopped " + (stoppedNs[rank] - startNs) + "ns") +
                    " after the cut, bound " + boundNs + "ns");
            }
        }
        Checks.reportRest(out, seed, "majority lost", lost);
        Checks.reportRest(out, seed, "minority bound", late);
    }

    /**
     * A cut shorter than δ/2 changes nothing: nobody is excluded and nobody declared dead.
     *
     * @param exclusions nodes that excluded themselves.
     * @param declared   ranks some node declared dead.
     * @param seed       for the message.
     * @param out        a violation is appended here.
     */
    public static void shortCut(final int exclusions, final int declared, final long seed, final List<String> out)
    {
        if (exclusions > 0 || declared > 0)
        {
            out.add("seed=" + seed + ": short cut: a cut shorter than half the suspicion timeout excluded " + exclusions +
                " nodes and had " + declared + " declared dead");
        }
    }
}
