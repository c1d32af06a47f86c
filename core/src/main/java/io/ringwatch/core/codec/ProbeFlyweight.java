package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * PROBE and PROBE_ACK: a node that suspects its emitter asks predecessors to answer before it accuses anyone (the
 * answer proves it can still hear, and finds how far a run of silent nodes reaches); a PROBE_ACK returns the probe's
 * token to the prober. VIEW_DIGEST, a node telling a ring neighbour the digest of its view, carries the digest in the
 * token field. REFORM_POLL and REFORM_ACK, the poll that re-forms a cluster with no member left and a joiner's answer,
 * carry the poll's token. JOIN_REQUEST carries the joiner's own nonce, which its contact's challenge returns; JOIN_PROOF,
 * the joiner returning the contact's nonce, carries that. Same layout for all seven, told apart by the type.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |      Frame Header (44 bytes, type 5, 6, 17, 19, 20, 21, 23) |
 *  +---------------------------------------------------------------+
 *  |                             Token                             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * The token is opaque to the answering node. A replayed probe or answer is refused by the receiver's
 * {@link ReplayGuard} like any frame.
 */
public final class ProbeFlyweight extends FrameHeaderFlyweight
{
    private static final int TOKEN_FIELD_OFFSET = HEADER_LENGTH;

    /** Total length of a probe or probe-ack frame, MAC included. */
    public static final int LENGTH = TOKEN_FIELD_OFFSET + SIZE_OF_LONG + MAC_LENGTH;

    public ProbeFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete probe or probe-ack frame, unstamped: frame sequence and MAC zero until
     * {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param type              {@link #PROBE_TYPE}, {@link #PROBE_ACK_TYPE}, {@link #VIEW_DIGEST_TYPE},
     *                          {@link #REFORM_POLL_TYPE}, {@link #REFORM_ACK_TYPE}, {@link #JOIN_REQUEST_TYPE} or
     *                          {@link #JOIN_PROOF_TYPE}.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the prober, or the answering node.
     * @param senderIncarnation its incarnation.
     * @param destinationRank   the node asked, or the prober.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @param token             the probe's token, the view digest, or a nonce.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int type,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest,
        final long token)
    {
        if (type != PROBE_TYPE && type != PROBE_ACK_TYPE && type != VIEW_DIGEST_TYPE && type != REFORM_POLL_TYPE &&
            type != REFORM_ACK_TYPE && type != JOIN_REQUEST_TYPE && type != JOIN_PROOF_TYPE)
        {
            throw new IllegalArgumentException("not a probe type: " + type);
        }
        if (!beginFrame(buffer, offset, LENGTH, type, clusterId, senderRank, senderIncarnation, destinationRank,
            configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }
        token(token);
        return LENGTH;
    }

    /**
     * @return token field.
     */
    public long token()
    {
        return buffer.getLong(offset + TOKEN_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param token field value.
     * @return this for a fluent API.
     */
    public ProbeFlyweight token(final long token)
    {
        buffer.putLong(offset + TOKEN_FIELD_OFFSET, token, ByteOrder.LITTLE_ENDIAN);
        return this;
    }
}
