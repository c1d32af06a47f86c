package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.RankSet;

import java.util.List;

/**
 * What the checkers share. The properties every run must satisfy are functions of a {@link ClusterState}, so they can
 * be tested on hand-made states as well as applied to simulations, one class per checker ({@link ViewCheck},
 * {@link RingCheck}, {@link RejoinCheck}, {@link AccuracyCheck}, {@link SplitBrainCheck}, {@link FencingCheck},
 * {@link LivenessCheck}, {@link PartitionCheck}, {@link GraceCheck}, {@link JoinSpreadCheck}). Each appends readable
 * violations naming the seed, at most {@link #MAX_REPORTED} per check plus a count of the rest. Here: that limit, and
 * what "stable" means for one node (its live ring neighbours, and the current lives of restarted ranks).
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
