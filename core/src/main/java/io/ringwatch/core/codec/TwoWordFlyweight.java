package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * A frame whose body is two 64-bit words (HEARTBEAT: counter and timestamp; JOIN_CHALLENGE: the contact's nonce and
 * the joiner's): one encoder and one layout for both, so each frame type is its type and the names of its words.
 */
public abstract class TwoWordFlyweight extends FrameHeaderFlyweight
{
    private static final int FIRST_FIELD_OFFSET = HEADER_LENGTH;
    private static final int SECOND_FIELD_OFFSET = FIRST_FIELD_OFFSET + SIZE_OF_LONG;

    /** Total length of such a frame, MAC included. */
    public static final int LENGTH = SECOND_FIELD_OFFSET + SIZE_OF_LONG + MAC_LENGTH;

    private final int type;

    TwoWordFlyweight(final int type)
    {
        this.type = type;
    }

    /**
     * Write a complete frame of this type, unstamped: frame sequence, run id and MAC zero until
     * {@link FrameStamper#stamp}.
     *
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    final int encodeWords(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest,
        final long first,
        final long second)
    {
        if (!beginFrame(buffer, offset, LENGTH, type, clusterId, senderRank, senderIncarnation, destinationRank,
            configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }
        first(first);
        second(second);
        return LENGTH;
    }

    final long first()
    {
        return buffer.getLong(offset + FIRST_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    final void first(final long value)
    {
        buffer.putLong(offset + FIRST_FIELD_OFFSET, value, ByteOrder.LITTLE_ENDIAN);
    }

    final long second()
    {
        return buffer.getLong(offset + SECOND_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    final void second(final long value)
    {
        buffer.putLong(offset + SECOND_FIELD_OFFSET, value, ByteOrder.LITTLE_ENDIAN);
    }
}
