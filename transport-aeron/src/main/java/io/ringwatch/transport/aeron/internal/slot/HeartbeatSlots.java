package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.internal.SharedFiles;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.agrona.BitUtil.CACHE_LINE_LENGTH;
import static org.agrona.BitUtil.SIZE_OF_INT;

/**
 * A memory-mapped file of heartbeat slots, one 64-byte cache line per rank, shared by every node of a cluster on
 * one host (or filled by the UDP receiver of one node). Emitters store into {@code slot[observer]}; the observer
 * loads {@code slot[self]}. No message, no callback: the observer's duty cycle sees progress with one acquire load.
 * <pre>
 *   File: header line, then clusterSize slots, each aligned to a cache line (the mapping is page aligned).
 *   +---------------------------------------------------------------+
 *   |  Header: magic, version, clusterId, clusterSize  (64 bytes)   |
 *   +---------------------------------------------------------------+
 *   |  Slot 0: {@link HeartbeatSlotLayout} (64 bytes)               |
 *   +---------------------------------------------------------------+
 *   |  ...                                                          |
 * </pre>
 * Slot contents, the packed (counter, writer rank) word and the order of stores and loads are those of
 * {@link HeartbeatSlotLayout}, the same as over RDMA; this class only adds the file, its header and slot indexing.
 */
public final class HeartbeatSlots implements AutoCloseable
{
    /** Identifies a ringwatch slot file. */
    public static final int MAGIC = 0x52574842;
    /** Layout version: 2 made the writer incarnation of a slot int64 ({@link HeartbeatSlotLayout}). */
    public static final int VERSION = 2;
    /** Bytes per slot: one cache line, so emitters to different observers never share a line. */
    public static final int SLOT_LENGTH = HeartbeatSlotLayout.SLOT_LENGTH;
    /** Bytes before slot 0. */
    public static final int HEADER_LENGTH = CACHE_LINE_LENGTH;

    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_INT;
    private static final int CLUSTER_ID_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    private static final int CLUSTER_SIZE_OFFSET = CLUSTER_ID_OFFSET + SIZE_OF_INT;

    private final File file;
    private final int clusterSize;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;

    private HeartbeatSlots(final File file, final int clusterSize, final MappedByteBuffer mapped)
    {
        this.file = file;
        this.clusterSize = clusterSize;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
    }

    /**
     * @param clusterSize number of slots.
     * @return length of a slot file for that many ranks.
     */
    public static long fileLength(final int clusterSize)
    {
        return HEADER_LENGTH + (long)clusterSize * SLOT_LENGTH;
    }

    /**
     * @param aeronDir  directory holding the file.
     * @param clusterId cluster the file belongs to.
     * @return the slot file of that cluster.
     */
    public static File fileFor(final String aeronDir, final int clusterId)
    {
        return new File(aeronDir, "ringwatch-" + clusterId + "-heartbeats.dat");
    }

    /**
     * Map the cluster's slot file, creating it if absent. Processes race here at start, so creation happens under
     * a file lock and a file made by another cluster shape fails with the mismatch rather than corrupting it.
     *
     * @param file        the slot file.
     * @param clusterId   expected cluster id.
     * @param clusterSize expected number of slots.
     * @return the mapped slots.
     */
    public static HeartbeatSlots mapOrCreate(final File file, final int clusterId, final int clusterSize)
    {
        final long length = fileLength(clusterSize);
        final File parent = file.getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs() && !parent.isDirectory())
        {
            throw new IllegalStateException("cannot create directory for heartbeat slots: " + parent);
        }

        SharedFiles.prepare(file, RingwatchConfiguration.filesGroup());
        try (RandomAccessFile raf = new RandomAccessFile(file, "rw");
            FileChannel channel = raf.getChannel())
        {
            final FileLock lock = channel.lock();
            try
            {
                return mapLocked(file, raf, channel, clusterId, clusterSize, length);
            }
            finally
            {
                lock.release();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot map heartbeat slot file " + file, ex);
        }
    }

    private static HeartbeatSlots mapLocked(
        final File file,
        final RandomAccessFile raf,
        final FileChannel channel,
        final int clusterId,
        final int clusterSize,
        final long length) throws IOException
    {
        // Creation happens under the lock: a header still blank under it means its creator died before writing it
        // (after sizing the file, or before), and the file is ours to initialise.
        final boolean fresh = raf.length() == 0 || headerBlank(channel);
        if (fresh)
        {
            raf.setLength(length);
        }
        else if (raf.length() != length)
        {
            throw new IllegalStateException("heartbeat slot file " + file + " has length " + raf.length() +
                ", expected " + length + " for " + clusterSize + " ranks: another cluster shape uses it");
        }

        final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        mapped.order(LITTLE_ENDIAN);
        final HeartbeatSlots slots = new HeartbeatSlots(file, clusterSize, mapped);
        if (fresh)
        {
            slots.buffer.putInt(CLUSTER_ID_OFFSET, clusterId, LITTLE_ENDIAN);
            slots.buffer.putInt(CLUSTER_SIZE_OFFSET, clusterSize, LITTLE_ENDIAN);
            slots.buffer.putInt(VERSION_OFFSET, VERSION, LITTLE_ENDIAN);
            slots.buffer.putIntRelease(MAGIC_OFFSET, MAGIC);
        }
        else
        {
            slots.validateHeader(clusterId);
        }
        return slots;
    }

    private static boolean headerBlank(final FileChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH);
        while (header.hasRemaining() && channel.read(header, header.position()) > 0)
        {
            // read what there is of the header
        }
        for (int i = 0; i < header.position(); i++)
        {
            if (header.get(i) != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Map an existing slot file for inspection, taking cluster id and size from its header.
     *
     * @param file the slot file.
     * @return the mapped slots.
     */
    public static HeartbeatSlots mapExisting(final File file)
    {
        if (!file.exists() || file.length() < HEADER_LENGTH)
        {
            throw new IllegalStateException("no heartbeat slot file (or truncated): " + file);
        }
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(file, "heartbeat slots");
        final UnsafeBuffer header = new UnsafeBuffer(mapped);
        final int size = header.getInt(CLUSTER_SIZE_OFFSET, LITTLE_ENDIAN);
        final int clusterId = header.getInt(CLUSTER_ID_OFFSET, LITTLE_ENDIAN);
        if (header.getInt(MAGIC_OFFSET, LITTLE_ENDIAN) != MAGIC || size <= 0 || file.length() != fileLength(size))
        {
            final boolean blank = header.getLong(0) == 0 && header.getLong(8) == 0;
            IoUtil.unmap(mapped);
            throw new IllegalStateException(blank ? "heartbeat slot file " + file + " has no header: its creator " +
                "died before writing it (the next node to start on it initialises it)" :
                "not a heartbeat slot file: " + file);
        }
        final HeartbeatSlots slots = new HeartbeatSlots(file, size, mapped);
        slots.validateHeader(clusterId);
        return slots;
    }

    /**
     * @param slot index of the slot.
     * @return the latest counter in the slot whoever wrote it, or {@link HeartbeatChannel#NO_HEARTBEAT}.
     */
    public long lastCounter(final int slot)
    {
        final long word = HeartbeatSlotLayout.word(buffer, slotOffset(slot));
        return word == 0 ? HeartbeatChannel.NO_HEARTBEAT : HeartbeatSlotLayout.counterOf(word);
    }

    private void validateHeader(final int clusterId)
    {
        final int magic = buffer.getIntAcquire(MAGIC_OFFSET);
        final int version = buffer.getInt(VERSION_OFFSET, LITTLE_ENDIAN);
        final int fileClusterId = buffer.getInt(CLUSTER_ID_OFFSET, LITTLE_ENDIAN);
        final int fileClusterSize = buffer.getInt(CLUSTER_SIZE_OFFSET, LITTLE_ENDIAN);
        if (magic != MAGIC || version != VERSION || fileClusterId != clusterId || fileClusterSize != clusterSize)
        {
            CloseHelper.quietClose(this);
            throw new IllegalStateException("heartbeat slot file " + file + " holds magic=0x" +
                Integer.toHexString(magic) + " version=" + version + " clusterId=" + fileClusterId + " clusterSize=" +
                fileClusterSize + ", expected clusterId=" + clusterId + " clusterSize=" + clusterSize);
        }
    }

    /**
     * Deposit a heartbeat: diagnostics first, then the packed word with one release store.
     *
     * @param slot        index of the slot (the observer's rank).
     * @param writerRank  the emitter.
     * @param incarnation the emitter's incarnation.
     * @param counter     heartbeat counter, ≥ 1.
     * @param timestampNs the emitter's clock when writing.
     */
    public void write(final int slot, final int writerRank, final long incarnation, final long counter,
        final long timestampNs)
    {
        HeartbeatSlotLayout.publish(buffer, slotOffset(slot), counter, writerRank, incarnation, timestampNs);
    }

    /**
     * @param slot        index of the slot (the reader's own rank).
     * @param emitterRank the emitter the reader watches.
     * @return the counter last deposited by {@code emitterRank}, or {@link HeartbeatChannel#NO_HEARTBEAT} when the
     * slot is empty or its latest writer is someone else.
     */
    public long read(final int slot, final int emitterRank)
    {
        return HeartbeatSlotLayout.heartbeatFrom(buffer, slotOffset(slot), emitterRank);
    }

    /**
     * @param slot index of the slot.
     * @return rank of the latest writer, or {@link HeartbeatSlotLayout#NO_WRITER} (-1) if never written.
     */
    public int lastWriter(final int slot)
    {
        return HeartbeatSlotLayout.writerRank(buffer, slotOffset(slot));
    }

    /**
     * @param slot index of the slot.
     * @return the latest writer's timestamp (diagnostic, may be torn against the word).
     */
    public long lastWriterTimestampNs(final int slot)
    {
        return buffer.getLongVolatile(slotOffset(slot) + HeartbeatSlotLayout.WRITER_TIMESTAMP_OFFSET);
    }

    /**
     * Forget whatever a previous run left in a slot; a node clears its own slot on start.
     *
     * @param slot index of the slot.
     */
    public void clear(final int slot)
    {
        HeartbeatSlotLayout.clear(buffer, slotOffset(slot));
    }

    /**
     * @return number of slots.
     */
    public int clusterSize()
    {
        return clusterSize;
    }

    /**
     * @return the mapped file.
     */
    public File file()
    {
        return file;
    }

    private int slotOffset(final int slot)
    {
        if (slot < 0 || slot >= clusterSize)
        {
            throw new IndexOutOfBoundsException("slot " + slot + " not in [0, " + clusterSize + ")");
        }
        return HEADER_LENGTH + slot * SLOT_LENGTH;
    }

    /**
     * Unmap; the file stays for other processes.
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
