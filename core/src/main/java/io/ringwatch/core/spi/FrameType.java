package io.ringwatch.core.spi;

/**
 * The frame types the protocol acts on, as the wire numbers them: one table for the codec that writes them and the
 * node that dispatches on them ({@link InboundFrame#type()}).
 */
public final class FrameType
{
    /** A heartbeat carried as a message (transports without remote memory). */
    public static final int HEARTBEAT = 1;
    /** T4: the sender has become the addressee's observer. */
    public static final int NEW_OBSERVER = 2;
    /** T5: a failure notice (or a heal, minority notice or fence, by its sequence band). */
    public static final int FAILURE_NOTICE = 3;
    /** The sender leaves. */
    public static final int LEAVE = 4;
    /** An ear check or a minority check asks for an answer. */
    public static final int PROBE = 5;
    /** The answer to a probe. */
    public static final int PROBE_ACK = 6;
    /** A daemon's notice about its application processes (two levels); not the node's. */
    public static final int PROCESS_FAILURE = 9;
    /** A JOIN broadcast: T5's schedule, admitting its subject. */
    public static final int JOIN = 16;
    /** A restarted rank asks a contact to admit it. */
    public static final int JOIN_REQUEST = 17;
    /** A contact's view for the joiner it admitted, or a neighbour's answer to a differing digest. */
    public static final int VIEW = 18;
    /** The digest of the sender's view, to its ring neighbours. */
    public static final int VIEW_DIGEST = 19;
    /** The lowest rank, joining in vain, polls whether every other rank is joining too. */
    public static final int REFORM_POLL = 20;
    /** A joiner's answer to a re-form poll. */
    public static final int REFORM_ACK = 21;
    /** A contact's answer to a JOIN_REQUEST: a fresh nonce the joiner must return before it is admitted. */
    public static final int JOIN_CHALLENGE = 22;
    /** A joiner returns its contact's nonce: proof that it is live now, not a recording. */
    public static final int JOIN_PROOF = 23;

    private FrameType()
    {
    }
}
