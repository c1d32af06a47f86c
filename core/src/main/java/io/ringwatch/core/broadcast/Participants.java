package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * Index arithmetic over the participants of a broadcast: ranks {@code 0..N-1} minus an excluded set, ascending.
 * Works on the excluded set directly, so nothing of size N is ever built, and every lookup is O(log |excluded|).
 * <p>
 * A label is a participant's position counted from the source's position, modulo n, so the source is label 0
 * and every node derives the same labels from the same excluded set.
 */
final class Participants
{
    private Participants()
    {
    }

    /**
     * @param clusterSize N.
     * @param excluded    ranks not taking part; members outside {@code [0, N)} are ignored.
     * @return n, the number of participants.
     */
    static int count(final int clusterSize, final RankSet excluded)
    {
        return clusterSize - excluded.countBelow(clusterSize);
    }

    /**
     * @param rank     a participant.
     * @param excluded ranks not taking part.
     * @return its position among participants.
     */
    static int indexOf(final int rank, final RankSet excluded)
    {
        return rank - excluded.countBelow(rank);
    }

    /**
     * The participant at a position. The i-th excluded rank x_i has {@code x_i - i} participants below it, a
     * non-decreasing sequence, so the number of excluded ranks below the answer is found by binary search.
     *
     * @param index    a position in {@code [0, n)}.
     * @param excluded ranks not taking part.
     * @return the participant at that position.
     */
    static int rankAt(final int index, final RankSet excluded)
    {
        int lo = 0;
        int hi = excluded.size();
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (excluded.rankAt(mid) - mid <= index)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return index + lo;
    }

    /**
     * @param self        a participant.
     * @param sourceIndex the source's position.
     * @param n           number of participants.
     * @param excluded    ranks not taking part.
     * @return the label of {@code self}.
     */
    static int labelOf(final int self, final int sourceIndex, final int n, final RankSet excluded)
    {
        return Math.floorMod(indexOf(self, excluded) - sourceIndex, n);
    }

    /**
     * @param label       in {@code [0, n)}.
     * @param sourceIndex the source's position.
     * @param n           number of participants.
     * @param excluded    ranks not taking part.
     * @return the participant with that label.
     */
    static int rankOfLabel(final int label, final int sourceIndex, final int n, final RankSet excluded)
    {
        return rankAt(label < n - sourceIndex ? label + sourceIndex : label - (n - sourceIndex), excluded);
    }

    /**
     * @param n a positive count.
     * @return ⌊log₂ n⌋.
     */
    static int floorLog2(final int n)
    {
        return 31 - Integer.numberOfLeadingZeros(n);
    }

    /**
     * @param n a positive count.
     * @return ⌈log₂ n⌉.
     */
    static int ceilLog2(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }
}
