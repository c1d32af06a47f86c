package io.ringwatch.core.process;

import io.ringwatch.core.spi.RankSet;

/**
 * A {@link ProcessNotice} whose fields are set before each use; it references the sets it is given, not copies.
 */
public final class ReusableProcessNotice implements ProcessNotice
{
    private int sourceRank;
    private long sourceIncarnation;
    private long sequence;
    private RankSet excludedNodes;
    private RankSet deadProcesses;

    /**
     * @param sourceRank        the daemon that started the broadcast.
     * @param sourceIncarnation its incarnation.
     * @param sequence          its broadcast sequence.
     * @param excludedNodes     D_msg, referenced.
     * @param deadProcesses     the dead application ranks, referenced.
     * @return this.
     */
    public ReusableProcessNotice set(
        final int sourceRank,
        final long sourceIncarnation,
        final long sequence,
        final RankSet excludedNodes,
        final RankSet deadProcesses)
    {
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.excludedNodes = excludedNodes;
        this.deadProcesses = deadProcesses;
        return this;
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

    public RankSet excludedNodes()
    {
        return excludedNodes;
    }

    public RankSet deadProcesses()
    {
        return deadProcesses;
    }

    public String toString()
    {
        return "ProcessNotice{source=" + sourceRank + "/" + sourceIncarnation + ", seq=" + sequence +
            ", dead=" + deadProcesses + ", D=" + excludedNodes + "}";
    }
}
