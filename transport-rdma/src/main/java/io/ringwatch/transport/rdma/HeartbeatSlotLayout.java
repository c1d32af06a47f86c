package io.ringwatch.transport.rdma;

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
 *  |                Writer Rank (int32, diagnostic mirror)         |  8
 *  +---------------------------------------------------------------+
 *  |                  Writer Incarnation (int32)                   | 12
 *  +---------------------------------------------------------------+
 *  |                  Writer Timestamp ns (int64)                  | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Reserved to 64 bytes                     ... 24
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
 * 24-byte put. transport-aeron's shared-memory slot file uses the same slot layout from its own copy of these
 * constants for now; the two must stay identical until they share one class.
 */
public final class HeartbeatSlotLayout
{
    /** Offset of the packed (counter, writer rank) word. */
    public static final int HEARTBEAT_WORD_OFFSET = 0;
    /** Offset of a copy of the writer's rank, for diagnostics. */
    public static final int WRITER_RANK_OFFSET = HEARTBEAT_WORD_OFFSET + SIZE_OF_LONG;
    /** Offset of the writer's incarnation (restart count). */
    public static final int WRITER_INCARNATION_OFFSET = WRITER_RANK_OFFSET + SIZE_OF_INT;
    /** Offset of the writer's clock when it wrote, for diagnostics only (clocks are not synchronised). */
    public static final int WRITER_TIMESTAMP_OFFSET = WRITER_INCARNATION_OFFSET + SIZE_OF_INT;
    /** Bytes an emitter writes per beat. */
    public static final int PAYLOAD_LENGTH = WRITER_TIMESTAMP_OFFSET + SIZE_OF_LONG;
    /** Whole slot, one cache line. */
    public static final int SLOT_LENGTH = CACHE_LINE_LENGTH;
    /** Required alignment of a slot's address. */
    public static final int SLOT_ALIGNMENT = CACHE_LINE_LENGTH;

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
}
