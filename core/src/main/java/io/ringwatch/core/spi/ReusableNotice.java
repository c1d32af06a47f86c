package io.ringwatch.core.spi;

/**
 * A {@link Notice} whose fields are set before each use, so a sender can hand notices out without allocating.
 * It keeps a reference to the dead set it is given, not a copy: the set must not change while a receiver reads it.
 */
public final class ReusableNotice implements Notice
{
    private int deadRank;
    private int sourceRank;
    private long sourceIncarnation;
    private long sequence;
    private RankSet deadSet;
    private long subjectIncarnation;
    private boolean join;

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
        final long sourceIncarnation,
        final long sequence,
        final RankSet deadSet)
    {
        this.deadRank = deadRank;
        this.sourceRank = sourceRank;
        this.sourceIncarnation = sourceIncarnation;
        this.sequence = sequence;
        this.deadSet = deadSet;
        this.subjectIncarnation = 0;
        this.join = false;
        return this;
    }

    /**
     * Set after {@link #set}, which resets both to a failure of the boot incarnation.
     *
     * @param subjectIncarnation incarnation of the dead (or joining) rank.
     * @param join               true for a JOIN broadcast.
     * @return this.
     */
    public ReusableNotice subject(final long subjectIncarnation, final boolean join)
    {
        this.subjectIncarnation = subjectIncarnation;
        this.join = join;
        return this;
    }

    public long subjectIncarnation()
    {
        return subjectIncarnation;
    }

    public boolean isJoin()
    {
        return join;
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
        return deadSet;
    }

    public String toString()
    {
        return (join ? "Join{rank=" : "Notice{dead=") + deadRank + "/" + subjectIncarnation + ", source=" + sourceRank + "/" + sourceIncarnation +
            ", seq=" + sequence + ", D=" + deadSet + "}";
    }
}
