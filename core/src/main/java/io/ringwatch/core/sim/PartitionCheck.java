package io.ringwatch.core.sim;

import io.ringwatch.core.config.PartitionPolicy;

import java.util.List;

/**
 * The partition checkers of {@link Checks} as they apply to one finished run: which of them judge it, given its
 * faults, and with what they are fed from the {@link GroundTruth} and the {@link FaultPlan}'s placement of the first
 * partition.
 */
final class PartitionCheck
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
            Checks.checkShortCut(exclusions, declared, seed, found);
        }
        if (config.protocol().partitionPolicy() == PartitionPolicy.MAJORITY && partitions.size() == 1)
        {
            final boolean[] excluded = new boolean[n];
            for (int rank = 0; rank < n; rank++)
            {
                excluded[rank] = truth.isExcluded(rank);
            }
            Checks.checkPartitionOutcome(losing, truth.stoppedAtNs(), excluded, first.startNs(), first.durationNs(),
                Checks.minorityBoundNs(n, deltaNs), seed, found);
        }
        return minorityFenceNs;
    }

    /**
     * The majority checker needs one clean cut: no pauses or stalls (a paused node is rightly fenced), no loss, no
     * flapping, no forged or injected faults, and the majority rule.
     *
     * @param found violations are appended here.
     */
    void checkMajorityKept(final List<String> found)
    {
        final FaultOptions faults = config.faults();
        final NetworkOptions network = config.network();
        if (plan.firstPartitionGroups() != null && network.partitions().size() == 1 && network.flaps() == 1 &&
            config.protocol().partitionPolicy() == PartitionPolicy.MAJORITY && faults.randomPauses() == 0 &&
            faults.cutStallNs() == 0 && faults.injections().isEmpty() && faults.bootStalls() == 0 &&
            network.lossProbability() == 0)
        {
            Checks.checkMajorityKept(plan.firstPartitionGroups(), truth.crashedEver(), truth.firstExcludedNs(),
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
}
