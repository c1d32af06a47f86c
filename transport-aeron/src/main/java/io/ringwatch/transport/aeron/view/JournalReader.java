package io.ringwatch.transport.aeron.view;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;

import static io.ringwatch.transport.aeron.view.JournalLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Reads membership journals ({@link JournalLayout}) while their nodes write them, or after they stopped. A record the
 * writer is overwriting as it is read is left out, never half read.
 */
public final class JournalReader
{
    private JournalReader()
    {
    }

    /**
     * @param file a journal.
     * @return its records still in the ring, oldest first.
     * @throws IllegalStateException if the file is not a journal of this version.
     */
    public static List<JournalEntry> read(final File file)
    {
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(file, "membership journal");
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            if (buffer.capacity() < HEADER_LENGTH || buffer.getIntVolatile(MAGIC_OFFSET) != MAGIC)
            {
                throw new IllegalStateException(file + " is not a membership journal (no header)");
            }
            final int version = buffer.getInt(VERSION_OFFSET, LITTLE_ENDIAN);
            if (version != VERSION)
            {
                throw new IllegalStateException(file + " has journal version " + version + ", this reader " + VERSION);
            }
            final int clusterId = buffer.getInt(CLUSTER_ID_OFFSET, LITTLE_ENDIAN);
            final int node = buffer.getInt(RANK_OFFSET, LITTLE_ENDIAN);
            final int capacity = buffer.getInt(CAPACITY_OFFSET, LITTLE_ENDIAN);
            if (capacity <= 0 || buffer.capacity() < fileLength(capacity))
            {
                throw new IllegalStateException(file + " is shorter than its capacity of " + capacity + " records");
            }
            final long appended = buffer.getLongVolatile(APPENDED_OFFSET);
            final List<JournalEntry> entries = new ArrayList<>((int)Math.min(appended, capacity));
            for (long index = Math.max(0, appended - capacity); index < appended; index++)
            {
                final int offset = recordOffset(capacity, index);
                final long sequence = buffer.getLongVolatile(offset + RECORD_SEQUENCE_OFFSET);
                final JournalEntry entry = new JournalEntry(clusterId, node, sequence,
                    buffer.getLong(offset + RECORD_MONO_NS_OFFSET, LITTLE_ENDIAN),
                    buffer.getLong(offset + RECORD_WALL_MS_OFFSET, LITTLE_ENDIAN),
                    Event.ofCode(buffer.getInt(offset + RECORD_EVENT_OFFSET, LITTLE_ENDIAN)),
                    buffer.getInt(offset + RECORD_RANK_OFFSET, LITTLE_ENDIAN),
                    buffer.getLong(offset + RECORD_INCARNATION_OFFSET, LITTLE_ENDIAN),
                    buffer.getInt(offset + RECORD_CAUSE_OFFSET, LITTLE_ENDIAN),
                    buffer.getInt(offset + RECORD_REPORTER_OFFSET, LITTLE_ENDIAN),
                    buffer.getInt(offset + RECORD_PID_OFFSET, LITTLE_ENDIAN));
                // the fields are good only if the slot still holds this record after they were read
                VarHandle.loadLoadFence();
                if (sequence == index + 1 && buffer.getLongVolatile(offset + RECORD_SEQUENCE_OFFSET) == sequence &&
                    entry.event() != null)
                {
                    entries.add(entry);
                }
            }
            return entries;
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
    }

    /**
     * @param aeronDir  a host's Aeron directory.
     * @param clusterId only this cluster's journals, or null for all.
     * @return every journal file in it, by name.
     */
    public static List<File> journals(final File aeronDir, final String clusterId)
    {
        final String prefix = clusterId == null ? "ringwatch-" : "ringwatch-" + clusterId + "-journal-";
        final File[] files = aeronDir.listFiles((d, name) -> name.startsWith(prefix) && name.contains("-journal-") &&
            name.endsWith(".dat"));
        final List<File> list = new ArrayList<>();
        if (files != null)
        {
            Arrays.sort(files);
            list.addAll(List.of(files));
        }
        return list;
    }

    /**
     * @param aeronDir  a host's Aeron directory.
     * @param clusterId only this cluster's journals, or null for all.
     * @param problems  where to put one line per journal that could not be read.
     * @return every record of the host's journals, in time order.
     */
    public static List<JournalEntry> readHost(final File aeronDir, final String clusterId, final List<String> problems)
    {
        final List<JournalEntry> all = new ArrayList<>();
        for (final File file : journals(aeronDir, clusterId))
        {
            try
            {
                all.addAll(read(file));
            }
            catch (final RuntimeException ex)
            {
                problems.add(file.getName() + ": " + ex.getMessage());
            }
        }
        all.sort(JournalEntry.TIME_ORDER);
        return all;
    }
}
