package io.ringwatch.perf.jmh;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * A failure notice built once in a benchmark's setup and reused by every invocation.
 */
final class BenchNotice implements Notice
{
    private final RankArray deadSet = new RankArray(64);
    private final int deadRank;
    private final int sourceRank;
    private final int sourceIncarnation;
    private final long sequence;

    /**
     * @param deadRank          announced rank; must be one of {@code deadRanks}.
     * @param sourceRank        broadcast source; must not be one of {@code deadRanks}.
     * @param sourceIncarnation source incarnation.
     * @param sequence          broadcast sequence, at least 1.
     * @param deadRanks         D_msg, any order.
     */
    BenchNotice(
        final int deadRank, final int sourceRank, final int sourceIncarnation, final long sequence,
        final int... deadRanks)
    {
        for (final int rank : deadRanks)
        {
            deadSet.add(rank);
        }
        if (!deadSet.contains(deadRank) || deadSet.contains(sourceRank) || sequence < 1)
        {
            throw new IllegalArgumentException("inconsistent notice: dead " + deadRank + ", source " + sourceRank +
                ", sequence " + sequence + ", D " + deadSet);
        }
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
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
        return deadSet;
    }
}
