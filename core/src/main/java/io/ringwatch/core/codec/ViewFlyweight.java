package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankRuns;
import io.ringwatch.core.spi.RankSet;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * VIEW: the state transfer a contact sends a joiner it has just admitted: its dead set, as runs of consecutive ranks
 * like a notice's D_msg, and the incarnations of the ranks that rejoined, as (rank, incarnation) entries with ranks
 * ascending. The sender is the contact, the destination the joiner.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 18)              |
 *  +---------------------------------------------------------------+
 *  |                          Range Count                          |
 *  +---------------------------------------------------------------+
 *  |                          Entry Count                          |
 *  +---------------------------------------------------------------+
 *  |            Range Count runs: First Rank, Length              ...
 *  +---------------------------------------------------------------+
 *  |   Entry Count entries: Rank (4 bytes), Incarnation (8 bytes)  ...
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * Runs and entries together are at most {@link #MAX_ITEMS}, so a view is never longer than {@link #MAX_LENGTH}
 * (counted in {@link FrameDecoder#MAX_FRAME_LENGTH}). A view that needs more cannot be sent ({@link #TOO_LARGE}); the joiner then asks
 * again and is admitted once the view has shrunk (dead ranks rejoin, or a notice run merges).
 */
public final class ViewFlyweight extends FrameHeaderFlyweight
    implements RankRuns, RunWriter<ViewFlyweight>
{
    /** Most runs and entries, together, a view may carry. */
    public static final int MAX_ITEMS = FailureNoticeFlyweight.MAX_RANGES;

    /** Returned by {@link #encode} when the view needs more than {@link #MAX_ITEMS} runs and entries. */
    public static final int TOO_LARGE = -1;

    private static final int RANGE_COUNT_FIELD_OFFSET = HEADER_LENGTH;
    private static final int ENTRY_COUNT_FIELD_OFFSET = RANGE_COUNT_FIELD_OFFSET + SIZE_OF_INT;
    private static final int ITEMS_OFFSET = ENTRY_COUNT_FIELD_OFFSET + SIZE_OF_INT;

    /** Bytes per run: first rank, length. */
    public static final int RUN_LENGTH = 2 * SIZE_OF_INT;

    /** Bytes per entry: rank, incarnation. */
    public static final int ENTRY_LENGTH = SIZE_OF_INT + SIZE_OF_LONG;

    /**
     * @param rangeCount runs.
     * @param entryCount entries.
     * @return total frame length, MAC included.
     */
    public static int lengthOf(final int rangeCount, final int entryCount)
    {
        return ITEMS_OFFSET + rangeCount * RUN_LENGTH + entryCount * ENTRY_LENGTH + MAC_LENGTH;
    }

    /** Length of the longest valid view: every item an entry. */
    public static final int MAX_LENGTH = lengthOf(0, MAX_ITEMS);

    public ViewFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete view, unstamped: frame sequence and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the contact.
     * @param senderIncarnation its incarnation.
     * @param destinationRank   the joiner.
     * @param configDigest      the contact's {@link ConfigDigest}.
     * @param deadSet           the contact's D, ascending.
     * @param incarnations      the contact's incarnations, ranks ascending.
     * @return the frame length, {@link #TOO_LARGE} or {@link #INSUFFICIENT_CAPACITY}.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest,
        final RankSet deadSet,
        final RankIncarnations incarnations)
    {
        final int rangeCount = countRuns(deadSet);
        final int entryCount = incarnations.size();
        if (rangeCount + entryCount > MAX_ITEMS)
        {
            return TOO_LARGE;
        }
        final int length = lengthOf(rangeCount, entryCount);
        if (!beginFrame(buffer, offset, length, VIEW_TYPE, clusterId, senderRank, senderIncarnation, destinationRank,
            configDigest))
        {
            return INSUFFICIENT_CAPACITY;
        }
        buffer.putInt(offset + RANGE_COUNT_FIELD_OFFSET, rangeCount, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(offset + ENTRY_COUNT_FIELD_OFFSET, entryCount, ByteOrder.LITTLE_ENDIAN);
        writeRuns(deadSet);
        for (int e = 0; e < entryCount; e++)
        {
            final int at = entryAt(rangeCount, e);
            buffer.putInt(at, incarnations.rankAt(e), ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(at + SIZE_OF_INT, incarnations.incarnationAt(e), ByteOrder.LITTLE_ENDIAN);
        }
        return length;
    }

    private static int countRuns(final RankSet deadSet)
    {
        int runs = 0;
        for (int i = 0, size = deadSet.size(); i < size; i++)
        {
            if (i == 0 || deadSet.rankAt(i) != deadSet.rankAt(i - 1) + 1)
            {
                runs++;
            }
        }
        return runs;
    }

    /**
     * @param index     of the run, from 0; runs come before entries.
     * @param firstRank first rank of the run.
     * @param length    number of consecutive ranks.
     * @return this for a fluent API.
     */
    public ViewFlyweight range(final int index, final int firstRank, final int length)
    {
        putItem(index, firstRank, length);
        return this;
    }

    private void putItem(final int index, final int a, final int b)
    {
        final int at = offset + ITEMS_OFFSET + index * RUN_LENGTH;
        buffer.putInt(at, a, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(at + SIZE_OF_INT, b, ByteOrder.LITTLE_ENDIAN);
    }

    private int entryAt(final int rangeCount, final int index)
    {
        return offset + ITEMS_OFFSET + rangeCount * RUN_LENGTH + index * ENTRY_LENGTH;
    }

    /**
     * @return range count field.
     */
    public int rangeCount()
    {
        return buffer.getInt(offset + RANGE_COUNT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return entry count field.
     */
    public int entryCount()
    {
        return buffer.getInt(offset + ENTRY_COUNT_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index run index, from 0.
     * @return first rank of the run.
     */
    public int rangeFirstRank(final int index)
    {
        return item(index, 0);
    }

    /**
     * @param index run index, from 0.
     * @return length of the run.
     */
    public int rangeLength(final int index)
    {
        return item(index, SIZE_OF_INT);
    }

    /**
     * @param index entry index, from 0.
     * @return the entry's rank.
     */
    public int entryRank(final int index)
    {
        return buffer.getInt(entryAt(rangeCount(), index), ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param index entry index, from 0.
     * @return the entry's incarnation.
     */
    public long entryIncarnation(final int index)
    {
        return buffer.getLong(entryAt(rangeCount(), index) + SIZE_OF_INT, ByteOrder.LITTLE_ENDIAN);
    }

    private int item(final int index, final int field)
    {
        return buffer.getInt(offset + ITEMS_OFFSET + index * RUN_LENGTH + field, ByteOrder.LITTLE_ENDIAN);
    }
}
