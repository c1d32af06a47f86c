package io.ringwatch.transport.aeron.view;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.util.concurrent.TimeUnit;

import static io.ringwatch.transport.aeron.view.ViewLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Reads a node's view file from any local process: plain loads bracketed by the sequence field, retried while the
 * writer is mid-update, for a bounded time: a writer that died between opening and closing an update leaves the
 * sequence odd for good, and a reader must say so rather than spin. Never blocks the writer. Not thread safe; one
 * reader per thread.
 */
public final class ViewReader implements AutoCloseable
{
    /** How long {@link #read(ViewSnapshot)} waits for a consistent view before it reports the file stuck. */
    public static final long DEFAULT_READ_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private final File file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int clusterSize;

    /**
     * Map an existing view file read-only and check its header.
     *
     * @param file the node's view file.
     */
    public ViewReader(final File file)
    {
        this.file = file;
        if (!file.exists() || file.length() < HEADER_LENGTH)
        {
            throw new IllegalStateException("no view file (or not yet written): " + file);
        }
        this.mapped = IoUtil.mapExistingFile(file, "ringwatch view");
        this.buffer = new UnsafeBuffer(mapped);
        final int magic = buffer.getIntAcquire(MAGIC_OFFSET);
        final int version = buffer.getInt(VERSION_OFFSET, LITTLE_ENDIAN);
        if (magic != MAGIC || version != VERSION)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException("not a ringwatch view file (magic=0x" + Integer.toHexString(magic) +
                " version=" + version + "): " + file);
        }
        this.clusterSize = buffer.getInt(CLUSTER_SIZE_OFFSET, LITTLE_ENDIAN);
        if (clusterSize <= 0 || file.length() < ViewLayout.fileLength(clusterSize))
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException("truncated view file for clusterSize=" + clusterSize + ": " + file);
        }
    }

    /**
     * Copy a consistent view into {@code snapshot}, waiting at most {@link #DEFAULT_READ_TIMEOUT_NS}.
     *
     * @param snapshot destination, reused.
     * @return the snapshot.
     * @throws IllegalStateException if no consistent view could be read in that time (the writer died mid-update).
     */
    public ViewSnapshot read(final ViewSnapshot snapshot)
    {
        return read(snapshot, DEFAULT_READ_TIMEOUT_NS);
    }

    /**
     * Copy a consistent view into {@code snapshot}.
     *
     * @param snapshot  destination, reused.
     * @param timeoutNs how long to retry while the writer is mid-update.
     * @return the snapshot.
     * @throws IllegalStateException if no consistent view could be read in that time (the writer died mid-update).
     */
    public ViewSnapshot read(final ViewSnapshot snapshot, final long timeoutNs)
    {
        snapshot.ensureCapacity(clusterSize);
        final int recordsOffset = recordsOffset(clusterSize);
        final int words = bitmapWords(clusterSize);
        long deadlineNs = 0;
        boolean retrying = false;
        while (true)
        {
            final long before = buffer.getLongAcquire(SEQUENCE_OFFSET);
            if ((before & 1) != 0)
            {
                // the clock is read only off the fast path: a reader that never meets an update never reads it
                if (!retrying)
                {
                    retrying = true;
                    deadlineNs = System.nanoTime() + timeoutNs;
                }
                else if (System.nanoTime() - deadlineNs > 0)
                {
                    throw stuck(timeoutNs);
                }
                Thread.onSpinWait();
                continue;
            }

            snapshot.pid = buffer.getLong(PID_OFFSET, LITTLE_ENDIAN);
            snapshot.clusterId = buffer.getInt(CLUSTER_ID_OFFSET, LITTLE_ENDIAN);
            snapshot.clusterSize = clusterSize;
            snapshot.rank = buffer.getInt(RANK_OFFSET, LITTLE_ENDIAN);
            snapshot.state = buffer.getInt(STATE_OFFSET, LITTLE_ENDIAN);
            snapshot.viewEpoch = buffer.getLong(VIEW_EPOCH_OFFSET, LITTLE_ENDIAN);
            snapshot.deadCount = buffer.getInt(DEAD_COUNT_OFFSET, LITTLE_ENDIAN);
            snapshot.excludedBy = buffer.getInt(EXCLUDED_BY_OFFSET, LITTLE_ENDIAN);
            snapshot.exclusionCause = buffer.getInt(EXCLUSION_CAUSE_OFFSET, LITTLE_ENDIAN);
            snapshot.startNs = buffer.getLong(START_NS_OFFSET, LITTLE_ENDIAN);
            snapshot.excludedAtNs = buffer.getLong(EXCLUDED_AT_NS_OFFSET, LITTLE_ENDIAN);
            snapshot.stopCause = buffer.getInt(STOP_CAUSE_OFFSET, LITTLE_ENDIAN);
            snapshot.stoppedAtMs = buffer.getLong(STOPPED_AT_MS_OFFSET, LITTLE_ENDIAN);
            snapshot.pidStartMs = buffer.getLong(PID_START_MS_OFFSET, LITTLE_ENDIAN);
            for (int i = 0; i < words; i++)
            {
                snapshot.bitmap[i] = buffer.getLong(HEADER_LENGTH + i * Long.BYTES, LITTLE_ENDIAN);
            }
            for (int r = 0; r < clusterSize; r++)
            {
                final int record = recordsOffset + r * RECORD_LENGTH;
                snapshot.detectedAtNs[r] = buffer.getLong(record + RECORD_DETECTED_AT_OFFSET, LITTLE_ENDIAN);
                snapshot.cause[r] = buffer.getInt(record + RECORD_CAUSE_OFFSET, LITTLE_ENDIAN);
                snapshot.reporter[r] = buffer.getInt(record + RECORD_REPORTER_OFFSET, LITTLE_ENDIAN);
                snapshot.incarnation[r] = buffer.getLong(incarnationOffset(clusterSize, r), LITTLE_ENDIAN);
            }

            // data loads must complete before the sequence is checked again
            VarHandle.loadLoadFence();
            if (buffer.getLong(SEQUENCE_OFFSET, LITTLE_ENDIAN) == before)
            {
                break;
            }
            if (!retrying)
            {
                retrying = true;
                deadlineNs = System.nanoTime() + timeoutNs;
            }
            else if (System.nanoTime() - deadlineNs > 0)
            {
                throw stuck(timeoutNs);
            }
        }
        snapshot.heartbeatProgress = buffer.getLongAcquire(HEARTBEAT_PROGRESS_OFFSET);
        snapshot.lastProgressNs = buffer.getLongAcquire(LAST_PROGRESS_NS_OFFSET);
        return snapshot;
    }

    private IllegalStateException stuck(final long timeoutNs)
    {
        final long pid = buffer.getLong(PID_OFFSET, LITTLE_ENDIAN);
        final boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return new IllegalStateException("view file " + file + ": no consistent view within " +
            TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms; its writer (pid " + pid + ") " + (alive ?
            "is running but has held an update open all that time" :
            "is gone and died in the middle of an update, so the file shows nothing reliable"));
    }

    /**
     * @return N of the cluster the file describes.
     */
    public int clusterSize()
    {
        return clusterSize;
    }

    /**
     * @return the file.
     */
    public File file()
    {
        return file;
    }

    /**
     * Unmap.
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
