package io.ringwatch.core.codec;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * A plain notice for tests: the dead set is whatever array it is given, so tests can also hand the encoder sets
 * that break the contract (unsorted, empty).
 */
final class TestNotice implements Notice, RankSet
{
    private final int deadRank;
    private final int sourceRank;
    private final long sourceIncarnation;
    private final long sequence;
    private final int[] ranks;

    TestNotice(
        final int deadRank, final int sourceRank, final long sourceIncarnation, final long sequence, final int... ranks)
    {
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.ranks = ranks;
    }

    /**
     * @return ranks {@code first, first + 1, ..., first + length - 1}.
     */
    static int[] run(final int first, final int length)
    {
        final int[] ranks = new int[length];
        for (int i = 0; i < length; i++)
        {
            ranks[i] = first + i;
        }
        return ranks;
    }

    /**
     * @return {@code runs} single-rank runs: 0, 2, 4, ...
     */
    static int[] everyOther(final int runs)
    {
        final int[] ranks = new int[runs];
        for (int i = 0; i < runs; i++)
        {
            ranks[i] = 2 * i;
        }
        return ranks;
    }

    public int deadRank()
    {
        return deadRank;
    }

    public int sourceRank()
    {
        return sourceRank;
    }

    public long sourceIncarnation()
    {
        return sourceIncarnation;
    }

    public long sequence()
    {
        return sequence;
    }

    public RankSet deadSet()
    {
        return this;
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

    int[] ranks()
    {
        return ranks.clone();
    }
}
