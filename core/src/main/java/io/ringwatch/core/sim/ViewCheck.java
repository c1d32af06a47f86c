package io.ringwatch.core.sim;

import io.ringwatch.core.spi.RankSet;
import java.util.List;

/**
 * Completeness and final accuracy: every stopped rank is in every survivor's dead set, and no survivor's dead set
 * names a rank that is still running.
 */
public final class ViewCheck
{
    private ViewCheck()
    {
    }

    /**
     * Completeness (every stopped rank is in every survivor's D) and final accuracy (no survivor's D names a
     * rank that is still running).
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     */
    public static void check(final ClusterState state, final long seed, final List<String> out)
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
                if (!dead.contains(r) && missing++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": completeness: survivor " + rank + " never learned that " + r +
                        " stopped");
                }
            }
            for (int i = 0, size = dead.size(); i < size; i++)
            {
                final int r = dead.rankAt(i);
                if (!state.isStopped(r) && wrong++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": accuracy: survivor " + rank + " ends believing " + r +
                        " dead but it is running");
                }
            }
        }
        Checks.reportRest(out, seed, "completeness", missing);
        Checks.reportRest(out, seed, "accuracy", wrong);
    }
}
