package io.ringwatch.core.spi;

/**
 * A failure notice as the protocol sees it: BCASTMSG(dead, source, D) of paper 002, plus the broadcast id
 * (source, source incarnation, sequence) that makes forwarding happen once per broadcast.
 * <p>
 * A view, valid only for the duration of the call it is passed to: transports that keep it must copy it.
 */
public interface Notice
{
    /**
     * @return the rank whose death this broadcast announces.
     */
    int deadRank();

    /**
     * @return the rank that started the broadcast; labels in the schedule are relative to it.
     */
    int sourceRank();

    /**
     * @return incarnation of the source when it started the broadcast.
     */
    long sourceIncarnation();

    /**
     * @return per-source sequence number of the broadcast.
     */
    long sequence();

    /**
     * @return D_msg: the dead ranks known to the source, including {@link #deadRank()}. Every node computes
     * the schedule from this set, never from its own view, so all agree on the participants.
     */
    RankSet deadSet();

    /**
     * @return the incarnation of {@link #deadRank()} this broadcast is about: the one that died, or for a
     * {@link #isJoin() JOIN} the one admitted. 0 is a rank's boot incarnation, the one every member assumes for a rank
     * that never rejoined. A node that knows a newer incarnation of the rank treats the broadcast as stale.
     */
    default long subjectIncarnation()
    {
        return 0;
    }

    /**
     * @return true if this broadcast admits {@link #deadRank()} under {@link #subjectIncarnation()} instead of
     * announcing its death. D_msg still holds the joiner: it takes no part in its own JOIN broadcast.
     */
    default boolean isJoin()
    {
        return false;
    }
}
