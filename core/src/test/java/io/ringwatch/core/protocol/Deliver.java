package io.ringwatch.core.protocol;

import io.ringwatch.core.sim.SimFrame;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * Hands a node one frame through its one inbound entry, {@link DetectorNode#onFrame}, as the live agent and the
 * simulator do. One frame is reused (the allocation tests deliver through here); every field a rule reads is taken
 * before the rule runs, so a test channel that delivers on at once does not disturb the frame being handled.
 */
public final class Deliver
{
    private static final SimFrame FRAME = new SimFrame();

    private Deliver()
    {
    }

    public static void heartbeat(
        final DetectorNode node, final int from, final long incarnation, final long counter, final long timestampNs,
        final long nowNs)
    {
        node.onFrame(FRAME.heartbeat(from, incarnation, counter, timestampNs), nowNs);
    }

    public static void newObserver(
        final DetectorNode node,
        final int from,
        final long incarnation,
        final int emitter,
        final int rkey,
        final long address,
        final int length,
        final long nowNs)
    {
        node.onFrame(FRAME.newObserver(from, incarnation, emitter, rkey, address, length), nowNs);
    }

    public static void notice(
        final DetectorNode node, final Notice notice, final int from, final long incarnation, final long nowNs)
    {
        node.onFrame(FRAME.notice(from, incarnation, notice), nowNs);
    }

    public static void leave(final DetectorNode node, final int from, final long incarnation, final long nowNs)
    {
        node.onFrame(FRAME.header(FrameType.LEAVE, from, incarnation), nowNs);
    }

    public static void joinRequest(final DetectorNode node, final int from, final long incarnation, final long nowNs)
    {
        node.onFrame(FRAME.header(FrameType.JOIN_REQUEST, from, incarnation), nowNs);
    }

    /**
     * A JOIN_REQUEST and, if the contact challenges it, the joiner's JOIN_PROOF returning the nonce at once: a join as
     * a live joiner makes it.
     *
     * @param io the contact's channels, where its challenges are recorded.
     */
    static void provenJoinRequest(
        final DetectorNode node, final RecordingChannels io, final int from, final long incarnation, final long nowNs)
    {
        final int challenges = io.joinChallenges.size();
        joinRequest(node, from, incarnation, nowNs);
        if (io.joinChallenges.size() > challenges)
        {
            final RecordingChannels.Sent challenge = io.joinChallenges.get(io.joinChallenges.size() - 1);
            joinProof(node, from, incarnation, challenge.value(), nowNs);
        }
    }

    public static void joinChallenge(
        final DetectorNode node, final int from, final long incarnation, final long nonce, final long nowNs)
    {
        withToken(node, FrameType.JOIN_CHALLENGE, from, incarnation, nonce, nowNs);
    }

    public static void joinProof(
        final DetectorNode node, final int from, final long incarnation, final long nonce, final long nowNs)
    {
        withToken(node, FrameType.JOIN_PROOF, from, incarnation, nonce, nowNs);
    }

    public static void view(
        final DetectorNode node,
        final int from,
        final long incarnation,
        final RankSet dead,
        final RankIncarnations incarnations,
        final long nowNs)
    {
        node.onFrame(FRAME.view(from, incarnation, dead, incarnations), nowNs);
    }

    public static void probe(
        final DetectorNode node, final int from, final long incarnation, final long token, final long nowNs)
    {
        withToken(node, FrameType.PROBE, from, incarnation, token, nowNs);
    }

    public static void probeAck(
        final DetectorNode node, final int from, final long incarnation, final long token, final long nowNs)
    {
        withToken(node, FrameType.PROBE_ACK, from, incarnation, token, nowNs);
    }

    public static void viewDigest(
        final DetectorNode node, final int from, final long incarnation, final long digest, final long nowNs)
    {
        withToken(node, FrameType.VIEW_DIGEST, from, incarnation, digest, nowNs);
    }

    public static void reformPoll(
        final DetectorNode node, final int from, final long incarnation, final long token, final long nowNs)
    {
        withToken(node, FrameType.REFORM_POLL, from, incarnation, token, nowNs);
    }

    public static void reformAck(
        final DetectorNode node, final int from, final long incarnation, final long token, final long nowNs)
    {
        withToken(node, FrameType.REFORM_ACK, from, incarnation, token, nowNs);
    }

    private static void withToken(
        final DetectorNode node, final int type, final int from, final long incarnation, final long token,
        final long nowNs)
    {
        node.onFrame(FRAME.token(type, from, incarnation, token), nowNs);
    }
}
