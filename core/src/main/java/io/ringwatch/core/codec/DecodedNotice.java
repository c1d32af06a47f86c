package io.ringwatch.core.codec;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * A failure notice decoded by {@link FrameDecoder}: reused for every notice, overwritten by the next decode.
 * D_msg is expanded from its runs into a sorted {@code int[]} so lookups are a binary search. The array grows
 * only when a larger set than any before arrives, and never beyond the cluster size.
 */
public final class DecodedNotice implements Notice
{
    private final int maxCapacity;
    private final DeadRanks deadRanks = new DeadRanks();
    private int[] ranks;
    private int size;
    private int deadRank;
    private int sourceRank;
    private int sourceIncarnation;
    private long sequence;

    /**
     * @param initialCapacity ranks held before the first growth; clamped to {@code [1, maxCapacity]}.
     * @param maxCapacity     largest set that can arrive: the cluster size.
     */
    public DecodedNotice(final int initialCapacity, final int maxCapacity)
    {
        if (maxCapacity < 1)
        {
            throw new IllegalArgumentException("maxCapacity must be positive: " + maxCapacity);
        }
        this.maxCapacity = maxCapacity;
        this.ranks = new int[Math.max(1, Math.min(initialCapacity, maxCapacity))];
    }

    public int deadRank()
    {
        return deadRank;
    }

    public int sourceRank()
    {
        return sourceRank;
    }

    public int sourceIncarnation()
    {
        return sourceIncarnation;
    }

    public long sequence()
    {
        return sequence;
    }

    public RankSet deadSet()
    {
        return deadRanks;
    }

    /**
     * @return ranks the set can hold without growing.
     */
    public int capacity()
    {
        return ranks.length;
    }

    public String toString()
    {
        return "DecodedNotice{deadRank=" + deadRank +
            ", sourceRank=" + sourceRank +
            ", sourceIncarnation=" + sourceIncarnation +
            ", sequence=" + sequence +
            ", deadSet=" + Arrays.toString(Arrays.copyOf(ranks, size)) +
            '}';
    }

    /**
     * Start a new notice whose set will hold {@code setSize} ranks, growing the array if it is too small.
     */
    void reset(
        final int deadRank,
        final int sourceRank,
        final int sourceIncarnation,
        final long sequence,
        final int setSize)
    {
        if (setSize > ranks.length)
        {
            if (setSize > maxCapacity)
            {
                throw new IllegalStateException("set of " + setSize + " exceeds the cluster size " + maxCapacity);
            }
            ranks = new int[(int)Math.min(maxCapacity, Math.max(setSize, 2L * ranks.length))];
        }
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        size = 0;
    }

    /**
     * Append a run of consecutive ranks; runs arrive ascending and within the size given to {@link #reset}.
     */
    void appendRun(final int firstRank, final int length)
    {
        final int[] ranks = this.ranks;
        int size = this.size;
        for (int i = 0; i < length; i++)
        {
            ranks[size++] = firstRank + i;
        }
        this.size = size;
    }

    private final class DeadRanks implements RankSet
    {
        public int size()
        {
            return size;
        }

        public int rankAt(final int index)
        {
            if (index < 0 || index >= size)
            {
                throw new IndexOutOfBoundsException("index " + index + " not in [0, " + size + ")");
            }
            return ranks[index];
        }

        public boolean contains(final int rank)
        {
            return Arrays.binarySearch(ranks, 0, size, rank) >= 0;
        }

        public int countBelow(final int rank)
        {
            final int i = Arrays.binarySearch(ranks, 0, size, rank);
            return i >= 0 ? i : -(i + 1);
        }
    }
}
