package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankSet;

import java.util.List;

/**
 * The properties every run must satisfy, as functions of a {@link ClusterState}, so they can be tested on
 * hand-made states as well as applied to simulations. Each check appends readable violations naming the seed,
 * at most {@link #MAX_REPORTED} per check plus a count of the rest.
 */
public final class Checks
{
    /** Violations spelled out per check; the rest are counted. */
    public static final int MAX_REPORTED = 10;

    private Checks()
    {
    }

    /**
     * @param state cluster.
     * @param rank  a rank.
     * @return the nearest predecessor of {@code rank} on the ring that has not stopped; {@code rank} itself if
     * it is the only one.
     */
    public static int livePredecessor(final ClusterState state, final int rank)
    {
        final int n = state.clusterSize();
        int candidate = rank;
        for (int i = 0; i < n; i++)
        {
            candidate = candidate == 0 ? n - 1 : candidate - 1;
            if (!state.isStopped(candidate))
            {
                return candidate;
            }
        }
        return rank;
    }

    /**
     * @param state cluster.
     * @param rank  a rank.
     * @return the nearest live successor of {@code rank}; {@code rank} itself if it is the only one.
     */
    public static int liveSuccessor(final ClusterState state, final int rank)
    {
        final int n = state.clusterSize();
        int candidate = rank;
        for (int i = 0; i < n; i++)
        {
            candidate = candidate == n - 1 ? 0 : candidate + 1;
            if (!state.isStopped(candidate))
            {
                return candidate;
            }
        }
        return rank;
    }

    /**
     * The paper's "reconnected and knows exactly the dead" for one live node.
     *
     * @param state        cluster.
     * @param rank         a live rank.
     * @param stoppedCount number of stopped ranks in the cluster.
     * @return true if its D equals the stopped set and its emitter and observer are its live neighbours.
     */
    public static boolean isNodeStable(final ClusterState state, final int rank, final int stoppedCount)
    {
        final RankSet dead = state.deadSet(rank);
        if (dead.size() != stoppedCount)
        {
            return false;
        }
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            if (!state.isStopped(dead.rankAt(i)))
            {
                return false;
            }
        }
        return state.emitter(rank) == livePredecessor(state, rank) &&
            state.observer(rank) == liveSuccessor(state, rank);
    }

    /**
     * @param node a node that has not stopped.
     * @return true if it takes part: a boot member, or a joiner that got its view and was adopted by its neighbours
     * ({@link ClusterState#isAdmitted}).
     */
    public static boolean takesPart(final DetectorNode node)
    {
        return node.state() == NodeState.ACTIVE && node.joinConfirmed();
    }

    /**
     * The rest of "stable" once ranks restart: dead sets alone cannot tell a rank's old life from its new one. For
     * small clusters (the explorer); the simulator keeps its own list of restarted ranks instead of scanning them all.
     *
     * @param state cluster.
     * @param rank  a live rank.
     * @return true if it takes part and holds every running rank that has restarted at its current incarnation.
     */
    public static boolean knowsCurrentLives(final ClusterState state, final int rank)
    {
        boolean anyRestarted = false;
        for (int r = 0, n = state.clusterSize(); r < n; r++)
        {
            if (state.incarnation(r) > 0)
            {
                anyRestarted = true;
                if (!state.isStopped(r) && state.knownIncarnation(rank, r) != state.incarnation(r))
                {
                    return false;
                }
            }
        }
        return !anyRestarted || state.isAdmitted(rank);
    }

    /**
     * Completeness (every stopped rank is in every survivor's D) and final accuracy (no survivor's D names a
     * rank that is still running).
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     */
    public static void checkViews(final ClusterState state, final long seed, final List<String> out)
    {
        final int n = state.clusterSize();
        final int[] stopped = new int[n];
        int stoppedCount = 0;
        for (int rank = 0; rank < n; rank++)
        {
            if (state.isStopped(rank))
            {
                stopped[stoppedCount++] = rank;
            }
        }

        int missing = 0;
        int wrong = 0;
        for (int rank = 0; rank < n; rank++)
        {
            if (state.isStopped(rank))
            {
                continue;
            }
            final RankSet dead = state.deadSet(rank);
            for (int j = 0; j < stoppedCount; j++)
            {
                final int r = stopped[j];
                if (!dead.contains(r) && missing++ < MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": completeness: survivor " + rank + " never learned that " + r +
                        " stopped");
                }
            }
            for (int i = 0, size = dead.size(); i < size; i++)
            {
                final int r = dead.rankAt(i);
                if (!state.isStopped(r) && wrong++ < MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": accuracy: survivor " + rank + " ends believing " + r +
                        " dead but it is running");
                }
            }
        }
        reportRest(out, seed, "completeness", missing);
        reportRest(out, seed, "accuracy", wrong);
    }

    /**
     * Every survivor's emitter and observer are its nearest live predecessor and successor.
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     */
    public static void checkRing(final ClusterState state, final long seed, final List<String> out)
    {
        int broken = 0;
        for (int rank = 0, n = state.clusterSize(); rank < n; rank++)
        {
            if (state.isStopped(rank))
            {
                continue;
            }
            final int predecessor = livePredecessor(state, rank);
            final int successor = liveSuccessor(state, rank);
            if ((state.emitter(rank) != predecessor || state.observer(rank) != successor) &&
                broken++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": ring: node " + rank + " has emitter " + state.emitter(rank) +
                    " and observer " + state.observer(rank) + ", live neighbours are " + predecessor + " and " +
                    successor);
            }
        }
        reportRest(out, seed, "ring", broken);
    }

    /**
     * Membership agreement after restarts: for every rank that restarted, every live node holds the same incarnation
     * for it, and a restarted rank that is running was admitted, under its latest incarnation, by every live node
     * (it is in nobody's dead set; {@link #checkRing} then checks the ring covers it).
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     * @return restarted ranks running at the end and admitted everywhere.
     */
    public static int checkRejoined(final ClusterState state, final long seed, final List<String> out)
    {
        int rejoined = 0;
        int broken = 0;
        final int n = state.clusterSize();
        for (int r = 0; r < n; r++)
        {
            if (state.incarnation(r) == 0)
            {
                continue;
            }
            final boolean running = !state.isStopped(r);
            if (running && !state.isAdmitted(r) && broken++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": join: restarted node " + r + " (incarnation " + state.incarnation(r) +
                    ") is running but was never admitted");
            }
            int agreed = -1;
            boolean admittedEverywhere = running && state.isAdmitted(r);
            for (int viewer = 0; viewer < n; viewer++)
            {
                if (state.isStopped(viewer))
                {
                    continue;
                }
                final int known = state.knownIncarnation(viewer, r);
                if (agreed < 0)
                {
                    agreed = known;
                }
                else if (known != agreed && broken++ < MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": join: live nodes disagree on the incarnation of " + r + ": " +
                        agreed + " and " + known + " (node " + viewer + ")");
                }
                if (running && (known != state.incarnation(r) || state.deadSet(viewer).contains(r)))
                {
                    admittedEverywhere = false;
                    if (broken++ < MAX_REPORTED)
                    {
                        out.add("seed=" + seed + ": join: node " + viewer + " holds running node " + r + " at " +
                            "incarnation " + known + (state.deadSet(viewer).contains(r) ? " dead" : " alive") +
                            ", its incarnation is " + state.incarnation(r));
                    }
                }
            }
            rejoined += admittedEverywhere ? 1 : 0;
        }
        reportRest(out, seed, "join", broken);
        return rejoined;
    }

    /**
     * What a declaration of death says about the protocol, judged at the moment it is made.
     */
    public enum Verdict
    {
        /** The rank had stopped: a true detection. */
        STOPPED,
        /**
         * The rank was silent for real (paused, or resumed less than δ ago): a legitimate suspicion that condemns
         * it; it must end excluded ({@link #checkFencing}).
         */
        CONDEMNED,
        /**
         * The network cut the rank off from the node that detected it: a suspicion the detector could not avoid;
         * what happens to the rank then is the partition rule's business.
         */
        CUT_OFF,
        /** The rank was running and had not been silent: an accuracy violation. */
        FALSE_SUSPICION
    }

    /**
     * Accuracy at the moment of each declaration: a node may declare a rank dead only once it stopped or while it
     * is silent for real.
     *
     * @param state    ground truth now.
     * @param detector the node that detected it (the declarer itself, or the source of the notice).
     * @param deadRank the rank declared dead.
     * @param nowNs    when.
     * @param deltaNs  δ: a rank resumed less than δ ago may not have beaten since.
     * @return the verdict.
     */
    public static Verdict judgeDeclaration(
        final ClusterState state, final int detector, final int deadRank, final long nowNs, final long deltaNs)
    {
        if (state.isStopped(deadRank))
        {
            return Verdict.STOPPED;
        }
        final long resumedNs = state.lastResumeNs(deadRank);
        if (state.isPaused(deadRank) || (resumedNs != ClusterState.NEVER && nowNs - resumedNs <= deltaNs))
        {
            return Verdict.CONDEMNED;
        }
        // the detection itself may be up to a broadcast older than its receipt: look back a few δ
        if (detector != deadRank && state.wasCut(deadRank, detector, nowNs - 4 * deltaNs, nowNs + 1))
        {
            return Verdict.CUT_OFF;
        }
        return Verdict.FALSE_SUSPICION;
    }

    /**
     * No split brain: no two running nodes hold each other dead.
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     * @return the number of such pairs.
     */
    public static int checkSplitBrain(final ClusterState state, final long seed, final List<String> out)
    {
        int pairs = 0;
        for (int a = 0, n = state.clusterSize(); a < n; a++)
        {
            if (state.isStopped(a))
            {
                continue;
            }
            final RankSet deadOfA = state.deadSet(a);
            for (int i = 0, size = deadOfA.size(); i < size; i++)
            {
                final int b = deadOfA.rankAt(i);
                if (b > a && !state.isStopped(b) && state.deadSet(b).contains(a) && pairs++ < MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": split brain: running nodes " + a + " and " + b +
                        " hold each other dead");
                }
            }
        }
        reportRest(out, seed, "split brain", pairs);
        return pairs;
    }

    /**
     * @param seed     for the message.
     * @param rank     the node that declared.
     * @param deadRank the rank it declared dead.
     * @param nowNs    when.
     * @param how      how it learned it, for the message.
     * @return the accuracy violation, spelled out.
     */
    public static String falseSuspicion(
        final long seed, final int rank, final int deadRank, final long nowNs, final String how)
    {
        return "seed=" + seed + ": accuracy: node " + rank + " declared " + deadRank + " dead at " + nowNs +
            "ns (" + how + ") while it was running";
    }

    /**
     * Fencing: every rank condemned by a legitimate suspicion has stopped by the end of the run, so no zombie
     * goes on with a stale view.
     *
     * @param state     cluster at the end of a run.
     * @param condemned per rank, whether it was ever {@link Verdict#CONDEMNED}.
     * @param seed      for the messages.
     * @param out       violations are appended here.
     */
    public static void checkFencing(
        final ClusterState state, final boolean[] condemned, final long seed, final List<String> out)
    {
        int unfenced = 0;
        for (int rank = 0, n = state.clusterSize(); rank < n; rank++)
        {
            if (condemned[rank] && !state.isStopped(rank) && unfenced++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": fencing: node " + rank +
                    " was declared dead while paused but never excluded itself");
            }
        }
        reportRest(out, seed, "fencing", unfenced);
    }

    /**
     * Liveness: after the first failure, the configuration becomes stable before the time cap.
     *
     * @param stable       whether it was stable at the end.
     * @param timeCapNs    the cap.
     * @param firstFailureNs when the first failure happened.
     * @param unsettled    live nodes not stable at the end.
     * @param live         live nodes.
     * @param seed         for the message.
     * @param out          a violation is appended here if not stable.
     */
    public static void checkLiveness(
        final boolean stable,
        final long timeCapNs,
        final long firstFailureNs,
        final int unsettled,
        final int live,
        final long seed,
        final List<String> out)
    {
        if (!stable)
        {
            out.add("seed=" + seed + ": liveness: not stable at the time cap " + timeCapNs + "ns (first failure at " +
                firstFailureNs + "ns, " + unsettled + " of " + live + " live nodes unsettled)");
        }
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
    public static void checkMajorityKept(
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
            if (2 * steadfast[g] > n && !crashedEver[rank] && excludedAtNs[rank] >= 0 && lost++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": majority: node " + rank + " stopped as " + causes[rank] + " at " +
                    excludedAtNs[rank] + "ns, though its side had " + steadfast[g] + " of " + n +
                    " nodes that never crashed");
            }
        }
        reportRest(out, seed, "majority", lost);
    }

    /**
     * @param stabilizationNs measured stabilization time.
     * @param boundNs         the bound.
     * @param failures        f it was computed for.
     * @param aliveNodes      n it was computed for.
     * @param seed            for the message.
     * @param out             a violation is appended here if the bound was exceeded.
     * @return true if within the bound.
     */
    public static boolean checkBound(
        final long stabilizationNs,
        final long boundNs,
        final int failures,
        final int aliveNodes,
        final long seed,
        final List<String> out)
    {
        if (stabilizationNs <= boundNs)
        {
            return true;
        }
        out.add("seed=" + seed + ": bound: stabilization took " + stabilizationNs + "ns > bound " + boundNs +
            "ns for f=" + failures + ", n=" + aliveNodes);
        return false;
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
    public static void checkPartitionOutcome(
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
            if (!losing[rank] && excluded[rank] && lost++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": majority lost: node " + rank + " of the majority side was excluded at " +
                    stoppedNs[rank] + "ns (cut at " + startNs + "ns for " + durationNs + "ns)");
            }
            if (losing[rank] && durationNs >= boundNs && (stoppedNs[rank] < 0 || stoppedNs[rank] - startNs > boundNs) &&
                late++ < MAX_REPORTED)
            {
                out.add("seed=" + seed + ": minority bound: node " + rank + " of a side without a majority " +
                    (stoppedNs[rank] < 0 ? "never stopped" : "stopped " + (stoppedNs[rank] - startNs) + "ns") +
                    " after the cut, bound " + boundNs + "ns");
            }
        }
        reportRest(out, seed, "majority lost", lost);
        reportRest(out, seed, "minority bound", late);
    }

    /**
     * A cut shorter than δ/2 changes nothing: nobody is excluded and nobody declared dead.
     *
     * @param exclusions nodes that excluded themselves.
     * @param declared   ranks some node declared dead.
     * @param seed       for the message.
     * @param out        a violation is appended here.
     */
    public static void checkShortCut(final int exclusions, final int declared, final long seed, final List<String> out)
    {
        if (exclusions > 0 || declared > 0)
        {
            out.add("seed=" + seed + ": short cut: a cut shorter than half the suspicion timeout excluded " + exclusions +
                " nodes and had " + declared + " declared dead");
        }
    }

    /**
     * @param out   where the line goes.
     * @param seed  for the message.
     * @param check name of the check.
     * @param count violations found, of which {@link #MAX_REPORTED} were spelled out.
     */
    static void reportRest(final List<String> out, final long seed, final String check, final int count)
    {
        if (count > MAX_REPORTED)
        {
            out.add("seed=" + seed + ": " + check + ": " + (count - MAX_REPORTED) + " more violations not listed");
        }
    }
}
