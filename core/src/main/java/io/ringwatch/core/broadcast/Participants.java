package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * Index arithmetic over the participants of a broadcast: ranks {@code 0..N-1} minus an excluded set, ascending.
 * Works on the excluded set directly, so nothing of size N is ever built.
 */
final class Participants
{
    private Participants()
    {
    }

    /**
     * @param clusterSize N.
     * @param excluded    ranks not taking part.
     * @return n, the number of participants.
     */
    static int count(final int clusterSize, final RankSet excluded)
    {
        return clusterSize - excluded.size();
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
     * @param index    a position in {@code [0, n)}.
     * @param excluded ranks not taking part.
     * @return the participant at that position. O(|excluded|).
     */
    static int rankAt(final int index, final RankSet excluded)
    {
        int rank = index;
        for (int i = 0, size = excluded.size(); i < size; i++)
        {
            if (excluded.rankAt(i) <= rank)
            {
                rank++;
            }
            else
            {
                break;
            }
        }
        return rank;
    }

    /**
     * @param n a positive count.
     * @return ⌊log₂ n⌋.
     */
    static int floorLog2(final int n)
    {
        return 31 - Integer.numberOfLeadingZeros(n);
    }
}
