package io.ringwatch.core.sim;

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
 * The receiver judges it with the {@link Wire}'s decoder, which has no replay state (the simulated network never
 * replays). Keys are fixed bytes, not drawn from the run's random source, so adding a forgery changes no other draw of
 * a seeded run.
 */
final class Forgery
{
    private static final int CLUSTER_ID = Wire.CLUSTER_ID;
    private static final long FORGED_SEQUENCE = 1L << 40;

    private final int clusterSize;
    private final int configDigest;
    private final Wire wire;
    private final FrameAuthenticator outsider = FrameAuthenticator.withKey(Wire.key(0x5A));
    private final Map<RejectReason, long[]> verdicts = new EnumMap<>(RejectReason.class);
    private int lastSender = -1;

    Forgery(final SimConfig config, final Wire wire)
    {
        clusterSize = config.nodes();
        configDigest = wire.configDigest();
        this.wire = wire;
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
        final RejectReason reason = wire.judge(receiver, frame, frame.capacity());
        verdicts.computeIfAbsent(reason, (r) -> new long[1])[0]++;
        if (reason != RejectReason.NONE)
        {
            return null;
        }
        lastSender = wire.decoded().senderRank();
        return SimNotice.copyOf(wire.decoded().notice());
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
}
