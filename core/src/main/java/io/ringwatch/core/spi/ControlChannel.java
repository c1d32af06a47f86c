package io.ringwatch.core.spi;

/**
 * Control messages of the protocol. Sends must not block the caller's duty cycle: a transport that cannot
 * send right now queues or counts the drop; the protocol tolerates loss of at most k-1 paths per broadcast.
 */
public interface ControlChannel
{
    /**
     * Tell {@code emitterRank} that the calling node is now its observer (task T3, received as T4).
     *
     * @param emitterRank the new emitter.
     */
    void sendNewObserver(int emitterRank);

    /**
     * Graceful leave: tell the observer to announce this node's departure without waiting for a timeout.
     *
     * @param observerRank the leaving node's observer.
     */
    void sendLeave(int observerRank);

    /**
     * Send (originate or forward) a failure notice.
     *
     * @param toRank destination.
     * @param notice the notice; valid only during this call.
     */
    void sendNotice(int toRank, Notice notice);

    /**
     * Ask {@code toRank} to answer: under the {@code majority} partition policy a suspicion becomes a notice only
     * once a node beyond the suspect has answered, which proves this node can still hear (and finds how far a run
     * of silent predecessors reaches).
     *
     * @param toRank destination.
     * @param token  opaque, returned in the answer.
     */
    void sendProbe(int toRank, long token);

    /**
     * Answer a probe.
     *
     * @param toRank the prober.
     * @param token  the probe's token.
     */
    void sendProbeAck(int toRank, long token);

    /**
     * Ask {@code contactRank} to admit the calling node under its (new) incarnation. Transports without joins keep
     * the default, which refuses.
     *
     * @param contactRank a rank the caller believes alive.
     * @param joinerNonce the caller's nonce for this ask, which the contact's challenge returns.
     */
    default void sendJoinRequest(final int contactRank, final long joinerNonce)
    {
        throw new UnsupportedOperationException("this control channel cannot send JOIN_REQUEST");
    }

    /**
     * A contact's answer to a JOIN_REQUEST under a newer incarnation than it holds: the joiner must return
     * {@code nonce} ({@link #sendJoinProof}) before the contact acts on its request. Transports without joins keep the
     * default, which refuses.
     *
     * @param joinerRank  the rank that asked to join.
     * @param nonce       fresh, never 0.
     * @param joinerNonce the nonce the joiner's request carried (a re-form poll's token), returned to it.
     */
    default void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
    {
        throw new UnsupportedOperationException("this control channel cannot send JOIN_CHALLENGE");
    }

    /**
     * A joiner returns its contact's nonce: the request it made is its own, made now. Transports without joins keep
     * the default, which refuses.
     *
     * @param contactRank the contact that challenged the caller.
     * @param nonce       the challenge's nonce.
     */
    default void sendJoinProof(final int contactRank, final long nonce)
    {
        throw new UnsupportedOperationException("this control channel cannot send JOIN_PROOF");
    }

    /**
     * State transfer: the caller's dead set and the incarnations it knows, to a node just admitted or to a ring
     * neighbour whose view digest differed from the caller's ({@link #sendViewDigest}).
     *
     * @param joinerRank   the node admitted, or the neighbour.
     * @param deadSet      the caller's D (a joiner no longer in it); valid only during this call.
     * @param incarnations incarnations of the ranks that rejoined (a joiner's new one included); valid only
     *                     during this call.
     */
    default void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations incarnations)
    {
        throw new UnsupportedOperationException("this control channel cannot send VIEW");
    }

    /**
     * Tell a ring neighbour the digest of the caller's view ({@code VIEW_DIGEST}); a neighbour whose view differs
     * answers with {@link #sendView}. Transports without it keep the default, which refuses: such a node must run
     * with {@code viewDigestPeriodNs} 0.
     *
     * @param toRank the caller's emitter or observer.
     * @param digest the digest of the caller's view.
     */
    default void sendViewDigest(final int toRank, final long digest)
    {
        throw new UnsupportedOperationException("this control channel cannot send VIEW_DIGEST");
    }

    /**
     * Re-forming a cluster with no member left: the lowest rank, joining, asks {@code toRank} whether it is joining
     * too ({@code REFORM_POLL}). The sender's nearest live successor among the members takes it for a join request
     * from the sender. Transports without joins keep the default, which refuses.
     *
     * @param toRank any other rank of the cluster file.
     * @param token  identifies the poll, returned in the answer.
     */
    default void sendReformPoll(final int toRank, final long token)
    {
        throw new UnsupportedOperationException("this control channel cannot send REFORM_POLL");
    }

    /**
     * A joiner's answer to a {@code REFORM_POLL} ({@code REFORM_ACK}): it is joining and, for a lease, takes a view
     * from the poller alone.
     *
     * @param toRank the poller.
     * @param token  the poll's token.
     */
    default void sendReformAck(final int toRank, final long token)
    {
        throw new UnsupportedOperationException("this control channel cannot send REFORM_ACK");
    }

    /**
     * The protocol bound this node to a run (its own candidate at boot, a higher one adopted during the startup grace,
     * one learned from a contact, or a re-form's): stamp every frame sent from now on with {@code run}, and accept
     * frames under it only (under a higher one too while {@code adoptHigher}), but for the unbound types. Transports
     * that bind no runs keep the default, which ignores it; the protocol only binds runs when its driver gave it a
     * candidate.
     *
     * @param run         the run id, never 0.
     * @param adoptHigher frames under a higher run are accepted too: the protocol adopts it.
     */
    default void bindRun(final long run, final boolean adoptHigher)
    {
    }
}
