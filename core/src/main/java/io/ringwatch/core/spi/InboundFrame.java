package io.ringwatch.core.spi;

/**
 * A frame that reached a node, decoded and authenticated: the one way frames enter the protocol
 * ({@code DetectorNode.onFrame}), whether the live agent decoded it from the wire or the simulator delivered it. Valid
 * only during that call. A field that the frame's {@link #type()} does not carry is unspecified.
 */
public interface InboundFrame
{
    /** {@link #senderIncarnation()} of a frame that carries none (a forgery's, in the simulator). */
    long UNKNOWN_INCARNATION = -1;

    /**
     * @return one of {@link FrameType}'s numbers.
     */
    int type();

    /**
     * @return the rank that sent this frame (for a forwarded notice, the forwarder).
     */
    int senderRank();

    /**
     * @return the sender's incarnation as the frame carries it.
     */
    long senderIncarnation();

    /**
     * @return the run the sender stamped the frame with: the receiver's own run, except for the unbound types
     * ({@link FrameType#JOIN_REQUEST}, JOIN_CHALLENGE, REFORM_POLL, REFORM_ACK: 0 from a sender bound to no run yet) and
     * a higher run the receiver may adopt during its startup grace.
     */
    long runId();

    /**
     * @return {@link FrameType#JOIN_REQUEST}: the joiner's nonce; {@link FrameType#JOIN_CHALLENGE}: the joiner's
     * nonce the contact returns.
     */
    long joinerNonce();

    /**
     * @return {@link FrameType#HEARTBEAT}: the emitter's counter.
     */
    long heartbeatCounter();

    /**
     * @return {@link FrameType#HEARTBEAT}: the emitter's clock when it sent the beat.
     */
    long heartbeatTimestampNs();

    /**
     * @return {@link FrameType#NEW_OBSERVER}: the rank the frame makes the sender's emitter.
     */
    int newObserverEmitterRank();

    /**
     * @return {@link FrameType#NEW_OBSERVER}: the observer's slot remote key (RDMA), 0 if none.
     */
    int rdmaRkey();

    /**
     * @return {@link FrameType#NEW_OBSERVER}: the observer's slot address (RDMA), 0 if none.
     */
    long rdmaAddress();

    /**
     * @return {@link FrameType#NEW_OBSERVER}: the observer's slot length (RDMA), 0 if none.
     */
    int rdmaLength();

    /**
     * @return {@link FrameType#FAILURE_NOTICE} and {@link FrameType#JOIN}: the notice.
     */
    Notice notice();

    /**
     * @return {@link FrameType#VIEW}: the sender's dead set.
     */
    RankSet viewDead();

    /**
     * @return {@link FrameType#VIEW}: the sender's incarnations.
     */
    RankIncarnations viewIncarnations();

    /**
     * @return probes and their answers, re-form polls and answers: the token; {@link FrameType#JOIN_CHALLENGE} and
     * {@link FrameType#JOIN_PROOF}: the nonce; {@link FrameType#VIEW_DIGEST}: the digest.
     */
    long probeToken();
}
