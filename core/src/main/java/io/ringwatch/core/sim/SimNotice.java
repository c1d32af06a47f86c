package io.ringwatch.core.sim;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * An immutable copy of a failure notice as it travels through the simulated network. One copy is made per
 * broadcast id at its source and shared by every message of that broadcast, forwards included.
 */
final class SimNotice implements Notice
{
    private final int deadRank;
    private final int sourceRank;
    private final int sourceIncarnation;
    private final long sequence;
    private final RankArray deadRanks;

    private SimNotice(
        final int deadRank, final int sourceRank, final int sourceIncarnation, final long sequence, final RankArray dead)
    {
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.deadRanks = dead;
    }

    static SimNotice copyOf(final Notice notice)
    {
        return new SimNotice(
            notice.deadRank(),
            notice.sourceRank(),
            notice.sourceIncarnation(),
            notice.sequence(),
            RankArray.copyOf(notice.deadSet()));
    }

    boolean sameBroadcast(final Notice notice)
    {
        return sequence == notice.sequence() &&
            sourceRank == notice.sourceRank() &&
            sourceIncarnation == notice.sourceIncarnation();
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

    public String toString()
    {
        return "SimNotice{dead=" + deadRank + ", source=" + sourceRank + "/" + sourceIncarnation +
            ", seq=" + sequence + ", D=" + deadRanks + "}";
    }
}
