package io.ringwatch.core.sim;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.JoinRequestFlyweight;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.core.codec.ProbeFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ViewFlyweight;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The codec between simulated nodes: every control frame is encoded by the flyweights the live control channel uses,
 * stamped and signed by a {@link FrameStamper} under the cluster key (when the run has authentication on, its
 * default), and judged by a real {@link FrameDecoder} for its receiver, which is what the node is handed. A wire rule
 * broken by an encoder or refused by the decoder thus shows in a simulation as it would live.
 * <p>
 * A frame is encoded when it is delivered, from the values its event carries (the sender's incarnation, a token, an
 * immutable {@link SimNotice} or {@link SimView}): one buffer, one set of flyweights and one decoder serve the whole
 * run, so nothing is allocated per frame and memory is O(N) whatever the cluster size. What is not simulated is
 * freshness: the decoder keeps no {@link io.ringwatch.core.codec.ReplayGuard}, whose state is per receiver (32 bytes
 * a sender, so 32 N² bytes in all: 8.6 GB at 16,384 nodes), and the simulated network never duplicates a frame. The
 * stamper's frame sequences therefore count per destination across all senders; the decoder only needs them
 * above 0.
 * <p>
 * The simulator only sends genuine frames, so each one the decoder refuses is a wire bug: counted by reason, and a
 * violation of the run ({@link #check}).
 * <p>
 * Keys are fixed bytes, not drawn from the run's random source, so the codec changes no draw of a seeded run.
 */
final class Wire
{
    static final int CLUSTER_ID = 0;

    private final int configDigest;
    private final FrameAuthenticator keyring;
    private final FrameStamper stamper;
    private final FrameDecoder decoder;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameDecoder.MAX_FRAME_LENGTH]);
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();
    private final JoinRequestFlyweight joinRequest = new JoinRequestFlyweight();
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final ViewFlyweight view = new ViewFlyweight();
    private final ProbeFlyweight probe = new ProbeFlyweight();
    private final long[] rejected = new long[RejectReason.values().length];
    // by FrameType number, all below 32
    private final long[] accepted = new long[32];
    private long unencodable;
    private String firstRefusal;

    Wire(final SimConfig config)
    {
        final int n = config.nodes();
        final ProtocolOptions protocol = config.protocol();
        configDigest = ConfigDigest.of(
            CLUSTER_ID, n, protocol.heartbeatPeriodNs(), protocol.suspicionTimeoutNs(), protocol.broadcast());
        keyring = protocol.authentication() ? FrameAuthenticator.withKey(key(0x11)) : FrameAuthenticator.NONE;
        stamper = new FrameStamper(n, keyring);
        decoder = FrameDecoder.forAnyReceiver(CLUSTER_ID, n, configDigest, keyring);
    }

    /**
     * @param first the key's first byte; the others follow it.
     * @return a fixed key, so a seeded run is reproducible.
     */
    static byte[] key(final int first)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(first + i);
        }
        return key;
    }

    /**
     * @return the digest every frame of the run carries.
     */
    int configDigest()
    {
        return configDigest;
    }

    /**
     * @return the cluster keyring, {@link FrameAuthenticator#NONE} with authentication off.
     */
    FrameAuthenticator keyring()
    {
        return keyring;
    }

    InboundFrame newObserver(final int from, final int incarnation, final int to)
    {
        // T4: the sender becomes the observer of the rank it writes to, so the emitter is the destination
        return deliver(FrameType.NEW_OBSERVER, from, to,
            newObserver.encode(buffer, 0, CLUSTER_ID, from, incarnation, configDigest, to));
    }

    InboundFrame leave(final int from, final int incarnation, final int to)
    {
        return deliver(FrameType.LEAVE, from, to, leave.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest));
    }

    InboundFrame joinRequest(final int from, final int incarnation, final int to)
    {
        return deliver(FrameType.JOIN_REQUEST, from, to, joinRequest.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest));
    }

    InboundFrame notice(final int from, final int incarnation, final int to, final Notice sent)
    {
        final int type = sent.isJoin() ? FrameType.JOIN : FrameType.FAILURE_NOTICE;
        return deliver(type, from, to, notice.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest, sent));
    }

    InboundFrame view(
        final int from, final int incarnation, final int to, final RankSet dead, final RankIncarnations known)
    {
        return deliver(FrameType.VIEW, from, to, view.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest, dead, known));
    }

    /**
     * @param type {@link FrameType#PROBE}, PROBE_ACK, VIEW_DIGEST, REFORM_POLL or REFORM_ACK: the frames of a header
     *             and a token.
     */
    InboundFrame token(final int type, final int from, final int incarnation, final int to, final long token)
    {
        return deliver(type, from, to, probe.encode(buffer, 0, type, CLUSTER_ID, from, incarnation, to, configDigest, token));
    }

    /**
     * Judge a frame someone other than the simulator wrote (a forgery) as its receiver's decoder would.
     *
     * @return the decoder's verdict; on {@link RejectReason#NONE} {@link #decoded()} describes the frame.
     */
    RejectReason judge(final int receiver, final DirectBuffer frame, final int length)
    {
        return decoder.receiver(receiver).decode(frame, 0, length);
    }

    /**
     * @return the decoder, describing the frame last accepted.
     */
    FrameDecoder decoded()
    {
        return decoder;
    }

    private InboundFrame deliver(final int type, final int from, final int to, final int encodedLength)
    {
        if (encodedLength <= 0)
        {
            // the live channel drops a frame its encoder refuses: so does the simulator, as a finding
            unencodable++;
            refused(type, from, to, "encoder refused it (" + encodedLength + ")");
            return null;
        }
        final int length = stamper.stamp(buffer, 0, encodedLength);
        final RejectReason reason = decoder.receiver(to).decode(buffer, 0, length);
        if (reason != RejectReason.NONE)
        {
            rejected[reason.ordinal()]++;
            refused(type, from, to, "decoder rejected it: " + reason);
            return null;
        }
        accepted[type]++;
        return decoder;
    }

    private void refused(final int type, final int from, final int to, final String why)
    {
        if (firstRefusal == null)
        {
            firstRefusal = "frame type " + type + " from " + from + " to " + to + ": " + why;
        }
    }

    /**
     * @return genuine frames the encoder or the decoder refused: a wire bug each.
     */
    long refusedFrames()
    {
        long total = unencodable;
        for (final long count : rejected)
        {
            total += count;
        }
        return total;
    }

    /**
     * @param frameType a {@link FrameType} number.
     * @return frames of that type the decoder accepted and handed to their receiver.
     */
    long accepted(final int frameType)
    {
        return accepted[frameType];
    }

    /**
     * @param reason a decoder verdict other than {@link RejectReason#NONE}.
     * @return genuine frames refused so.
     */
    long rejected(final RejectReason reason)
    {
        return rejected[reason.ordinal()];
    }

    /**
     * The wire check: the simulator sends genuine frames only, so no frame may be refused.
     */
    void check(final long seed, final List<String> found)
    {
        final long refused = refusedFrames();
        if (refused == 0)
        {
            return;
        }
        final StringBuilder reasons = new StringBuilder();
        for (final RejectReason reason : RejectReason.values())
        {
            if (rejected[reason.ordinal()] > 0)
            {
                reasons.append(' ').append(reason).append('=').append(rejected[reason.ordinal()]);
            }
        }
        if (unencodable > 0)
        {
            reasons.append(" UNENCODABLE=").append(unencodable);
        }
        found.add("seed=" + seed + ": wire: " + refused + " genuine frames refused (" + reasons.toString().trim() +
            "); first: " + firstRefusal);
    }
}
