package io.ringwatch.core.sim;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * An immutable copy of a failure notice as it travels through the simulated network. One copy is made per
 * broadcast id at its source and shared by every message of that broadcast, forwards included.
 */
final class SimNotice implements Notice, RankSet
{
    private final int deadRank;
    private final int sourceRank;
    private final int sourceIncarnation;
    private final long sequence;
    private final int[] deadRanks;

    private SimNotice(
        final int deadRank, final int sourceRank, final int sourceIncarnation, final long sequence, final int[] dead)
    {
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.deadRanks = dead;
    }

    static SimNotice copyOf(final Notice notice)
    {
        final RankSet dead = notice.deadSet();
        final int[] ranks = new int[dead.size()];
        for (int i = 0; i < ranks.length; i++)
        {
            ranks[i] = dead.rankAt(i);
        }
        return new SimNotice(
            notice.deadRank(), notice.sourceRank(), notice.sourceIncarnation(), notice.sequence(), ranks);
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
        return this;
    }

    public int size()
    {
        return deadRanks.length;
    }

    public int rankAt(final int index)
    {
        return deadRanks[index];
    }

    public boolean contains(final int rank)
    {
        return Arrays.binarySearch(deadRanks, rank) >= 0;
    }

    public int countBelow(final int rank)
    {
        final int i = Arrays.binarySearch(deadRanks, rank);
        return i >= 0 ? i : -(i + 1);
    }

    public String toString()
    {
        return "SimNotice{dead=" + deadRank + ", source=" + sourceRank + "/" + sourceIncarnation +
            ", seq=" + sequence + ", D=" + Arrays.toString(deadRanks) + "}";
    }
}
