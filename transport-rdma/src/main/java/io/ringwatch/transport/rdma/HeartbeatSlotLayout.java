package io.ringwatch.transport.rdma;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of the 64-byte heartbeat slot an emitter writes and its observer reads, whatever carries the write
 * (RDMA WRITE, a shared-memory store, a receiver depositing a UDP frame). Little-endian, one cache line,
 * cache-line aligned so the slot shares its line with nothing the observer writes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                       Counter (int64)                         |  0  written last, release
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Writer Rank (int32)                       |  8
 *  +---------------------------------------------------------------+
 *  |                  Writer Incarnation (int32)                   | 12
 *  +---------------------------------------------------------------+
 *  |                  Writer Timestamp ns (int64)                  | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Reserved to 64 bytes                     ... 24
 *  +---------------------------------------------------------------+
 * </pre>
 * The first {@link #PAYLOAD_LENGTH} bytes are what an emitter writes each beat; over RDMA that is a single
 * 24-byte put. A counter of 0 means never written: emitters count from 1.
 * <p>
 * transport-aeron keeps its own copy of these constants for its shared-memory slots for now; the two must
 * stay identical until they share this class.
 */
public final class HeartbeatSlotLayout
{
    /** Offset of the heartbeat counter. */
    public static final int COUNTER_OFFSET = 0;
    /** Offset of the rank that wrote the slot. */
    public static final int WRITER_RANK_OFFSET = COUNTER_OFFSET + SIZE_OF_LONG;
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

    private HeartbeatSlotLayout()
    {
    }
}
