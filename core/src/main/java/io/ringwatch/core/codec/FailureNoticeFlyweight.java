package io.ringwatch.core.codec;

import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankRuns;
import io.ringwatch.core.spi.RankSet;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * FAILURE_NOTICE or JOIN: one hop of a reliable broadcast, BCASTMSG(dead, source, D_msg) of paper 002 plus the broadcast
 * id (source, source incarnation, sequence). The sender is the node forwarding this copy; the source is the node
 * that started the broadcast; the destination is the next hop. Each hop is a frame of its own, with the forwarder's
 * frame sequence and MAC, so a copy replayed to any node is stale however new its broadcast id looks.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 3)               |
 *  +---------------------------------------------------------------+
 *  |                           Dead Rank                           |
 *  +---------------------------------------------------------------+
 *  |                          Source Rank                          |
 *  +---------------------------------------------------------------+
 *  |                       Source Incarnation                      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          Range Count                          |
 *  +---------------------------------------------------------------+
 *  |                            Sequence                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                      Subject Incarnation                      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                       Range 0 First Rank                      |
 *  +---------------------------------------------------------------+
 *  |                         Range 0 Length                        |
 *  +---------------------------------------------------------------+
 *  |                  ... Range Count ranges in all               ...
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * D_msg travels as runs of consecutive ranks, ascending, each of positive length, with a gap of at least one rank
 * between runs: the compression is canonical, so a set has exactly one encoding. Failures cluster (a rack, a
 * switch), so runs keep notices small even when D_msg is large. At most {@link #MAX_RANGES} runs fit a notice;
 * a set more fragmented than that cannot be sent (see {@link #encode}).
 * <p>
 * A JOIN (type {@link #JOIN_TYPE}) has the same layout: the dead rank field names the rank admitted, the subject
 * incarnation its new incarnation, and D_msg still holds it. For a failure the subject incarnation is the one that
 * died; a receiver that knows a newer one treats the notice as stale.
 */
public final class FailureNoticeFlyweight extends FrameHeaderFlyweight
    implements RankRuns, RunWriter<FailureNoticeFlyweight>
{
    /** Most runs a notice may carry. */
    public static final int MAX_RANGES = 1024;

    /** Returned by {@link #encode} and {@link #encodedLength} when D_msg needs more than {@link #MAX_RANGES} runs. */
    public static final int TOO_MANY_RANGES = -1;

    /**
     * Returned by {@link #encode} and {@link #encodedLength} when the notice breaks its own contract: empty or
     * non-ascending dead set, a negative rank in it, dead rank missing from it, source rank inside it, or a
     * sequence below 1. Receivers would reject such a frame, so it is refused before it is sent.
     */
    public static final int INVALID_NOTICE = -3;

    private static final int DEAD_RANK_FIELD_OFFSET = HEADER_LENGTH;
    private static final int SOURCE_RANK_FIELD_OFFSET = DEAD_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int SOURCE_INCARNATION_FIELD_OFFSET = SOURCE_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RANGE_COUNT_FIELD_OFFSET = SOURCE_INCARNATION_FIELD_OFFSET + SIZE_OF_LONG;
    private static final int SEQUENCE_FIELD_OFFSET = RANGE_COUNT_FIELD_OFFSET + SIZE_OF_INT;
    private static final int SUBJECT_INCARNATION_FIELD_OFFSET = SEQUENCE_FIELD_OFFSET + SIZE_OF_LONG;
    static final int RANGES_OFFSET = SUBJECT_INCARNATION_FIELD_OFFSET + SIZE_OF_LONG;

    private static final int RANGE_FIRST_RANK_FIELD_OFFSET = 0;
    private static final int RANGE_LENGTH_FIELD_OFFSET = RANGE_FIRST_RANK_FIELD_OFFSET + SIZE_OF_INT;

    /** Bytes per run. */
    public static final int RANGE_LENGTH = RANGE_LENGTH_FIELD_OFFSET + SIZE_OF_INT;

    /** Length of the smallest valid notice: one run. */
    public static final int MIN_LENGTH = lengthOf(1);

    /** Length of the largest valid notice: {@link #MAX_RANGES} runs. */
    public static final int MAX_LENGTH = lengthOf(MAX_RANGES);

    /**
     * @param rangeCount number of runs, in {@code [0, MAX_RANGES]}.
     * @return total frame length of a notice with that many runs, MAC included.
     */
    public static int lengthOf(final int rangeCount)
    {
        return RANGES_OFFSET + rangeCount * RANGE_LENGTH + MAC_LENGTH;
    }

    /**
     * Length the notice will take on the wire, so a sender can claim exactly that much (e.g. Aeron's
     * {@code tryClaim}) before {@link #encode}. Walks D_msg once.
     *
     * @param notice to measure.
     * @return frame length, or {@link #TOO_MANY_RANGES} or {@link #INVALID_NOTICE}.
     */
    public static int encodedLength(final Notice notice)
    {
        final RankSet deadSet = notice.deadSet();
        final int size = deadSet.size();
        if (size < 1 || notice.sequence() < 1)
        {
            return INVALID_NOTICE;
        }

        final int deadRank = notice.deadRank();
        final int sourceRank = notice.sourceRank();
        int previous = deadSet.rankAt(0);
        if (previous < 0)
        {
            return INVALID_NOTICE;
        }
        boolean deadSeen = previous == deadRank;
        boolean sourceSeen = previous == sourceRank;
        int runs = 1;

        for (int i = 1; i < size; i++)
        {
            final int rank = deadSet.rankAt(i);
            if (rank <= previous)
            {
                return INVALID_NOTICE;
            }
            if (rank != previous + 1 && ++runs > MAX_RANGES)
            {
                return TOO_MANY_RANGES;
            }
            deadSeen |= rank == deadRank;
            sourceSeen |= rank == sourceRank;
            previous = rank;
        }

        return deadSeen && !sourceSeen ? lengthOf(runs) : INVALID_NOTICE;
    }

    public FailureNoticeFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete notice, compressing D_msg into maximal runs of consecutive ranks; unstamped: frame sequence and
     * MAC zero until {@link FrameStamper#stamp}.
     * <p>
     * A negative result means nothing valid was written and the caller must not send: it should count the
     * failure. {@link #TOO_MANY_RANGES} is a property of the dead set (more than {@link #MAX_RANGES} gaps), not of
     * the buffer, so retrying cannot help.
     *
     * @param buffer            destination; use at least {@link #MAX_LENGTH} bytes to fit every sendable notice.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the forwarding node.
     * @param senderIncarnation the forwarding node's incarnation.
     * @param destinationRank   the next hop.
     * @param configDigest      the forwarding node's {@link ConfigDigest}.
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
        final Notice notice)
    {
        final int length = encodedLength(notice);
        if (length < 0)
        {
            return length;
        }
        final int type = notice.isJoin() ? JOIN_TYPE : FAILURE_NOTICE_TYPE;
        if (!beginFrame(buffer, offset, length, type, clusterId, senderRank, senderIncarnation, destinationRank,
            configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }

        deadRank(notice.deadRank())
            .sourceRank(notice.sourceRank())
            .sourceIncarnation(notice.sourceIncarnation())
            .rangeCount(writeRuns(notice.deadSet()))
            .sequence(notice.sequence())
            .subjectIncarnation(notice.subjectIncarnation());

        return length;
    }

    /**
     * @return dead rank field: the rank whose death is announced.
     */
    public int deadRank()
    {
        return buffer.getInt(offset + DEAD_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param deadRank field value.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight deadRank(final int deadRank)
    {
        buffer.putInt(offset + DEAD_RANK_FIELD_OFFSET, deadRank, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return source rank field: the node that started the broadcast.
     */
    public int sourceRank()
    {
        return buffer.getInt(offset + SOURCE_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param sourceRank field value.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight sourceRank(final int sourceRank)
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
    public FailureNoticeFlyweight sourceIncarnation(final long sourceIncarnation)
    {
        buffer.putLong(offset + SOURCE_INCARNATION_FIELD_OFFSET, sourceIncarnation, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return range count field: number of runs that follow the fixed part.
     */
    public int rangeCount()
    {
        return buffer.getInt(offset + RANGE_COUNT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param rangeCount field value.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight rangeCount(final int rangeCount)
    {
        buffer.putInt(offset + RANGE_COUNT_FIELD_OFFSET, rangeCount, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return sequence field: the source's broadcast number.
     */
    public long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param sequence field value.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight sequence(final long sequence)
    {
        buffer.putLong(offset + SEQUENCE_FIELD_OFFSET, sequence, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return subject incarnation field: the incarnation of the dead rank that died, or that a JOIN admits.
     */
    public long subjectIncarnation()
    {
        return buffer.getLong(offset + SUBJECT_INCARNATION_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param subjectIncarnation field value.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight subjectIncarnation(final long subjectIncarnation)
    {
        buffer.putLong(offset + SUBJECT_INCARNATION_FIELD_OFFSET, subjectIncarnation, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @param index of the run, from 0.
     * @return first rank of that run.
     */
    public int rangeFirstRank(final int index)
    {
        return buffer.getInt(rangeOffset(index) + RANGE_FIRST_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index of the run, from 0.
     * @return number of consecutive ranks in that run.
     */
    public int rangeLength(final int index)
    {
        return buffer.getInt(rangeOffset(index) + RANGE_LENGTH_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index     of the run, from 0.
     * @param firstRank first rank of the run.
     * @param length    number of consecutive ranks.
     * @return this for a fluent API.
     */
    public FailureNoticeFlyweight range(final int index, final int firstRank, final int length)
    {
        final int rangeOffset = rangeOffset(index);
        buffer.putInt(rangeOffset + RANGE_FIRST_RANK_FIELD_OFFSET, firstRank, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(rangeOffset + RANGE_LENGTH_FIELD_OFFSET, length, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    private int rangeOffset(final int index)
    {
        return offset + RANGES_OFFSET + index * RANGE_LENGTH;
    }
}
