package io.ringwatch.core.codec;

import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.spi.RankRuns;
import io.ringwatch.core.spi.RankSet;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * PROCESS_FAILURE: one hop of a process-level broadcast ({@link ProcessNotice}): the application ranks a daemon saw
 * die, with the broadcast id and D_msg (the node ranks not taking part) like {@link FailureNoticeFlyweight}. Sent,
 * stamped, authenticated and replay-checked like every other frame; the header's sender is the forwarding daemon.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 5)               |
 *  +---------------------------------------------------------------+
 *  |                          Source Rank                          |
 *  +---------------------------------------------------------------+
 *  |                       Source Incarnation                      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                            Sequence                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   Excluded Range Count (may be 0)             |
 *  +---------------------------------------------------------------+
 *  |                     Process Count (at least 1)                |
 *  +---------------------------------------------------------------+
 *  |        Excluded ranges: First Rank, Length (8 bytes each)    ...
 *  +---------------------------------------------------------------+
 *  |        Dead processes: application rank (4 bytes each)       ...
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * Excluded ranks travel as canonical runs (as in {@link FailureNoticeFlyweight}); processes as a strictly ascending
 * list. The decoder checks the ranges against N and the processes for order; whether they belong to the source's
 * node is the job layout's to judge ({@code ProcessNoticeRelay}).
 */
public final class ProcessFailureFlyweight extends FrameHeaderFlyweight
    implements RankRuns, RunWriter<ProcessFailureFlyweight>
{
    /** Most excluded runs a notice may carry. */
    public static final int MAX_RANGES = FailureNoticeFlyweight.MAX_RANGES;

    /** Most processes one notice may name: a node hosts at most this many. */
    public static final int MAX_PROCESSES = 1024;

    /** Returned by {@link #encode} when D_msg needs more than {@link #MAX_RANGES} runs. */
    public static final int TOO_MANY_RANGES = FailureNoticeFlyweight.TOO_MANY_RANGES;

    /** Returned by {@link #encode} for a notice receivers would reject (no process, unordered sets, bad sequence). */
    public static final int INVALID_NOTICE = FailureNoticeFlyweight.INVALID_NOTICE;

    private static final int SOURCE_RANK_FIELD_OFFSET = HEADER_LENGTH;
    private static final int SOURCE_INCARNATION_FIELD_OFFSET = SOURCE_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int SEQUENCE_FIELD_OFFSET = SOURCE_INCARNATION_FIELD_OFFSET + SIZE_OF_LONG;
    private static final int RANGE_COUNT_FIELD_OFFSET = SEQUENCE_FIELD_OFFSET + SIZE_OF_LONG;
    private static final int PROCESS_COUNT_FIELD_OFFSET = RANGE_COUNT_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RANGES_OFFSET = PROCESS_COUNT_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RANGE_LENGTH = 2 * SIZE_OF_INT;

    /** Length of the smallest valid notice: no excluded run, one process. */
    public static final int MIN_LENGTH = lengthOf(0, 1);

    /** Length of the largest valid notice. */
    public static final int MAX_LENGTH = lengthOf(MAX_RANGES, MAX_PROCESSES);

    /**
     * @param rangeCount   excluded runs.
     * @param processCount processes.
     * @return total frame length, MAC included.
     */
    public static int lengthOf(final int rangeCount, final int processCount)
    {
        return RANGES_OFFSET + rangeCount * RANGE_LENGTH + processCount * SIZE_OF_INT + MAC_LENGTH;
    }

    /**
     * @param set ascending ranks.
     * @return number of maximal runs of consecutive ranks, or -1 if the set is not strictly ascending or negative.
     */
    static int runCount(final RankSet set)
    {
        final int size = set.size();
        if (size == 0)
        {
            return 0;
        }
        int previous = set.rankAt(0);
        if (previous < 0)
        {
            return -1;
        }
        int runs = 1;
        for (int i = 1; i < size; i++)
        {
            final int rank = set.rankAt(i);
            if (rank <= previous)
            {
                return -1;
            }
            runs += rank == previous + 1 ? 0 : 1;
            previous = rank;
        }
        return runs;
    }

    public ProcessFailureFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete, unstamped notice.
     *
     * @param buffer            destination; {@link #MAX_LENGTH} bytes fit every sendable notice.
     * @param offset            where the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the forwarding daemon.
     * @param senderIncarnation its incarnation.
     * @param destinationRank   the next hop.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @param notice            what to send; read, not kept.
     * @return the frame length, or {@link #TOO_MANY_RANGES}, {@link #INVALID_NOTICE} or
     * {@link #INSUFFICIENT_CAPACITY}.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest,
        final ProcessNotice notice)
    {
        final RankSet excluded = notice.excludedNodes();
        final RankSet processes = notice.deadProcesses();
        final int runs = runCount(excluded);
        final int processCount = processes.size();
        if (runs > MAX_RANGES)
        {
            return TOO_MANY_RANGES;
        }
        if (runs < 0 || processCount < 1 || processCount > MAX_PROCESSES || runCount(processes) < 0 ||
            notice.sequence() < 1 || excluded.contains(notice.sourceRank()))
        {
            return INVALID_NOTICE;
        }
        final int length = lengthOf(runs, processCount);
        if (!beginFrame(buffer, offset, length, PROCESS_FAILURE_TYPE, clusterId, senderRank, senderIncarnation,
            destinationRank, configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }

        rangeCount(writeRuns(excluded)).processCount(processCount);
        for (int i = 0; i < processCount; i++)
        {
            process(i, processes.rankAt(i));
        }
        sourceRank(notice.sourceRank()).sourceIncarnation(notice.sourceIncarnation()).sequence(notice.sequence());
        return length;
    }

    /**
     * @return source rank field.
     */
    public int sourceRank()
    {
        return buffer.getInt(offset + SOURCE_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param sourceRank field value.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight sourceRank(final int sourceRank)
    {
        buffer.putInt(offset + SOURCE_RANK_FIELD_OFFSET, sourceRank, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return source incarnation field.
     */
    public long sourceIncarnation()
    {
        return buffer.getLong(offset + SOURCE_INCARNATION_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param sourceIncarnation field value.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight sourceIncarnation(final long sourceIncarnation)
    {
        buffer.putLong(offset + SOURCE_INCARNATION_FIELD_OFFSET, sourceIncarnation, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return sequence field.
     */
    public long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param sequence field value.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight sequence(final long sequence)
    {
        buffer.putLong(offset + SEQUENCE_FIELD_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return excluded range count field.
     */
    public int rangeCount()
    {
        return buffer.getInt(offset + RANGE_COUNT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param rangeCount field value.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight rangeCount(final int rangeCount)
    {
        buffer.putInt(offset + RANGE_COUNT_FIELD_OFFSET, rangeCount, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return process count field.
     */
    public int processCount()
    {
        return buffer.getInt(offset + PROCESS_COUNT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param processCount field value.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight processCount(final int processCount)
    {
        buffer.putInt(offset + PROCESS_COUNT_FIELD_OFFSET, processCount, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @param index of the run.
     * @return its first rank.
     */
    public int rangeFirstRank(final int index)
    {
        return buffer.getInt(offset + RANGES_OFFSET + index * RANGE_LENGTH, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index of the run.
     * @return its length.
     */
    public int rangeLength(final int index)
    {
        return buffer.getInt(offset + RANGES_OFFSET + index * RANGE_LENGTH + SIZE_OF_INT, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index     of the run.
     * @param firstRank its first rank.
     * @param length    its length.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight range(final int index, final int firstRank, final int length)
    {
        final int at = offset + RANGES_OFFSET + index * RANGE_LENGTH;
        buffer.putInt(at, firstRank, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + SIZE_OF_INT, length, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @param index of the process, after the runs ({@link #rangeCount()} must be set).
     * @return the application rank.
     */
    public int process(final int index)
    {
        return buffer.getInt(processOffset(index), ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index   of the process, after the runs ({@link #rangeCount()} must be set).
     * @param process the application rank.
     * @return this for a fluent API.
     */
    public ProcessFailureFlyweight process(final int index, final int process)
    {
        buffer.putInt(processOffset(index), process, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    private int processOffset(final int index)
    {
        return offset + RANGES_OFFSET + rangeCount() * RANGE_LENGTH + index * SIZE_OF_INT;
    }
}
