package io.ringwatch.core.spi;

/**
 * The bands a notice's sequence number falls in. They mark what a notice is for without another wire field, so the
 * protocol that sends them and the codec that checks them must agree on one table; it is here.
 * <pre>
 *   [1, 2^60)      ordinary broadcasts: failures and JOINs
 *   [2^60, 2^61)   heal notices: a JOIN of the announcer's emitter at the incarnation its view holds
 *   [2^61, 2^62)   minority notices: checked by receivers, never merged
 *   [2^62, 2^63)   fences: addressed to the zombie they name, never forwarded
 * </pre>
 */
public final class NoticeSequences
{
    /** First sequence of a heal notice. */
    public static final long HEAL_BASE = 1L << 60;

    /** First sequence of a minority notice. */
    public static final long MINORITY_BASE = 1L << 61;

    /** First sequence of a fence. */
    public static final long FENCE_BASE = 1L << 62;

    private NoticeSequences()
    {
    }

    /**
     * @param sequence a notice's sequence number.
     * @return true if it is a heal notice's: the one kind of JOIN that may name a boot incarnation (0), because it
     * names a live emitter at the incarnation the announcer holds and so changes no view.
     */
    public static boolean isHeal(final long sequence)
    {
        return sequence >= HEAL_BASE && sequence < MINORITY_BASE;
    }
}
