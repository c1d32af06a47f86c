package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.view.JournalLayout;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;

import static io.ringwatch.transport.aeron.view.JournalLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writer of a node's membership journal ({@link JournalLayout}): one fixed-length record per membership event,
 * appended by the {@link ViewFile} as the protocol reports it, on the agent thread. An append is a handful of stores
 * into a mapped ring and two clock reads: no allocation, no system call. A restarted rank appends to the journal its
 * previous process left, so one file holds the rank's history across restarts, the oldest records overwritten first.
 */
public final class MembershipJournal implements AutoCloseable
{
    private final int capacity;
    private final int pid;
    private MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private long appended;

    /**
     * Open the rank's journal, or create it (0600, as the view file) when there is none or it does not fit.
     *
     * @param file        where.
     * @param clusterId   cluster.
     * @param clusterSize N.
     * @param rank        node.
     * @param capacity    records kept.
     */
    public MembershipJournal(
        final File file, final int clusterId, final int clusterSize, final int rank, final int capacity)
    {
        this.capacity = capacity;
        this.pid = (int)ProcessHandle.current().pid();
        final long length = fileLength(capacity);
        final boolean reuse = fits(file, clusterId, clusterSize, rank, capacity);
        if (!reuse && file.exists() && !file.delete())
        {
            throw new IllegalStateException("cannot replace journal " + file);
        }
        SharedFiles.prepare(file, RingwatchConfiguration.filesGroup());
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw"))
        {
            raf.setLength(length);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot size journal " + file, ex);
        }
        this.mapped = IoUtil.mapExistingFile(file, "membership journal");
        this.buffer = new UnsafeBuffer(mapped);
        buffer.putLong(PID_OFFSET, pid, LITTLE_ENDIAN);
        if (reuse)
        {
            appended = buffer.getLongVolatile(APPENDED_OFFSET);
        }
        else
        {
            buffer.putInt(VERSION_OFFSET, VERSION, LITTLE_ENDIAN);
            buffer.putInt(CLUSTER_ID_OFFSET, clusterId, LITTLE_ENDIAN);
            buffer.putInt(CLUSTER_SIZE_OFFSET, clusterSize, LITTLE_ENDIAN);
            buffer.putInt(RANK_OFFSET, rank, LITTLE_ENDIAN);
            buffer.putInt(CAPACITY_OFFSET, capacity, LITTLE_ENDIAN);
            buffer.putLongRelease(APPENDED_OFFSET, 0);
            // magic last: a reader that sees it sees a complete header
            buffer.putIntRelease(MAGIC_OFFSET, MAGIC);
        }
    }

    private static boolean fits(
        final File file, final int clusterId, final int clusterSize, final int rank, final int capacity)
    {
        if (!file.isFile() || file.length() != fileLength(capacity))
        {
            return false;
        }
        final MappedByteBuffer existing = IoUtil.mapExistingFile(file, "membership journal");
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(existing);
            return header.getIntVolatile(MAGIC_OFFSET) == MAGIC &&
                header.getInt(VERSION_OFFSET, LITTLE_ENDIAN) == VERSION &&
                header.getInt(CLUSTER_ID_OFFSET, LITTLE_ENDIAN) == clusterId &&
                header.getInt(CLUSTER_SIZE_OFFSET, LITTLE_ENDIAN) == clusterSize &&
                header.getInt(RANK_OFFSET, LITTLE_ENDIAN) == rank &&
                header.getInt(CAPACITY_OFFSET, LITTLE_ENDIAN) == capacity;
        }
        finally
        {
            IoUtil.unmap(existing);
        }
    }

    /**
     * Append one record, stamped now. Records are published in order: the slot's sequence is invalidated first, so a
     * reader racing the writer around the ring drops the slot rather than mix two records.
     *
     * @param event       what happened.
     * @param rank        to whom.
     * @param incarnation its incarnation, as this node knows it.
     * @param cause       the event's cause code (see {@link JournalLayout.Event}).
     * @param reporter    who told this node, or -1.
     */
    public void append(final Event event, final int rank, final long incarnation, final int cause, final int reporter)
    {
        if (mapped == null)
        {
            return;
        }
        final long index = appended;
        final int offset = recordOffset(capacity, index);
        buffer.putLongRelease(offset + RECORD_SEQUENCE_OFFSET, -1);
        VarHandle.storeStoreFence();
        buffer.putLong(offset + RECORD_MONO_NS_OFFSET, System.nanoTime(), LITTLE_ENDIAN);
        buffer.putLong(offset + RECORD_WALL_MS_OFFSET, System.currentTimeMillis(), LITTLE_ENDIAN);
        buffer.putInt(offset + RECORD_EVENT_OFFSET, event.code(), LITTLE_ENDIAN);
        buffer.putInt(offset + RECORD_RANK_OFFSET, rank, LITTLE_ENDIAN);
        buffer.putLong(offset + RECORD_INCARNATION_OFFSET, incarnation, LITTLE_ENDIAN);
        buffer.putInt(offset + RECORD_CAUSE_OFFSET, cause, LITTLE_ENDIAN);
        buffer.putInt(offset + RECORD_REPORTER_OFFSET, reporter, LITTLE_ENDIAN);
        buffer.putInt(offset + RECORD_PID_OFFSET, pid, LITTLE_ENDIAN);
        buffer.putLongRelease(offset + RECORD_SEQUENCE_OFFSET, index + 1);
        appended = index + 1;
        buffer.putLongRelease(APPENDED_OFFSET, appended);
    }

    /**
     * Unmap; the file stays for readers. Appends after this are dropped.
     */
    public void close()
    {
        if (mapped != null)
        {
            IoUtil.unmap(mapped);
            mapped = null;
        }
    }
}
