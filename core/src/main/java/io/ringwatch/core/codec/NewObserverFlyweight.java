package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * NEW_OBSERVER: the sender tells the addressed emitter that it is now the emitter's observer (task T3, received
 * as T4). With RDMA heartbeats it also carries where the emitter must write: the observer's slot (remote key,
 * virtual address, length). Without RDMA the three fields are zero. The destination in the header is the emitter rank.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 2)               |
 *  +---------------------------------------------------------------+
 *  |                          Emitter Rank                         |
 *  +---------------------------------------------------------------+
 *  |                           RDMA Rkey                           |
 *  +---------------------------------------------------------------+
 *  |                          RDMA Address                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          RDMA Length                          |
 *  +---------------------------------------------------------------+
 *  |                        Reserved (zero)                        |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class NewObserverFlyweight extends FrameHeaderFlyweight
{
    private static final int EMITTER_RANK_FIELD_OFFSET = HEADER_LENGTH;
    private static final int RDMA_RKEY_FIELD_OFFSET = EMITTER_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RDMA_ADDRESS_FIELD_OFFSET = RDMA_RKEY_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RDMA_LENGTH_FIELD_OFFSET = RDMA_ADDRESS_FIELD_OFFSET + SIZE_OF_LONG;
    private static final int RESERVED_FIELD_OFFSET = RDMA_LENGTH_FIELD_OFFSET + SIZE_OF_INT;

    /** Total length of a new-observer frame, MAC included. */
    public static final int LENGTH = RESERVED_FIELD_OFFSET + SIZE_OF_INT + MAC_LENGTH;

    public NewObserverFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete new-observer frame without an RDMA slot, unstamped: frame sequence and MAC zero until
     * {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the new observer.
     * @param senderIncarnation the new observer's incarnation.
     * @param configDigest      the new observer's {@link ConfigDigest}.
     * @param emitterRank       the addressee, also written as the header's destination.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int configDigest,
        final int emitterRank)
    {
        return encode(buffer, offset, clusterId, senderRank, senderIncarnation, configDigest, emitterRank, 0, 0L, 0);
    }

    /**
     * Write a complete new-observer frame, unstamped: frame sequence and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the new observer.
     * @param senderIncarnation the new observer's incarnation.
     * @param configDigest      the new observer's {@link ConfigDigest}.
     * @param emitterRank       the addressee, also written as the header's destination.
     * @param rdmaRkey          remote key of the observer's heartbeat slot, 0 without RDMA.
     * @param rdmaAddress       virtual address of the slot, 0 without RDMA.
     * @param rdmaLength        length of the slot in bytes, 0 without RDMA.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int configDigest,
        final int emitterRank,
        final int rdmaRkey,
        final long rdmaAddress,
        final int rdmaLength)
    {
        if (!beginFrame(buffer, offset, LENGTH, NEW_OBSERVER_TYPE, clusterId, senderRank, senderIncarnation,
            emitterRank, configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }
        emitterRank(emitterRank).rdmaRkey(rdmaRkey).rdmaAddress(rdmaAddress).rdmaLength(rdmaLength).reserved(0);
        return LENGTH;
    }

    /**
     * @return emitter rank field: the addressee.
     */
    public int emitterRank()
    {
        return buffer.getInt(offset + EMITTER_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param emitterRank field value.
     * @return this for a fluent API.
     */
    public NewObserverFlyweight emitterRank(final int emitterRank)
    {
        buffer.putInt(offset + EMITTER_RANK_FIELD_OFFSET, emitterRank, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return RDMA remote key field.
     */
    public int rdmaRkey()
    {
        return buffer.getInt(offset + RDMA_RKEY_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param rdmaRkey field value.
     * @return this for a fluent API.
     */
    public NewObserverFlyweight rdmaRkey(final int rdmaRkey)
    {
        buffer.putInt(offset + RDMA_RKEY_FIELD_OFFSET, rdmaRkey, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return RDMA address field.
     */
    public long rdmaAddress()
    {
        return buffer.getLong(offset + RDMA_ADDRESS_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param rdmaAddress field value.
     * @return this for a fluent API.
     */
    public NewObserverFlyweight rdmaAddress(final long rdmaAddress)
    {
        buffer.putLong(offset + RDMA_ADDRESS_FIELD_OFFSET, rdmaAddress, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return RDMA length field.
     */
    public int rdmaLength()
    {
        return buffer.getInt(offset + RDMA_LENGTH_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param rdmaLength field value.
     * @return this for a fluent API.
     */
    public NewObserverFlyweight rdmaLength(final int rdmaLength)
    {
        buffer.putInt(offset + RDMA_LENGTH_FIELD_OFFSET, rdmaLength, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return reserved field, zero in this version.
     */
    public int reserved()
    {
        return buffer.getInt(offset + RESERVED_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param reserved field value.
     * @return this for a fluent API.
     */
    public NewObserverFlyweight reserved(final int reserved)
    {
        buffer.putInt(offset + RESERVED_FIELD_OFFSET, reserved, ByteOrder.LITTLE_ENDIAN);
        return this;
    }
}
