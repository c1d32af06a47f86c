package io.ringwatch.core.spi;

/**
 * A {@link Notice} whose fields are set before each use, so a sender can hand notices out without allocating.
 * It keeps a reference to the dead set it is given, not a copy: the set must not change while a receiver reads it.
 */
public final class ReusableNotice implements Notice
{
    private int deadRank;
    private int sourceRank;
    private int sourceIncarnation;
    private long sequence;
    private RankSet deadSet;

    /**
     * @param deadRank          the rank announced dead.
     * @param sourceRank        the rank that started the broadcast.
     * @param sourceIncarnation the source's incarnation.
     * @param sequence          the source's broadcast sequence.
     * @param deadSet           D_msg, referenced not copied.
     * @return this.
     */
    public ReusableNotice set(
        final int deadRank,
        final int sourceRank,
        final int sourceIncarnation,
        final long sequence,
        final RankSet deadSet)
    {
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.deadSet = deadSet;
        return this;
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

    public String toString()
    {
        return "Notice{dead=" + deadRank + ", source=" + sourceRank + "/" + sourceIncarnation +
            ", seq=" + sequence + ", D=" + deadSet + "}";
    }
}
