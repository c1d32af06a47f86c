package io.ringwatch.core.protocol;

/**
 * What a node decides at boot from the answers its peers gave to its hellos (the runtime's unauthenticated
 * key-and-settings exchange, see {@code docs/operations.md}): whether a rank planned as a seed finds a live cluster
 * and joins it instead, and whether a node is the odd one out of its cluster's key or settings. Pure: the runtime
 * counts the answers, this rule judges them.
 * <p>
 * <b>Start = join for a seed without a record.</b> A seed restarted without its incarnation file (a wiped
 * {@code aeron.dir}, a new host) cannot tell its restart from a first boot by itself. It listens first: a peer that
 * answers as a member past its own startup grace belongs to a cluster that is already up, which a seed can only
 * enter by joining. At a first boot every peer is still within its grace (or not up yet), so the seeds boot as
 * planned; as soon as every peer asked has answered that way, without waiting out the window.
 * <p>
 * <b>The odd one out.</b> A node that heard only answers naming another key or setting, from more than half of the
 * peers it asked, and not one agreeing answer, is the one that differs: the agreeing peers of a cluster answer each
 * other. In a cluster of two, both stop: nothing tells which one differs.
 */
public final class BootHearing
{
    /** The longest a seed without a record listens before it boots: two rounds of hellos and their answers. */
    public static final long MAX_LISTEN_NS = 3_000_000_000L;

    private BootHearing()
    {
    }

    /**
     * @param startupGraceNs the node's startup grace.
     * @return how long a seed without a record listens for a live cluster before it boots as planned: within its
     * grace, so peers booting with it still start together, and no longer than {@link #MAX_LISTEN_NS}.
     */
    public static long listenNs(final long startupGraceNs)
    {
        return Math.min(startupGraceNs / 2, MAX_LISTEN_NS);
    }

    /**
     * Whether a rank has to listen before it boots.
     *
     * @param planned the plan from {@link BootPlan#decide}.
     * @return true for a seed or member: a rank planned to join (a restart on record, a rank that is no seed) asks to
     * be admitted anyway.
     */
    public static boolean listensFirst(final BootPlan planned)
    {
        return !planned.joins();
    }

    /**
     * The plan of a rank that listened, or null while it should listen on.
     *
     * @param planned     the plan it would boot by alone ({@link BootPlan#SEED} or {@link BootPlan#MEMBER}).
     * @param asked       peers it asked.
     * @param answered    of those, how many answered, with the same key and settings or not.
     * @param established of those, how many are members past their startup grace.
     * @param windowOver  its listening window ({@link #listenNs}) is over.
     * @return {@link BootPlan#JOIN} if a live cluster answered, {@code planned} once every peer asked answered
     * otherwise or the window is over, else null.
     */
    public static BootPlan afterListening(
        final BootPlan planned, final int asked, final int answered, final int established, final boolean windowOver)
    {
        if (established > 0)
        {
            return BootPlan.JOIN;
        }
        return answered >= asked || windowOver ? planned : null;
    }

    /**
     * @param asked      peers the node asked.
     * @param agreeing   of those, how many answered with the same key and settings.
     * @param differing  of those, how many answered naming another key or setting.
     * @return true if this node is the odd one out: answers that differ from more than half of the peers asked, none
     * that agrees.
     */
    public static boolean oddOneOut(final int asked, final int agreeing, final int differing)
    {
        return agreeing == 0 && differing > 0 && 2 * differing > asked;
    }
}
