package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.Theorem1;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener.FailureCause;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of one run as it accumulates: the tallies the {@link Simulation} keeps as events happen, and the
 * checkers that judge each declaration, stop and join as it is reported ({@link DeclarationCheck}, {@link GraceCheck},
 * {@link JoinSpreadCheck}, {@link FirstFailureSpread}); once the run is over, the checkers of its end state and the
 * {@link SimResult} they all make.
 */
final class RunReport
{
    private static final long NONE = -1;

    int crashes;
    int leaves;
    int exclusions;
    int restarts;
    int boots;
    // REFORMS counted by lives that have been replaced by a restart since
    long reformsOfReplacedNodes;
    private int firstFailureRank = -1;
    private long firstFailureNs = NONE;

    private final SimConfig config;
    private final long seed;
    private final int n;
    private final GroundTruth truth;
    private final FaultPlan plan;
    private final NodePort port;
    private final Wire wire;
    private final DetectorNode[] nodes;
    private final DeclarationCheck declarations;
    private final GraceCheck grace;
    private final JoinSpreadCheck joinSpread;
    private final FirstFailureSpread firstSpread;
    private final ProcessLevel processes;

    RunReport(
        final SimConfig config,
        final GroundTruth truth,
        final FaultPlan plan,
        final NodePort port,
        final Wire wire,
        final DetectorNode[] nodes,
        final JoinSpreadCheck joinSpread,
        final ProcessLevel processes)
    {
        this.config = config;
        seed = config.seed();
        n = config.nodes();
        this.truth = truth;
        this.plan = plan;
        this.port = port;
        this.wire = wire;
        this.nodes = nodes;
        this.joinSpread = joinSpread;
        this.processes = processes;
        declarations = new DeclarationCheck(truth, config, plan);
        grace = new GraceCheck(seed);
        firstSpread = new FirstFailureSpread(n);
    }

    /**
     * A rank restarted: its new life starts with a clean record.
     */
    void restarted(final int rank)
    {
        declarations.forget(rank);
        joinSpread.forget(rank);
    }

    /**
     * @param timeNs when the plan has the first failure happen (the boot, a partition), or -1.
     */
    void failureAt(final long timeNs)
    {
        firstFailureNs = timeNs;
    }

    /**
     * A rank crashed or began to leave: the first such is the run's first failure, unless the plan has an earlier one.
     */
    void failed(final int rank, final long nowNs)
    {
        if (firstFailureNs == NONE || nowNs < firstFailureNs || (firstFailureRank < 0 && nowNs == firstFailureNs))
        {
            firstFailureRank = rank;
            firstFailureNs = nowNs;
        }
    }

    /**
     * @return when the first failure happened, or -1.
     */
    long firstFailureNs()
    {
        return firstFailureNs;
    }

    /**
     * Node {@code rank} declared {@code deadRank} dead: the checkers that judge declarations as they come see it.
     */
    void declared(final int rank, final int deadRank, final long timeNs, final FailureCause cause, final int reporter)
    {
        if (grace.counted())
        {
            grace.event("node " + rank + " declared " + deadRank + " dead at " + timeNs + "ns (" + cause +
                ", reporter " + reporter + ")");
        }
        if (deadRank == firstFailureRank)
        {
            firstSpread.learned(rank, timeNs);
        }
        declarations.declared(rank, deadRank, timeNs, cause, reporter);
    }

    /**
     * Node {@code rank} stopped taking part on its own.
     *
     * @param left whether it left (else it excluded itself).
     */
    void stopped(
        final int rank, final boolean left, final ExclusionCause cause, final long timeNs, final int reporterRank)
    {
        if (grace.counted())
        {
            grace.event("node " + rank + " stopped as " + cause + " at " + timeNs + "ns (reporter " + reporterRank +
                ")");
        }
        if (left)
        {
            leaves++;
        }
        else
        {
            exclusions++;
        }
    }

    /**
     * Node {@code rank} applied the JOIN of {@code joiner}'s life {@code incarnation}.
     */
    void joined(final int rank, final int joiner, final long incarnation, final long timeNs)
    {
        // a node paused while the JOIN spread gets it when it resumes: the broadcast bound is not about it
        final long firstNs = joinSpread.firstNs(joiner);
        final long resumedNs = truth.lastResumeNs(rank);
        if (incarnation == truth.incarnation(joiner) &&
            !(firstNs != NONE && resumedNs != ClusterState.NEVER && resumedNs >= firstNs))
        {
            joinSpread.applied(joiner, timeNs);
        }
    }

    /**
     * Applies the checkers of the end state and assembles the result.
     *
     * @param stableSinceNs   since when the run has been stable, or -1 if it was not at the end.
     * @param crashesAtStable crashes when it became stable.
     * @param eventsProcessed events taken off the queue.
     * @param endNs           the virtual time the run stopped at.
     * @param flood           the event budget's violation, or null.
     * @return the result.
     */
    SimResult result(
        final long stableSinceNs,
        final int crashesAtStable,
        final long eventsProcessed,
        final long endNs,
        final String flood)
    {
        final List<String> found = new ArrayList<>(declarations.violations());
        if (flood != null)
        {
            found.add(flood);
        }
        Checks.reportRest(found, seed, "accuracy", declarations.accuracyViolations());
        wire.check(seed, found);
        ViewCheck.check(truth, seed, found);
        RingCheck.check(truth, seed, found);
        FencingCheck.check(truth, declarations.condemned(), seed, found);
        if (processes != null)
        {
            processes.check(seed, found);
        }
        final int splitBrainPairs = SplitBrainCheck.check(truth, seed, found);
        Checks.reportRest(found, seed, "join", declarations.joinViolations());
        Checks.reportRest(found, seed, "split brain at a moment", declarations.splitBrainMoments());
        Checks.reportRest(found, seed, "boot", declarations.bootViolations());
        final boolean graceChecked = GraceCheck.applies(config, plan.firstStartNs(), plan.bootStallsNs());
        if (graceChecked)
        {
            grace.report(found);
        }
        final int rejoined = RejoinCheck.check(truth, seed, found);
        final NetworkOptions network = config.network();
        final long tauNs = network.maxDelayNs();
        final long joinSpreadMaxNs =
            joinSpread.check(truth, network.onePort(), network.lossProbability(), tauNs, seed, found);
        final PartitionCheck partitionCheck = new PartitionCheck(config, plan, truth);
        final long minorityFenceNs = partitionCheck.check(exclusions, found);
        partitionCheck.checkMajority(found);

        long stabilizationNs = NONE;
        long firstKnownNs = NONE;
        long firstBroadcastNs = NONE;
        long boundNs = NONE;
        final List<String> boundViolations = new ArrayList<>();
        if (firstFailureNs != NONE)
        {
            // under the majority rule a partition with no majority side stops everyone: nothing left to stabilize
            final int live = truth.liveCount();
            LivenessCheck.check(stableSinceNs != NONE || live == 0, config.limits().timeCapNs(), firstFailureNs,
                live - truth.stableCount(), live, seed, found);
            if (stableSinceNs != NONE)
            {
                stabilizationNs = stableSinceNs - firstFailureNs;
            }
            firstKnownNs = firstSpread.knownNs(truth, firstFailureNs);
            firstBroadcastNs = firstSpread.broadcastNs(truth);

            final boolean theoremModel = network.onePort() && network.lossProbability() == 0 &&
                config.protocol().heartbeatPeriodNs() >= 3 * tauNs && leaves == 0 && exclusions == 0 &&
                restarts == 0 && network.partitions().isEmpty();
            if (stabilizationNs != NONE && theoremModel && Theorem1.applies(crashesAtStable, n))
            {
                final long deltaNs = config.protocol().suspicionTimeoutNs();
                boundNs = config.limits().bound().boundNs(crashesAtStable, n, deltaNs, tauNs);
                LivenessCheck.checkBound(stabilizationNs, boundNs, crashesAtStable, n, seed, boundViolations);
            }
        }

        return new SimResult(
            seed,
            n,
            crashes,
            leaves,
            exclusions,
            firstFailureNs,
            firstKnownNs,
            firstBroadcastNs,
            stabilizationNs,
            stableSinceNs == NONE ? crashes : crashesAtStable,
            boundNs,
            port.heartbeatMessages,
            port.newObserverMessages,
            port.noticeMessages,
            port.leaveMessages,
            port.lostMessages,
            port.vanishedMessages,
            eventsProcessed,
            endNs,
            found,
            boundViolations,
            splitBrainPairs,
            partitionCheck.majorityLost(),
            sum(ProtocolCounter.FENCES_SENT),
            minorityFenceNs,
            port.probeMessages,
            restarts,
            rejoined,
            joinSpreadMaxNs,
            boots,
            sum(ProtocolCounter.HEALS_ANNOUNCED),
            port.viewDigestMessages,
            sum(ProtocolCounter.VIEWS_REPAIRED),
            reformsOfReplacedNodes + sum(ProtocolCounter.REFORMS),
            graceChecked,
            wire.refusedFrames());
    }

    private long sum(final ProtocolCounter counter)
    {
        long total = 0;
        for (final DetectorNode node : nodes)
        {
            total += node.counter(counter);
        }
        return total;
    }
}
