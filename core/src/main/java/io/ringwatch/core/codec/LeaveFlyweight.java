package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * LEAVE: a graceful departure, sent by the leaving node to its observer, which then announces it without waiting
 * for a timeout. The frame is the header alone; the sender is the leaving node.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (16 bytes, type 4)               |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LeaveFlyweight extends FrameHeaderFlyweight
{
    /** Total length of a leave frame. */
    public static final int LENGTH = HEADER_LENGTH;

    public LeaveFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete leave frame.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the leaving node.
     * @param senderIncarnation the leaving node's incarnation.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final int senderIncarnation)
    {
        if (!fits(buffer, offset, LENGTH))
        {
            return INSUFFICIENT_CAPACITY;
        }
        wrap(buffer, offset).header(LEAVE_TYPE, clusterId, senderRank, senderIncarnation);
        return LENGTH;
    }
}
