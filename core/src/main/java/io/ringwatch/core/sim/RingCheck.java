package io.ringwatch.core.sim;

import java.util.List;

/**
 * The ring reconnected: every survivor is linked to its nearest live predecessor and successor.
 */
public final class RingCheck
{
    private RingCheck()
    {
    }

    /**
     * Every survivor's emitter and observer are its nearest live predecessor and successor.
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     */
    public static void check(final ClusterState state, final long seed, final List<String> out)
    {
        int broken = 0;
        for (int rank = 0, n = state.clusterSize(); rank < n; rank++)
        {
            if (state.isStopped(rank))
            {
                continue;
            }
            final int predecessor = Checks.livePredecessor(state, rank);
            final int successor = Checks.liveSuccessor(state, rank);
            if ((state.emitter(rank) != predecessor || state.observer(rank) != successor) &&
                broken++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": ring: node " + rank + " has emitter " + state.emitter(rank) +
                    " and observer " + state.observer(rank) + ", live neighbours are " + predecessor + " and " +
                    successor);
            }
        }
        Checks.reportRest(out, seed, "ring", broken);
    }
}
