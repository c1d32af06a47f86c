package io.ringwatch.core.sim;

import java.util.Arrays;

/**
 * How the run's first failure spread: when each node learned it, and from that the time until every survivor knew it
 * ({@code firstKnownMs}) and the broadcast alone, from the first survivor that learned it (its detector) to the last
 * ({@code firstBroadcastMs}). Only boot lives count: a restarted rank was down when the first failure spread and learns
 * the view from its contact.
 */
final class FirstFailureSpread
{
    private static final long NONE = -1;

    private final long[] learnedNs;

    FirstFailureSpread(final int nodes)
    {
        learnedNs = new long[nodes];
        Arrays.fill(learnedNs, NONE);
    }

    /**
     * A node learned the first failure at {@code timeNs}.
     */
    void learned(final int rank, final long timeNs)
    {
        learnedNs[rank] = timeNs;
    }

    /**
     * @return from the first failure until every surviving boot life knew it, or -1 if one never did.
     */
    long knownNs(final ClusterState state, final long firstFailureNs)
    {
        final long lastNs = lastLearnedNs(state);
        return lastNs == NONE ? NONE : Math.max(lastNs, firstFailureNs) - firstFailureNs;
    }

    /**
     * @return from the first survivor that learned it to the last, or -1 if one never did.
     */
    long broadcastNs(final ClusterState state)
    {
        final long lastNs = lastLearnedNs(state);
        long firstNs = Long.MAX_VALUE;
        for (int rank = 0; rank < learnedNs.length; rank++)
        {
            if (countsIn(state, rank))
            {
                firstNs = Math.min(firstNs, learnedNs[rank]);
            }
        }
        return lastNs == NONE ? NONE : lastNs - firstNs;
    }

    private long lastLearnedNs(final ClusterState state)
    {
        long lastNs = Long.MIN_VALUE;
        for (int rank = 0; rank < learnedNs.length; rank++)
        {
            if (countsIn(state, rank))
            {
                if (learnedNs[rank] == NONE)
                {
                    return NONE;
                }
                lastNs = Math.max(lastNs, learnedNs[rank]);
            }
        }
        return lastNs == Long.MIN_VALUE ? NONE : lastNs;
    }

    private static boolean countsIn(final ClusterState state, final int rank)
    {
        return !state.isStopped(rank) && state.incarnation(rank) == 0;
    }
}
