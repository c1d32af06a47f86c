package io.ringwatch.perf.jmh;

import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;

/**
 * Failure notices built once in a benchmark's setup and reused by every invocation.
 */
final class BenchNotice
{
    private BenchNotice()
    {
    }

    /**
     * @param deadRank          announced rank; must be one of {@code deadRanks}.
     * @param sourceRank        broadcast source; must not be one of {@code deadRanks}.
     * @param sourceIncarnation source incarnation.
     * @param sequence          broadcast sequence, at least 1.
     * @param deadRanks         D_msg, any order.
     * @return a notice owning its own copy of D_msg.
     */
    static ReusableNotice of(
        final int deadRank, final int sourceRank, final long sourceIncarnation, final long sequence,
        final int... deadRanks)
    {
        final RankArray deadSet = new RankArray(64);
        for (final int rank : deadRanks)
        {
            deadSet.add(rank);
        }
        if (!deadSet.contains(deadRank) || deadSet.contains(sourceRank) || sequence < 1)
        {
            throw new IllegalArgumentException("inconsistent notice: dead " + deadRank + ", source " + sourceRank +
                ", sequence " + sequence + ", D " + deadSet);
        }
        return new ReusableNotice().set(deadRank, sourceRank, sourceIncarnation, sequence, deadSet);
    }
}
