package io.ringwatch.core.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.AtomicBuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.agrona.BitUtil.CACHE_LINE_LENGTH;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of the 64-byte heartbeat slot an emitter writes and its observer reads, whatever carries the write
 * (RDMA WRITE, a shared-memory store, a receiver depositing a UDP frame). Little-endian, one cache line,
 * cache-line aligned so the slot shares its line with nothing else.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |      Heartbeat word: counter &lt;&lt; 24 | writer rank (int64)        |  0  written last, release
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Writer Incarnation (int64)                   |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Writer Timestamp ns (int64)                  | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                Writer Rank (int32, diagnostic mirror)         | 24
 *  +---------------------------------------------------------------+
 *  |                     Reserved to 64 bytes                     ... 28
 *  +---------------------------------------------------------------+
 * </pre>
 * The counter and the writer's rank share one 8-byte word because two emitters can write the same slot while
 * the ring is being mended (the old one has not yet stopped, or a stalled one resumes). With separate fields a
 * reader could pair one writer's rank with the other's counter and credit the wrong emitter with progress;
 * one aligned 8-byte word is read whole, so every (rank, counter) pair seen was written together. Ranks fit in
 * {@link #RANK_BITS} bits; the counter keeps {@link #COUNTER_MASK 39 bits} and wraps, which the protocol
 * tolerates because it only compares a counter with the previous one for inequality. A word of 0 means never
 * written. The fields after the word are diagnostics, never used for decisions.
 * <p>
 * The first {@link #PAYLOAD_LENGTH} bytes are what an emitter writes each beat; over RDMA that is a single
 * 28-byte put. The static accessors hold the ordering rules every carrier shares (release store of the word
 * last, one acquire load to read it); each transport adds its own placement rules, e.g. RDMA's off-heap,
 * aligned memory, or the shared-memory slot file's header.
 */
public final class HeartbeatSlotLayout
{
    /** Offset of the packed (counter, writer rank) word. */
    public static final int HEARTBEAT_WORD_OFFSET = 0;
    /** Offset of the writer's incarnation. */
    public static final int WRITER_INCARNATION_OFFSET = HEARTBEAT_WORD_OFFSET + SIZE_OF_LONG;
    /** Offset of the writer's clock when it wrote, for diagnostics only (clocks are not synchronised). */
    public static final int WRITER_TIMESTAMP_OFFSET = WRITER_INCARNATION_OFFSET + SIZE_OF_LONG;
    /** Offset of a copy of the writer's rank, for diagnostics. */
    public static final int WRITER_RANK_OFFSET = WRITER_TIMESTAMP_OFFSET + SIZE_OF_LONG;
    /** Bytes an emitter writes per beat. */
    public static final int PAYLOAD_LENGTH = WRITER_RANK_OFFSET + SIZE_OF_INT;
    /** Offset of the fields after the heartbeat word, all written before it. */
    public static final int DIAGNOSTICS_OFFSET = HEARTBEAT_WORD_OFFSET + SIZE_OF_LONG;
    /** Whole slot, one cache line. */
    public static final int SLOT_LENGTH = CACHE_LINE_LENGTH;
    /** Required alignment of a slot's address. */
    public static final int SLOT_ALIGNMENT = CACHE_LINE_LENGTH;

    /** Writer rank of a slot nobody has written; no real rank is negative. */
    public static final int NO_WRITER = -1;

    /** Low bits of the heartbeat word holding the writer's rank. */
    public static final int RANK_BITS = 24;
    /** Largest rank the word can carry. */
    public static final int MAX_RANK = (1 << RANK_BITS) - 1;
    /** Counter bits kept in the word: 39, so the word is never negative. */
    public static final long COUNTER_MASK = (1L << (Long.SIZE - RANK_BITS - 1)) - 1;
    private static final long RANK_MASK = MAX_RANK;

    private HeartbeatSlotLayout()
    {
    }

    /**
     * @param writerRank rank in [0, {@link #MAX_RANK}].
     * @param counter    heartbeat counter; only its low 39 bits are kept.
     * @return the heartbeat word.
     */
    public static long pack(final int writerRank, final long counter)
    {
        return ((counter & COUNTER_MASK) << RANK_BITS) | (writerRank & RANK_MASK);
    }

    /**
     * @param word a heartbeat word.
     * @return the writer rank in it.
     */
    public static int rankOf(final long word)
    {
        return (int)(word & RANK_MASK);
    }

    /**
     * @param word a heartbeat word.
     * @return the counter in it.
     */
    public static long counterOf(final long word)
    {
        return word >>> RANK_BITS;
    }

    /**
     * Write a slot directly (same process or shared memory): diagnostics first, then the heartbeat word with a
     * release store, so a reader that acquires a new word also sees the diagnostics that go with it.
     *
     * @param buffer      holding the slot.
     * @param offset      of the slot in {@code buffer}.
     * @param counter     heartbeat counter, from 1.
     * @param rank        writer's rank, in [0, {@link #MAX_RANK}].
     * @param incarnation writer's incarnation.
     * @param timestampNs writer's clock.
     */
    public static void publish(
        final AtomicBuffer buffer,
        final int offset,
        final long counter,
        final int rank,
        final long incarnation,
        final long timestampNs)
    {
        buffer.putInt(offset + WRITER_RANK_OFFSET, rank, LITTLE_ENDIAN);
        buffer.putLong(offset + WRITER_INCARNATION_OFFSET, incarnation, LITTLE_ENDIAN);
        buffer.putLong(offset + WRITER_TIMESTAMP_OFFSET, timestampNs, LITTLE_ENDIAN);
        buffer.putLongRelease(offset + HEARTBEAT_WORD_OFFSET, pack(rank, counter));
    }

    /**
     * What an observer's duty cycle asks: the counter if {@code emitterRank} wrote it. One acquire load, so rank
     * and counter come from the same write.
     *
     * @param buffer      holding the slot.
     * @param offset      of the slot in {@code buffer}.
     * @param emitterRank the emitter the observer watches.
     * @return the counter, or {@link HeartbeatChannel#NO_HEARTBEAT} if never written or last written by another
     * rank (a previous emitter, before the ring was mended).
     */
    public static long heartbeatFrom(final AtomicBuffer buffer, final int offset, final int emitterRank)
    {
        final long word = buffer.getLongAcquire(offset + HEARTBEAT_WORD_OFFSET);
        if (word == 0L || emitterRank < 0 || emitterRank > MAX_RANK || rankOf(word) != emitterRank)
        {
            return HeartbeatChannel.NO_HEARTBEAT;
        }
        return counterOf(word);
    }

    /**
     * @param buffer holding the slot.
     * @param offset of the slot in {@code buffer}.
     * @return the heartbeat word, acquire load; 0 if never written.
     */
    public static long word(final AtomicBuffer buffer, final int offset)
    {
        return buffer.getLongAcquire(offset + HEARTBEAT_WORD_OFFSET);
    }

    /**
     * @param buffer holding the slot.
     * @param offset of the slot in {@code buffer}.
     * @return rank of the last writer, or {@link #NO_WRITER} if never written; acquire load.
     */
    public static int writerRank(final AtomicBuffer buffer, final int offset)
    {
        final long word = word(buffer, offset);
        return word == 0L ? NO_WRITER : rankOf(word);
    }

    /**
     * Mark a slot as never written: heartbeat word 0 (release), diagnostics cleared.
     *
     * @param buffer holding the slot.
     * @param offset of the slot in {@code buffer}.
     */
    public static void clear(final AtomicBuffer buffer, final int offset)
    {
        buffer.putLongRelease(offset + HEARTBEAT_WORD_OFFSET, 0L);
        buffer.setMemory(offset + DIAGNOSTICS_OFFSET, SLOT_LENGTH - DIAGNOSTICS_OFFSET, (byte)0);
    }
}
