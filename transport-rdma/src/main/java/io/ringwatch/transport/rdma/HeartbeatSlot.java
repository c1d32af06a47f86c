package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringwatch.core.slot.HeartbeatSlotLayout.HEARTBEAT_WORD_OFFSET;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.SLOT_ALIGNMENT;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.SLOT_LENGTH;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.WRITER_INCARNATION_OFFSET;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.WRITER_RANK_OFFSET;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.WRITER_TIMESTAMP_OFFSET;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Flyweight over one {@link HeartbeatSlotLayout heartbeat slot} in off-heap memory, checked to be where a NIC can
 * address it. Reads and direct writes follow the shared slot rules of {@link HeartbeatSlotLayout}; the heartbeat
 * word is accessed with acquire/release in native order, which is little-endian on every platform this runs on
 * (x86-64, aarch64); the other fields are explicit little-endian.
 */
public final class HeartbeatSlot
{
    /** Writer rank of a slot nobody has written; no real rank is negative. */
    public static final int NO_WRITER = HeartbeatSlotLayout.NO_WRITER;

    private AtomicBuffer buffer;
    private int offset;

    /**
     * @return a zeroed, cache-line aligned, off-heap buffer holding exactly one slot.
     */
    public static UnsafeBuffer allocateAligned()
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(SLOT_LENGTH, SLOT_ALIGNMENT));
    }

    /**
     * @param buffer off-heap buffer holding the slot.
     * @param offset slot start; {@code buffer.addressOffset() + offset} must be cache-line aligned.
     * @return this.
     * @throws IllegalArgumentException if the buffer is on-heap, too short, or the slot is misaligned: the NIC
     *                                  and other processes address it by raw address.
     */
    public HeartbeatSlot wrap(final AtomicBuffer buffer, final int offset)
    {
        if (buffer.byteArray() != null)
        {
            throw new IllegalArgumentException("heartbeat slot must be off-heap");
        }
        if (offset < 0 || offset > buffer.capacity() - SLOT_LENGTH)
        {
            throw new IllegalArgumentException("slot at offset " + offset + " does not fit in capacity " +
                buffer.capacity());
        }
        final long address = buffer.addressOffset() + offset;
        if ((address & (SLOT_ALIGNMENT - 1)) != 0)
        {
            throw new IllegalArgumentException("slot address 0x" + Long.toHexString(address) +
                " is not " + SLOT_ALIGNMENT + "-byte aligned");
        }

        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * @return raw address of the slot, what RDMA registers and remote writers target.
     */
    public long address()
    {
        return buffer.addressOffset() + offset;
    }

    /**
     * Mark the slot as never written: heartbeat word 0, diagnostic fields cleared.
     *
     * @return this.
     */
    public HeartbeatSlot reset()
    {
        HeartbeatSlotLayout.clear(buffer, offset);
        return this;
    }

    /**
     * Fill the payload with plain stores, as the source of an RDMA WRITE: the NIC copies all
     * {@link HeartbeatSlotLayout#PAYLOAD_LENGTH} bytes at post time (inline), so store order here is moot.
     *
     * @param counter     heartbeat counter, from 1.
     * @param rank        writer's rank, in [0, {@link HeartbeatSlotLayout#MAX_RANK}].
     * @param incarnation writer's incarnation.
     * @param timestampNs writer's clock.
     * @return this.
     */
    public HeartbeatSlot encode(final long counter, final int rank, final long incarnation, final long timestampNs)
    {
        buffer.putLong(offset + HEARTBEAT_WORD_OFFSET, HeartbeatSlotLayout.pack(rank, counter), LITTLE_ENDIAN);
        buffer.putInt(offset + WRITER_RANK_OFFSET, rank, LITTLE_ENDIAN);
        buffer.putLong(offset + WRITER_INCARNATION_OFFSET, incarnation, LITTLE_ENDIAN);
        buffer.putLong(offset + WRITER_TIMESTAMP_OFFSET, timestampNs, LITTLE_ENDIAN);
        return this;
    }

    /**
     * Write the slot directly (same process or shared memory): metadata first, then the heartbeat word with
     * release semantics, so a reader that acquires a new word also sees the metadata that goes with it.
     *
     * @param counter     heartbeat counter, from 1.
     * @param rank        writer's rank, in [0, {@link HeartbeatSlotLayout#MAX_RANK}].
     * @param incarnation writer's incarnation.
     * @param timestampNs writer's clock.
     * @return this.
     */
    public HeartbeatSlot publish(final long counter, final int rank, final long incarnation, final long timestampNs)
    {
        HeartbeatSlotLayout.publish(buffer, offset, counter, rank, incarnation, timestampNs);
        return this;
    }

    /**
     * What the observer's duty cycle asks: the counter if {@code emitterRank} wrote it.
     *
     * @param emitterRank the emitter this node watches.
     * @return the counter, or {@link HeartbeatChannel#NO_HEARTBEAT} if never written or last written by another
     * rank (a previous emitter, before the ring was mended). One acquire load: rank and counter come from the
     * same write.
     */
    public long heartbeatFrom(final int emitterRank)
    {
        return HeartbeatSlotLayout.heartbeatFrom(buffer, offset, emitterRank);
    }

    /**
     * @return counter of the last write whoever wrote it, 0 if never written; acquire load.
     */
    public long counter()
    {
        return HeartbeatSlotLayout.counterOf(HeartbeatSlotLayout.word(buffer, offset));
    }

    /**
     * @return rank of the last writer (from the heartbeat word), or {@link #NO_WRITER} if never written.
     */
    public int writerRank()
    {
        return HeartbeatSlotLayout.writerRank(buffer, offset);
    }

    /**
     * @return incarnation of the last writer.
     */
    public long writerIncarnation()
    {
        return buffer.getLong(offset + WRITER_INCARNATION_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * @return the last writer's clock reading (its own clock; not comparable across hosts).
     */
    public long writerTimestampNs()
    {
        return buffer.getLong(offset + WRITER_TIMESTAMP_OFFSET, LITTLE_ENDIAN);
    }
}
