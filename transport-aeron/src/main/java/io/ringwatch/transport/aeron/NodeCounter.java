package io.ringwatch.transport.aeron;

/**
 * The counters a node publishes in the media driver's counters file, so {@code AeronStat} and {@code ringwatch
 * stat} show them. Type ids occupy the documented range {@link #TYPE_ID_BASE}..{@link #TYPE_ID_BASE}+99, clear of
 * Aeron's own ids (below 1000). Each counter's key is {clusterId int32, rank int32, detail int32}.
 */
public enum NodeCounter
{
    /** Heartbeats this node wrote or sent to its observer. */
    HEARTBEATS_SENT(0, "heartbeats sent"),
    /** Duty cycles that saw new progress in this node's slot. */
    SLOT_PROGRESS_SEEN(1, "slot progress seen"),
    /** Heartbeat deadlines this node (as emitter) passed without beating: late by more than η. */
    HEARTBEAT_DEADLINES_MISSED(2, "heartbeat deadlines missed"),
    /** Largest interval between two heartbeats this node emitted, ns. */
    MAX_HEARTBEAT_GAP_NS(3, "largest heartbeat gap ns"),
    /** Emitters declared dead by this node after δ. */
    SUSPICIONS(4, "suspicions"),
    /** Broadcasts this node started. */
    NOTICES_ORIGINATED(5, "notices originated"),
    /** Notice copies forwarded. */
    NOTICES_FORWARDED(6, "notices forwarded"),
    /** Received frames rejected by the decoder, all reasons. */
    FRAMES_REJECTED(7, "frames rejected"),
    /** Size of the dead set. */
    DEAD_COUNT(8, "dead count"),
    /** View epoch. */
    VIEW_EPOCH(9, "view epoch"),
    /** Longest duty cycle, ns. */
    DUTY_CYCLE_MAX_NS(10, "duty cycle max ns"),
    /** {@link io.ringwatch.core.protocol.NodeState#code()}: 0 active, 1 excluded, 2 left. */
    NODE_STATE(11, "node state"),
    /** Late duty cycles that made this node restart its suspicion window. */
    PAUSES_DETECTED(12, "pauses detected"),
    /** Frames dropped on send: retry queue full, retry timeout, or unencodable. */
    SENDS_DROPPED(13, "sends dropped"),
    /** Frames that went out only after queueing for retry. */
    SENDS_RETRIED(14, "sends retried"),
    /** Frames from a rank this node knows is dead: dropped, and the sender told it is dead. */
    FRAMES_FROM_DEAD(15, "frames from dead ranks"),
    /** Frames rejected for one decoder reason; the reason's ordinal is the key's detail. */
    FRAMES_REJECTED_BY_REASON(16, "frames rejected"),
    /** UDP heartbeat frames the publication could not take (not connected or back pressured); never retried. */
    HEARTBEATS_DROPPED(17, "heartbeats dropped"),
    /** Fencing notices sent to ranks held dead that were still heard from (at most one per zombie per δ). */
    FENCES_SENT(18, "fences sent"),
    /** NEW_OBSERVER frames addressed to another rank: dropped. */
    MISADDRESSED(19, "new observer misaddressed"),
    /** NEW_OBSERVER frames whose slot descriptor the heartbeat transport refused (RDMA: invalid slot): dropped. */
    NEW_OBSERVER_REFUSED(20, "new observer refused"),
    /** RDMA WRITEs of heartbeats posted (transport rdma only, as are the counters below). */
    RDMA_BEATS_POSTED(21, "rdma beats posted", true),
    /** Heartbeats not posted because the queue pair to the observer was not up yet. */
    RDMA_BEATS_DROPPED_NOT_CONNECTED(22, "rdma beats dropped not connected", true),
    /** Writes that completed in error; each tears its queue pair down for a reconnect. */
    RDMA_COMPLETION_ERRORS(23, "rdma completion errors", true),
    /** Outbound connection attempts that failed or timed out. */
    RDMA_CONNECT_FAILURES(24, "rdma connect failures", true),
    /** Established connections lost (peer gone, fabric or device event). */
    RDMA_DISCONNECTS(25, "rdma disconnects", true),
    /** Times the local HCA port was seen down: the node stops at the first. */
    RDMA_LOCAL_PORT_DOWNS(26, "rdma local port downs", true),
    /** Longest connection set-up (attempt to established, descriptor received), ns. */
    RDMA_CONNECT_TIME_MAX_NS(27, "rdma connect time max ns", true),
    /** NEW_OBSERVER frames whose observer was already connected: the ring mended without waiting for rdma_cm. */
    RDMA_MENDS_ONTO_PRE_CONNECTED(28, "rdma mends onto pre-connected", true),
    /** NEW_OBSERVER frames whose observer was not connected yet: beats waited for rdma_cm. */
    RDMA_MENDS_AWAITING_CONNECTION(29, "rdma mends awaiting connection", true),
    /** Exceptions thrown by the application's listener; the protocol carries on (the first of each kind is logged). */
    LISTENER_EXCEPTIONS(30, "listener exceptions"),
    /** Heal notices this node announced: its emitter beat again after a silence taken for a cut. */
    HEALS_ANNOUNCED(31, "heals announced"),
    /** Deaths and JOINs this node told again after a heal. */
    HEAL_RETELLS(32, "heal retells"),
    /** Digests of this node's view sent to its ring neighbours. */
    VIEW_DIGESTS_SENT(33, "view digests sent"),
    /** Neighbours' digests that differed from this node's view; each was answered with the view. */
    VIEW_DIGEST_MISMATCHES(34, "view digest mismatches"),
    /** Neighbours' views that changed this node's view: broadcasts it had missed. */
    VIEWS_REPAIRED(35, "views repaired"),
    /** Neighbours' views whose deaths were refused: they would have left no majority. */
    VIEW_REPAIRS_REFUSED(36, "view repairs refused"),
    /** NEW_OBSERVER sent again to an emitter that answered a probe but did not beat this node. */
    NEW_OBSERVER_RESENT(37, "new observer resent"),
    /** REFORM_POLL frames sent: this node, the lowest rank, could not join and asked whether every rank is joining. */
    REFORM_POLLS_SENT(38, "reform polls sent"),
    /** REFORM_ACK frames sent: polls this joiner answered, each binding it to the poller for a lease. */
    REFORM_ACKS_SENT(39, "reform acks sent"),
    /** Times this node re-formed the cluster as its lone seed, every other rank having answered its poll. */
    REFORMS(40, "cluster reforms"),
    /** Views a joiner refused while bound to the lowest rank's poll. */
    REFORM_VIEWS_REFUSED(41, "reform views refused"),
    /** Control messages dropped half-reassembled: every reassembly slot was taken and theirs was idle longest. */
    REASSEMBLY_EVICTED(42, "reassembly evicted"),
    /** Control messages dropped in reassembly for growing past the longest frame. */
    REASSEMBLY_TOO_LONG(43, "reassembly too long");

    /** First type id of ringwatch counters. */
    public static final int TYPE_ID_BASE = 7700;

    private final int typeId;
    private final String label;
    private final boolean rdmaOnly;

    NodeCounter(final int offset, final String label)
    {
        this(offset, label, false);
    }

    NodeCounter(final int offset, final String label, final boolean rdmaOnly)
    {
        this.typeId = TYPE_ID_BASE + offset;
        this.label = label;
        this.rdmaOnly = rdmaOnly;
    }

    /**
     * @return true if only nodes with transport {@code rdma} have this counter.
     */
    public boolean rdmaOnly()
    {
        return rdmaOnly;
    }

    /**
     * @return the counter's type id.
     */
    public int typeId()
    {
        return typeId;
    }

    /**
     * @return the counter's label stem.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param typeId a counter type id.
     * @return true if it is a ringwatch counter.
     */
    public static boolean isRingwatch(final int typeId)
    {
        return typeId >= TYPE_ID_BASE && typeId < TYPE_ID_BASE + 100;
    }
}
