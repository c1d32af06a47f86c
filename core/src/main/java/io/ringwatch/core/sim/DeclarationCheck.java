package io.ringwatch.core.sim;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.MembershipListener.FailureCause;

import java.util.ArrayList;
import java.util.List;

/**
 * The checker of every declaration of death, judged at the moment it is made against the {@link GroundTruth}:
 * accuracy (no running rank that has not been silent is declared dead), joins (a joiner is never suspected while it
 * runs), boots (no rank is declared before it was admitted) and deaf accusers (a node that hears nobody outside its
 * group accuses nobody), and split brain at any moment under the majority policy (no node declares a running,
 * admitted rank that holds it dead already: the live nemesis judges this, and a run that ends with both sides stopped
 * hides it from the end-state {@link SplitBrainCheck}). Marks the ranks a legitimate suspicion condemned, which must
 * end fenced.
 */
final class DeclarationCheck
{
    private static final long NONE = -1;

    private final GroundTruth truth;
    private final long seed;
    private final long deltaNs;
    private final long tauNs;
    private final boolean bootByJoin;
    // under the paper's policy every side of a partition goes on, each declaring the other
    private final boolean majorityPolicy;
    private final FaultPlan plan;
    private final Partition firstPartition;
    private final int[] firstPartitionGroups;
    // who ran when the first partition began, taken at the first declaration after it
    private boolean[] runningAtPartition;
    private final boolean[] condemned;
    private final boolean[] cutOffDeclared;
    private final List<String> violations = new ArrayList<>();
    private int accuracyViolations;
    private int joinViolations;
    private int bootViolations;
    private int deafAccusations;
    private int splitBrainMoments;

    /**
     * @param plan for when each rank starts and the groups of the first partition.
     */
    DeclarationCheck(final GroundTruth truth, final SimConfig config, final FaultPlan plan)
    {
        this.truth = truth;
        seed = config.seed();
        deltaNs = config.protocol().suspicionTimeoutNs();
        tauNs = config.network().maxDelayNs();
        bootByJoin = config.boot().mode() == BootMode.JOIN;
        majorityPolicy = config.protocol().partitionPolicy() == PartitionPolicy.MAJORITY;
        this.plan = plan;
        final List<Partition> partitions = config.network().partitions();
        firstPartition = partitions.isEmpty() ? null : partitions.get(0);
        firstPartitionGroups = plan.firstPartitionGroups();
        condemned = new boolean[config.nodes()];
        cutOffDeclared = new boolean[config.nodes()];
    }

    /**
     * Node {@code rank} declared {@code deadRank} dead.
     */
    void declared(final int rank, final int deadRank, final long timeNs, final FailureCause cause, final int reporter)
    {
        final long bootStartNs = plan.bootStartNs(deadRank);
        if (bootStartNs != NONE && (timeNs < bootStartNs ||
            bootByJoin && truth.knownIncarnation(rank, deadRank) == 0) && bootViolations++ < Checks.MAX_REPORTED)
        {
            // nobody may watch, let alone declare, a rank before it has been admitted and has beaten
            violations.add("seed=" + seed + ": boot: node " + rank + " declared " + deadRank + " dead at " +
                timeNs + "ns (" + cause + ", reporter " + reporter + ") before it was admitted (it starts at " +
                bootStartNs + "ns)");
        }
        final long incarnation = truth.incarnation(deadRank);
        if (truth.knownIncarnation(rank, deadRank) < incarnation)
        {
            // the death of an earlier life of a rank that has restarted since: that life did stop
            return;
        }
        checkSplitBrain(rank, deadRank, timeNs, cause);
        if (cause == FailureCause.DETECTED && firstPartitionGroups != null &&
            PartitionOutcome.accusesWhileDeaf(firstPartition, firstPartitionGroups, runningAtPartition(timeNs),
            rank, deadRank, timeNs) && deafAccusations++ < Checks.MAX_REPORTED)
        {
            violations.add("seed=" + seed + ": deaf accuser: node " + rank + " declared " + deadRank +
                " dead at " + timeNs + "ns while it could hear nobody outside its group");
        }
        final AccuracyCheck.Verdict verdict = AccuracyCheck.judge(truth, reporter, deadRank, timeNs, deltaNs);
        if (cause == FailureCause.DETECTED && verdict == AccuracyCheck.Verdict.CUT_OFF)
        {
            cutOffDeclared[deadRank] = true;
        }
        switch (verdict)
        {
            case CONDEMNED -> condemned[deadRank] = true;
            case FALSE_SUSPICION ->
            {
                // a notice (its source may be re-announcing it) spreads an earlier declaration by a node the
                // network had cut off from the rank: legitimate, the partition rule decides what becomes of it
                final boolean spreadsCutOff = cause == FailureCause.NOTICE && cutOffDeclared[deadRank];
                if (!spreadsCutOff && incarnation > 0 && tauNs < deltaNs && joinViolations++ < Checks.MAX_REPORTED)
                {
                    // a joiner is adopted by its observer only when it may beat at once: never suspected alive
                    violations.add("seed=" + seed + ": join: node " + rank + " declared joiner " + deadRank +
                        " (incarnation " + incarnation + ") dead at " + timeNs + "ns (" + cause + ", reporter " +
                        reporter + ") while it was running");
                }
                else if (!spreadsCutOff && incarnation == 0 && tauNs < deltaNs &&
                    accuracyViolations++ < Checks.MAX_REPORTED)
                {
                    violations.add(AccuracyCheck.falseSuspicion(
                        seed, rank, deadRank, timeNs, cause + ", reporter " + reporter));
                }
            }
            default ->
            {
            }
        }
    }

    private void checkSplitBrain(final int rank, final int deadRank, final long timeNs, final FailureCause cause)
    {
        if (majorityPolicy && !truth.isStopped(rank) && truth.isAdmitted(rank) && !truth.isStopped(deadRank) &&
            truth.isAdmitted(deadRank) && truth.deadSet(deadRank).contains(rank) &&
            truth.knownIncarnation(deadRank, rank) == truth.incarnation(rank) &&
            splitBrainMoments++ < Checks.MAX_REPORTED)
        {
            violations.add("seed=" + seed + ": split brain: node " + rank + " declared " + deadRank + " dead at " +
                timeNs + "ns (" + cause + ") while " + deadRank + ", running and admitted, held " + rank + " dead");
        }
    }

    private boolean[] runningAtPartition(final long nowNs)
    {
        if (runningAtPartition == null && nowNs >= firstPartition.startNs())
        {
            final long[] stoppedAtNs = truth.stoppedAtNs();
            runningAtPartition = new boolean[stoppedAtNs.length];
            for (int rank = 0; rank < stoppedAtNs.length; rank++)
            {
                runningAtPartition[rank] = stoppedAtNs[rank] < 0 || stoppedAtNs[rank] >= firstPartition.startNs();
            }
        }
        return runningAtPartition;
    }

    /**
     * A rank restarted: its new life starts with a clean record.
     */
    void forget(final int rank)
    {
        condemned[rank] = false;
        cutOffDeclared[rank] = false;
    }

    /**
     * @return the violations found, in the order the declarations were made.
     */
    List<String> violations()
    {
        return violations;
    }

    /**
     * @return per rank, whether a legitimate suspicion condemned its current life; read only.
     */
    boolean[] condemned()
    {
        return condemned;
    }

    int accuracyViolations()
    {
        return accuracyViolations;
    }

    int joinViolations()
    {
        return joinViolations;
    }

    int bootViolations()
    {
        return bootViolations;
    }

    int splitBrainMoments()
    {
        return splitBrainMoments;
    }
}
