package io.ringwatch.core.sim;

import java.util.List;

/**
 * Fencing: a rank a legitimate suspicion condemned ({@link AccuracyCheck.Verdict#CONDEMNED}) does not go on running
 * while a running node holds it dead, so no zombie goes on with a stale view. A condemnation that died with its
 * accuser is void: if every node that learned it has stopped (the accuser cut off before its notice got out, then
 * excluded itself), the condemned rank is alive in every running view and rightly goes on (found by the explorer:
 * N = 3, a pause and a cut, see {@code docs/status.md}).
 */
public final class FencingCheck
{
    private FencingCheck()
    {
    }

    /**
     * Fencing: no rank condemned by a legitimate suspicion is still running at the end of the run while a running node
     * holds it dead.
     *
     * @param state     cluster at the end of a run.
     * @param condemned per rank, whether it was ever {@link AccuracyCheck.Verdict#CONDEMNED}.
     * @param seed      for the messages.
     * @param out       violations are appended here.
     */
    public static void check(
        final ClusterState state, final boolean[] condemned, final long seed, final List<String> out)
    {
        int unfenced = 0;
        for (int rank = 0, n = state.clusterSize(); rank < n; rank++)
        {
            if (condemned[rank] && !state.isStopped(rank))
            {
                final int holder = runningHolder(state, rank);
                if (holder >= 0 && unfenced++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": fencing: node " + rank + " was declared dead while paused and never " +
                        "excluded itself, though running node " + holder + " holds it dead");
                }
            }
        }
        Checks.reportRest(out, seed, "fencing", unfenced);
    }

    private static int runningHolder(final ClusterState state, final int rank)
    {
        for (int q = 0, n = state.clusterSize(); q < n; q++)
        {
            if (q != rank && !state.isStopped(q) && state.deadSet(q).contains(rank))
            {
                return q;
            }
        }
        return -1;
    }
}
