package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * LEAVE: a graceful departure, sent by the leaving node to its observer, which then announces it without waiting
 * for a timeout. The frame is the header and the MAC; the sender is the leaving node, the destination its observer.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (32 bytes, type 4)               |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LeaveFlyweight extends FrameHeaderFlyweight
{
    /** Total length of a leave frame, MAC included. */
    public static final int LENGTH = HEADER_LENGTH + MAC_LENGTH;

    public LeaveFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete leave frame, unstamped: frame sequence and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the leaving node.
     * @param senderIncarnation the leaving node's incarnation.
     * @param destinationRank   the leaving node's observer.
     * @param configDigest      the leaving node's {@link ConfigDigest}.
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
            .header(LEAVE_TYPE, clusterId, senderRank, senderIncarnation, destinationRank, configDigest)
            .clearMac(LENGTH);
        return LENGTH;
    }
}
