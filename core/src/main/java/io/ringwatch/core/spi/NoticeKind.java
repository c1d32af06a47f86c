package io.ringwatch.core.spi;

/**
 * What a notice is for, read from its sequence band ({@link NoticeSequences}) and its JOIN flag: the protocol asks a
 * notice its kind instead of comparing sequence numbers with band limits at every use.
 */
public enum NoticeKind
{
    /** A death, broadcast by its detector (or by a contact replacing an older life): merged and forwarded. */
    FAILURE,
    /** A rank admitted under a new incarnation, broadcast by its contact: admits it everywhere. */
    JOIN,
    /** A JOIN of the announcer's emitter at the incarnation it holds, after a silence taken for a cut: changes no
     * view, makes every node retell what it originated lately. */
    HEAL,
    /** From a node that found its side without a majority: checked by receivers, never merged. */
    MINORITY,
    /** Addressed to the zombie it names alone: never forwarded. */
    FENCE;

    /**
     * @param notice a notice.
     * @return its kind.
     */
    public static NoticeKind of(final Notice notice)
    {
        return of(notice.sequence(), notice.isJoin());
    }

    /**
     * @param sequence a notice's sequence number.
     * @param join     its JOIN flag.
     * @return the kind: the fence and minority bands whatever the flag; the heal band only for a JOIN (a failure
     * numbered there is an ordinary failure).
     */
    public static NoticeKind of(final long sequence, final boolean join)
    {
        if (sequence >= NoticeSequences.FENCE_BASE)
        {
            return FENCE;
        }
        if (sequence >= NoticeSequences.MINORITY_BASE)
        {
            return MINORITY;
        }
        if (join)
        {
            return sequence >= NoticeSequences.HEAL_BASE ? HEAL : JOIN;
        }
        return FAILURE;
    }

    /**
     * @return true for a notice whose D_msg a receiver may merge into its view once it has checked its majority:
     * failures, JOINs and heals (fences and minority notices never are).
     */
    public boolean isBroadcastNews()
    {
        return this != MINORITY && this != FENCE;
    }
}
