package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.ProtocolCounter;

/**
 * The counters a node publishes in the media driver's counters file, so {@code AeronStat} and {@code ringwatch
 * stat} show them. Type ids occupy the documented range {@link #TYPE_ID_BASE}..{@link #TYPE_ID_BASE}+99, clear of
 * Aeron's own ids (below 1000). Each counter's key is {clusterId int32, rank int32, detail int32}.
 */
public enum NodeCounter
{
    /** See {@link ProtocolCounter#HEARTBEATS_SENT}. */
    HEARTBEATS_SENT(0, ProtocolCounter.HEARTBEATS_SENT),
    /** See {@link ProtocolCounter#HEARTBEAT_PROGRESS_SEEN}. */
    SLOT_PROGRESS_SEEN(1, ProtocolCounter.HEARTBEAT_PROGRESS_SEEN),
    /** See {@link ProtocolCounter#HEARTBEAT_DEADLINES_MISSED}. */
    HEARTBEAT_DEADLINES_MISSED(2, ProtocolCounter.HEARTBEAT_DEADLINES_MISSED),
    /** See {@link ProtocolCounter#MAX_HEARTBEAT_GAP_NS}. */
    MAX_HEARTBEAT_GAP_NS(3, ProtocolCounter.MAX_HEARTBEAT_GAP_NS),
    /** See {@link ProtocolCounter#SUSPICIONS}. */
    SUSPICIONS(4, ProtocolCounter.SUSPICIONS),
    /** See {@link ProtocolCounter#NOTICES_ORIGINATED}. */
    NOTICES_ORIGINATED(5, ProtocolCounter.NOTICES_ORIGINATED),
    /** See {@link ProtocolCounter#NOTICES_FORWARDED}. */
    NOTICES_FORWARDED(6, ProtocolCounter.NOTICES_FORWARDED),
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
    /** See {@link ProtocolCounter#PAUSES_DETECTED}. */
    PAUSES_DETECTED(12, ProtocolCounter.PAUSES_DETECTED),
    /** Frames dropped on send: retry queue full, retry timeout, or unencodable. */
    SENDS_DROPPED(13, "sends dropped"),
    /** Frames that went out only after queueing for retry. */
    SENDS_RETRIED(14, "sends retried"),
    /** See {@link ProtocolCounter#FRAMES_FROM_DEAD}. */
    FRAMES_FROM_DEAD(15, ProtocolCounter.FRAMES_FROM_DEAD),
    /** Frames rejected for one decoder reason; the reason's ordinal is the key's detail. */
    FRAMES_REJECTED_BY_REASON(16, "frames rejected"),
    /** UDP heartbeat frames the publication could not take (not connected or back pressured); never retried. */
    HEARTBEATS_DROPPED(17, "heartbeats dropped"),
    /** See {@link ProtocolCounter#FENCES_SENT}. */
    FENCES_SENT(18, ProtocolCounter.FENCES_SENT),
    /** See {@link ProtocolCounter#MISADDRESSED}. */
    MISADDRESSED(19, ProtocolCounter.MISADDRESSED),
    /** See {@link ProtocolCounter#NEW_OBSERVER_REFUSED}. */
    NEW_OBSERVER_REFUSED(20, ProtocolCounter.NEW_OBSERVER_REFUSED),
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
    /** See {@link ProtocolCounter#HEALS_ANNOUNCED}. */
    HEALS_ANNOUNCED(31, ProtocolCounter.HEALS_ANNOUNCED),
    /** See {@link ProtocolCounter#HEAL_RETELLS}. */
    HEAL_RETELLS(32, ProtocolCounter.HEAL_RETELLS),
    /** See {@link ProtocolCounter#VIEW_DIGESTS_SENT}. */
    VIEW_DIGESTS_SENT(33, ProtocolCounter.VIEW_DIGESTS_SENT),
    /** See {@link ProtocolCounter#VIEW_DIGEST_MISMATCHES}. */
    VIEW_DIGEST_MISMATCHES(34, ProtocolCounter.VIEW_DIGEST_MISMATCHES),
    /** See {@link ProtocolCounter#VIEWS_REPAIRED}. */
    VIEWS_REPAIRED(35, ProtocolCounter.VIEWS_REPAIRED),
    /** See {@link ProtocolCounter#VIEW_REPAIRS_REFUSED}. */
    VIEW_REPAIRS_REFUSED(36, ProtocolCounter.VIEW_REPAIRS_REFUSED),
    /** See {@link ProtocolCounter#NEW_OBSERVER_RESENT}. */
    NEW_OBSERVER_RESENT(37, ProtocolCounter.NEW_OBSERVER_RESENT),
    /** See {@link ProtocolCounter#REFORM_POLLS_SENT}. */
    REFORM_POLLS_SENT(38, ProtocolCounter.REFORM_POLLS_SENT),
    /** See {@link ProtocolCounter#REFORM_ACKS_SENT}. */
    REFORM_ACKS_SENT(39, ProtocolCounter.REFORM_ACKS_SENT),
    /** See {@link ProtocolCounter#REFORMS}. */
    REFORMS(40, ProtocolCounter.REFORMS),
    /** See {@link ProtocolCounter#REFORM_VIEWS_REFUSED}. */
    REFORM_VIEWS_REFUSED(41, ProtocolCounter.REFORM_VIEWS_REFUSED),
    /** Control messages dropped half-reassembled: every reassembly slot was taken and theirs was idle longest. */
    REASSEMBLY_EVICTED(42, "reassembly evicted"),
    /** Control messages dropped in reassembly for growing past the longest frame. */
    REASSEMBLY_TOO_LONG(43, "reassembly too long"),
    /** See {@link ProtocolCounter#NOTICES_DUPLICATE}. */
    NOTICES_DUPLICATE(44, ProtocolCounter.NOTICES_DUPLICATE),
    /** See {@link ProtocolCounter#NOTICES_REFUSED}. */
    NOTICES_REFUSED(45, ProtocolCounter.NOTICES_REFUSED),
    /** See {@link ProtocolCounter#CATCH_UPS_FORWARDED}. */
    CATCH_UPS_FORWARDED(46, ProtocolCounter.CATCH_UPS_FORWARDED),
    /** See {@link ProtocolCounter#STRAY_FENCES}. */
    STRAY_FENCES(47, ProtocolCounter.STRAY_FENCES),
    /** See {@link ProtocolCounter#STALE_FRAMES}. */
    STALE_FRAMES(48, ProtocolCounter.STALE_FRAMES),
    /** See {@link ProtocolCounter#HEARTBEAT_FRAMES_REFUSED}. */
    HEARTBEAT_FRAMES_REFUSED(49, ProtocolCounter.HEARTBEAT_FRAMES_REFUSED),
    /** See {@link ProtocolCounter#PROBES_SENT}. */
    PROBES_SENT(50, ProtocolCounter.PROBES_SENT),
    /** See {@link ProtocolCounter#JOIN_REQUESTS_SENT}. */
    JOIN_REQUESTS_SENT(51, ProtocolCounter.JOIN_REQUESTS_SENT),
    /** See {@link ProtocolCounter#JOINS_ADMITTED}. */
    JOINS_ADMITTED(52, ProtocolCounter.JOINS_ADMITTED),
    /** See {@link ProtocolCounter#JOINS_LEARNED}. */
    JOINS_LEARNED(53, ProtocolCounter.JOINS_LEARNED),
    /** See {@link ProtocolCounter#JOINS_REFUSED}. */
    JOINS_REFUSED(54, ProtocolCounter.JOINS_REFUSED),
    /** See {@link ProtocolCounter#NEW_OBSERVER_DEFERRED}. */
    NEW_OBSERVER_DEFERRED(55, ProtocolCounter.NEW_OBSERVER_DEFERRED),
    /** Hellos from a peer whose key differs (UDP); each logged at most once per peer per 10 s. */
    HELLO_KEY_MISMATCHES(56, "hello key mismatches"),
    /** Hellos from a peer whose configuration differs (UDP); each logged at most once per peer per 10 s. */
    HELLO_CONFIG_MISMATCHES(57, "hello config mismatches"),
    /** See {@link ProtocolCounter#JOIN_CHALLENGES_SENT}. */
    JOIN_CHALLENGES_SENT(58, ProtocolCounter.JOIN_CHALLENGES_SENT),
    /** See {@link ProtocolCounter#JOIN_PROOFS_SENT}. */
    JOIN_PROOFS_SENT(59, ProtocolCounter.JOIN_PROOFS_SENT),
    /** See {@link ProtocolCounter#JOIN_PROOFS_REFUSED}. */
    JOIN_PROOFS_REFUSED(60, ProtocolCounter.JOIN_PROOFS_REFUSED),
    /** See {@link ProtocolCounter#JOIN_CHALLENGES_IGNORED}. */
    JOIN_CHALLENGES_IGNORED(61, ProtocolCounter.JOIN_CHALLENGES_IGNORED),
    /** See {@link ProtocolCounter#RUNS_ADOPTED}. */
    RUNS_ADOPTED(62, ProtocolCounter.RUNS_ADOPTED),
    /** See {@link ProtocolCounter#RUNS_LEARNED}. */
    RUNS_LEARNED(63, ProtocolCounter.RUNS_LEARNED),
    /** The run this node's frames are stamped with and its decoder takes: 0 until the protocol binds one. */
    RUN_ID(64, "run id");

    /** First type id of ringwatch counters. */
    public static final int TYPE_ID_BASE = 7700;

    private static final NodeCounter[] BY_OFFSET = values();

    private final int typeId;
    private final String label;
    private final boolean rdmaOnly;
    private final ProtocolCounter protocolCounter;

    NodeCounter(final int offset, final String label)
    {
        this(offset, label, false, null);
    }

    NodeCounter(final int offset, final String label, final boolean rdmaOnly)
    {
        this(offset, label, rdmaOnly, null);
    }

    NodeCounter(final int offset, final ProtocolCounter protocolCounter)
    {
        this(offset, protocolCounter.label(), false, protocolCounter);
    }

    NodeCounter(final int offset, final String label, final boolean rdmaOnly, final ProtocolCounter protocolCounter)
    {
        this.typeId = TYPE_ID_BASE + offset;
        this.label = label;
        this.rdmaOnly = rdmaOnly;
        this.protocolCounter = protocolCounter;
    }

    /**
     * @return the protocol's counter this one publishes, or null for the runtime's own (transport, decoder, gauges).
     */
    public ProtocolCounter protocolCounter()
    {
        return protocolCounter;
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

    /**
     * @param typeId a counter type id.
     * @return the ringwatch counter of that type, or null.
     */
    public static NodeCounter ofTypeId(final int typeId)
    {
        final int offset = typeId - TYPE_ID_BASE;
        return offset >= 0 && offset < BY_OFFSET.length && BY_OFFSET[offset].typeId == typeId ?
            BY_OFFSET[offset] : null;
    }

    /**
     * @return true for a value that goes down as well as up (state, sizes, maxima); the rest only count up.
     */
    public boolean gauge()
    {
        switch (this)
        {
            case DEAD_COUNT:
            case VIEW_EPOCH:
            case DUTY_CYCLE_MAX_NS:
            case NODE_STATE:
            case MAX_HEARTBEAT_GAP_NS:
            case RDMA_CONNECT_TIME_MAX_NS:
                return true;
            default:
                return false;
        }
    }

    /**
     * @return the name metrics use: {@code ringwatch_} and the constant's name in lower case, {@code _total} for a
     * counter (the labels may repeat, the names may not).
     */
    public String metricName()
    {
        return "ringwatch_" + name().toLowerCase(java.util.Locale.ROOT) + (gauge() ? "" : "_total");
    }
}
