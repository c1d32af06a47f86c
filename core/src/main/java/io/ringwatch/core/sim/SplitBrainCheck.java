package io.ringwatch.core.sim;

import io.ringwatch.core.spi.RankSet;
import java.util.List;

/**
 * No split brain: no two running nodes end holding each other dead.
 */
public final class SplitBrainCheck
{
    private SplitBrainCheck()
    {
    }

    /**
     * No split brain: no two running nodes hold each other dead.
     *
     * @param state cluster at the end of a run.
     * @param seed  for the messages.
     * @param out   violations are appended here.
     * @return the number of such pairs.
     */
    public static int check(final ClusterState state, final long seed, final List<String> out)
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
                if (b > a && !state.isStopped(b) && state.deadSet(b).contains(a) && pairs++ < Checks.MAX_REPORTED)
                {
                    out.add("seed=" + seed + ": split brain: running nodes " + a + " and " + b +
                        " hold each other dead");
                }
            }
        }
        Checks.reportRest(out, seed, "split brain", pairs);
        return pairs;
    }
}
