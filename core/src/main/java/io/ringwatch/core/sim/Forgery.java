package io.ringwatch.core.sim;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.EnumMap;
import java.util.Map;

/**
 * The outsider of {@link Injection.Kind#FORGE}: it knows the wire format, the cluster's config digest (every frame
 * carries it) and who is alive, but not the cluster key. It forges a FAILURE_NOTICE naming a live rank, claiming to
 * come from a live member, signs it with a key of its own, and sends it to one node; the receiver judges it with the
 * real {@link FrameDecoder} under the cluster's keyring, or under {@link FrameAuthenticator#NONE} when the run has
 * authentication off (the negative control), and only a frame the decoder accepts reaches the node.
 * <p>
 * The simulator's own messages are not encoded: they stand for frames signed with the cluster key and fresh, so the
 * receiver's decoder here has no replay state. Keys are fixed bytes, not drawn from the run's random source, so adding
 * a forgery changes no other draw of a seeded run.
 */
final class Forgery
{
    private static final int CLUSTER_ID = 0;
    private static final long FORGED_SEQUENCE = 1L << 40;

    private final int clusterSize;
    private final int configDigest;
    private final FrameAuthenticator keyring;
    private final FrameAuthenticator outsider = FrameAuthenticator.withKey(key(0x5A));
    private final Map<RejectReason, long[]> verdicts = new EnumMap<>(RejectReason.class);
    private int lastSender = -1;

    Forgery(final SimConfig config)
    {
        clusterSize = config.nodes();
        final ProtocolOptions protocol = config.protocol();
        configDigest = ConfigDigest.of(
            CLUSTER_ID, clusterSize, protocol.heartbeatPeriodNs(), protocol.suspicionTimeoutNs(), protocol.broadcast());
        keyring = protocol.authentication() ? FrameAuthenticator.withKey(key(0x11)) : FrameAuthenticator.NONE;
    }

    /**
     * @param victim   the live rank to name dead.
     * @param receiver the node the frame is sent to.
     * @return the forged frame, exactly as long as its buffer.
     */
    UnsafeBuffer forge(final int victim, final int receiver)
    {
        int claimed = (victim + 1) % clusterSize;
        if (claimed == receiver)
        {
            claimed = (victim + 2) % clusterSize;
        }
        if (claimed == victim)
        {
            claimed = receiver;
        }
        final RankArray dead = new RankArray(1, clusterSize);
        dead.add(victim);
        final ReusableNotice notice = new ReusableNotice().set(victim, claimed, 0, FORGED_SEQUENCE, dead);

        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FailureNoticeFlyweight.encodedLength(notice)]);
        final int length = new FailureNoticeFlyweight()
            .encode(frame, 0, CLUSTER_ID, claimed, 0, receiver, configDigest, notice);
        new FrameHeaderFlyweight().wrap(frame, 0).frameSequence(1);
        outsider.sign(frame, 0, length);
        return frame;
    }

    /**
     * @param receiver the node the frame reached.
     * @param frame    as {@link #forge} made it.
     * @return the notice the receiver believes, or null if its decoder refused the frame.
     */
    SimNotice receive(final int receiver, final UnsafeBuffer frame)
    {
        final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, clusterSize, receiver, configDigest, keyring, null);
        final RejectReason reason = decoder.decode(frame, 0, frame.capacity());
        verdicts.computeIfAbsent(reason, (r) -> new long[1])[0]++;
        if (reason != RejectReason.NONE)
        {
            return null;
        }
        lastSender = decoder.senderRank();
        return SimNotice.copyOf(decoder.notice());
    }

    /**
     * @return the claimed sender of the last frame {@link #receive} let through.
     */
    int lastSender()
    {
        return lastSender;
    }

    /**
     * @param reason a verdict, {@link RejectReason#NONE} for accepted.
     * @return forged frames judged so.
     */
    long count(final RejectReason reason)
    {
        final long[] count = verdicts.get(reason);
        return count == null ? 0 : count[0];
    }

    private static byte[] key(final int first)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(first + i);
        }
        return key;
    }
}
