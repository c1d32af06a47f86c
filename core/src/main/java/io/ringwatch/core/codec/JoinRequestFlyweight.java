package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * JOIN_REQUEST: a restarted node asks a contact to admit it. The frame is the header and the MAC; the sender is the
 * joiner, its incarnation in the header is the new one it asks to be admitted under, the destination the contact.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (32 bytes, type 17)              |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class JoinRequestFlyweight extends FrameHeaderFlyweight
{
    /** Total length of a join request, MAC included. */
    public static final int LENGTH = HEADER_LENGTH + MAC_LENGTH;

    public JoinRequestFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete join request, unstamped: frame sequence and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the joiner.
     * @param senderIncarnation the incarnation it asks to be admitted under.
     * @param destinationRank   the contact.
     * @param configDigest      the joiner's {@link ConfigDigest}.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final int senderIncarnation,
        final int destinationRank,
        final int configDigest)
    {
        if (!fits(buffer, offset, LENGTH))
        {
            return INSUFFICIENT_CAPACITY;
        }
        wrap(buffer, offset)
            .header(JOIN_REQUEST_TYPE, clusterId, senderRank, senderIncarnation, destinationRank, configDigest)
            .clearMac(LENGTH);
        return LENGTH;
    }
}
