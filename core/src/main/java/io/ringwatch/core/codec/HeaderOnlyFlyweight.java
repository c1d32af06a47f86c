package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * A frame that is only a header and its MAC (LEAVE): the header says everything, the type tells what.
 * One encoder for all of them, so a new signal frame is a type and a name, not another copy.
 */
public abstract class HeaderOnlyFlyweight extends FrameHeaderFlyweight
{
    /** Total length of a header-only frame, MAC included. */
    public static final int LENGTH = HEADER_LENGTH + MAC_LENGTH;

    private final int type;

    HeaderOnlyFlyweight(final int type)
    {
        this.type = type;
    }

    /**
     * Write a complete frame of this type, unstamped: frame sequence and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the sending node.
     * @param senderIncarnation the incarnation the sender speaks for.
     * @param destinationRank   the node the frame is for.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest)
    {
        return beginFrame(buffer, offset, LENGTH, type, clusterId, senderRank, senderIncarnation, destinationRank,
            configDigest) ? LENGTH : INSUFFICIENT_CAPACITY;
    }
}
