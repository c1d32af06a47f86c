package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * A fixed {@link RankSet} over a sorted copy of the given ranks; lookups allocate nothing.
 */
final class SortedRankSet implements RankSet
{
    static final SortedRankSet EMPTY = new SortedRankSet();

    private final int[] ranks;

    SortedRankSet(final int... ranks)
    {
        this.ranks = ranks.clone();
        Arrays.sort(this.ranks);
        for (int i = 1; i < this.ranks.length; i++)
        {
            if (this.ranks[i] == this.ranks[i - 1])
            {
                throw new IllegalArgumentException("duplicate rank " + this.ranks[i]);
            }
        }
    }

    public int size()
    {
        return ranks.length;
    }

    public int rankAt(final int index)
    {
        return ranks[index];
    }

    public boolean contains(final int rank)
    {
        return Arrays.binarySearch(ranks, rank) >= 0;
    }

    public int countBelow(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, rank);
        return i >= 0 ? i : -(i + 1);
    }

    public String toString()
    {
        return ranks.length <= 32 ? Arrays.toString(ranks) : ranks.length + " ranks";
    }
}
