package io.ringwatch.core.codec;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * A failure notice decoded by {@link FrameDecoder}: reused for every notice, overwritten by the next decode.
 * D_msg is expanded from its runs into a sorted {@code int[]} so lookups are a binary search. The array grows
 * only when a larger set than any before arrives, and never beyond the cluster size.
 */
public final class DecodedNotice implements Notice
{
    private final RankArray deadRanks;
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
        this.deadRanks = new RankArray(initialCapacity, maxCapacity);
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
        return deadRanks.capacity();
    }

    public String toString()
    {
        return "DecodedNotice{deadRank=" + deadRank +
            ", sourceRank=" + sourceRank +
            ", sourceIncarnation=" + sourceIncarnation +
            ", sequence=" + sequence +
            ", deadSet=" + deadRanks +
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
        deadRanks.clear();
        deadRanks.ensureCapacity(setSize);
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
    }

    /**
     * Append a run of consecutive ranks; runs arrive ascending and within the size given to {@link #reset}.
     */
    void appendRun(final int firstRank, final int length)
    {
        deadRanks.appendRun(firstRank, length);
    }
}
