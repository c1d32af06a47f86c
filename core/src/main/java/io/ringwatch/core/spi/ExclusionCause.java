package io.ringwatch.core.spi;

/**
 * Why a node stopped taking part ({@link MembershipListener#onExcluded}). The code is stable: view files and
 * counters carry it, so a retired code is never reused.
 */
public enum ExclusionCause
{
    /** A failure notice named this node: the others declared it dead (it was silent for longer than δ). */
    NOTICE(1),
    /** A node that holds this one dead told it so, because it still heard from it (it came back from a pause). */
    FENCED(2),
    /** This node left gracefully. */
    LEFT(3),
    /**
     * Partition policy {@code majority}: this node could no longer count a strict majority of the settled membership
     * alive (or exactly half without the lowest live rank), so it stopped rather than go on as a second cluster.
     */
    MINORITY(4),
    /**
     * Partition policy {@code majority}: this node heard nobody at all (no probe answered for longer than δ), so it is
     * the one cut off, or deaf; it stopped without accusing anyone.
     */
    ISOLATED(5),
    /**
     * This node lost its own transport (live: its media driver): it could neither hear nor be heard, so it stopped
     * before blaming anyone for the silence. The others detect it as a crash.
     */
    DRIVER_LOST(6),
    /**
     * This node's heartbeat transport reported a local fault (RDMA: its HCA port went down): it can no longer hear its
     * emitter, so it stopped before blaming anyone for the silence. The others detect it as a crash.
     */
    TRANSPORT_FAULT(7);

    private final int code;

    ExclusionCause(final int code)
    {
        this.code = code;
    }

    /**
     * @return the stable code of this cause.
     */
    public int code()
    {
        return code;
    }

    /**
     * @param code a code from {@link #code()}.
     * @return the cause, or null for 0 (not excluded) or a code this version does not know.
     */
    public static ExclusionCause ofCode(final int code)
    {
        for (final ExclusionCause cause : values())
        {
            if (cause.code == code)
            {
                return cause;
            }
        }
        return null;
    }
}
