package io.ringwatch.core.sim;

import java.util.List;

/**
 * Fencing: every rank a legitimate suspicion condemned ({@link AccuracyCheck.Verdict#CONDEMNED}) ends stopped, so no
 * zombie goes on with a stale view.
 */
public final class FencingCheck
{
    private FencingCheck()
    {
    }

    /**
     * Fencing: every rank condemned by a legitimate suspicion has stopped by the end of the run, so no zombie
     * goes on with a stale view.
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
            if (condemned[rank] && !state.isStopped(rank) && unfenced++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": fencing: node " + rank +
                    " was declared dead while paused but never excluded itself");
            }
        }
        Checks.reportRest(out, seed, "fencing", unfenced);
    }
}
