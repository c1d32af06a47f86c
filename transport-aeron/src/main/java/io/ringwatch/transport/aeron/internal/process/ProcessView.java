package io.ringwatch.transport.aeron.internal.process;

import io.ringwatch.core.process.JobLayout;
import io.ringwatch.transport.aeron.client.ProcessViewLayout;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;

import static io.ringwatch.transport.aeron.client.ProcessViewLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writer side of a daemon's process view ({@link ProcessViewLayout}): the dead bitmap under a sequence lock, and the
 * local slots its processes and the daemon share. No allocation after construction.
 */
public final class ProcessView implements AutoCloseable
{
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int bitmapOffset;
    private final File file;
    private long sequence;
    private int deadCount;

    /**
     * @param file      where; replaced if present.
     * @param layout    the job.
     * @param nodeRank  this daemon.
     */
    public ProcessView(final File file, final JobLayout layout, final int nodeRank)
    {
        this.file = file;
        if (file.exists() && !file.delete())
        {
            throw new IllegalStateException("cannot replace stale process view " + file);
        }
        final int local = layout.processesOn(nodeRank);
        this.mapped = IoUtil.mapNewFile(
            file, ProcessViewLayout.fileLength(local, layout.processCount(), layout.nodeCount()));
        this.buffer = new UnsafeBuffer(mapped);
        this.bitmapOffset = ProcessViewLayout.bitmapOffset(local);
        buffer.putInt(VERSION_OFFSET, VERSION, LITTLE_ENDIAN);
        buffer.putInt(PROCESS_COUNT_OFFSET, layout.processCount(), LITTLE_ENDIAN);
        buffer.putInt(NODE_COUNT_OFFSET, layout.nodeCount(), LITTLE_ENDIAN);
        buffer.putInt(LOCAL_COUNT_OFFSET, local, LITTLE_ENDIAN);
        buffer.putInt(FIRST_LOCAL_OFFSET, layout.firstProcess(nodeRank), LITTLE_ENDIAN);
        buffer.putInt(NODE_RANK_OFFSET, nodeRank, LITTLE_ENDIAN);
        final int table = ProcessViewLayout.jobTableOffset(local, layout.processCount());
        for (int node = 0; node < layout.nodeCount(); node++)
        {
            buffer.putInt(table + node * Integer.BYTES, layout.firstProcess(node), LITTLE_ENDIAN);
        }
        buffer.putInt(table + layout.nodeCount() * Integer.BYTES, layout.processCount(), LITTLE_ENDIAN);
        // magic last: a reader that sees it sees the rest
        buffer.putLongVolatile(MAGIC_OFFSET, MAGIC);
    }

    /**
     * Mark a process dead; readers see it once the sequence is even again.
     *
     * @param process application rank.
     */
    public void markDead(final int process)
    {
        final int at = bitmapOffset + (process >>> 6) * 8;
        final long word = buffer.getLong(at, LITTLE_ENDIAN);
        final long bit = 1L << (process & 63);
        if ((word & bit) != 0)
        {
            return;
        }
        buffer.putLongVolatile(SEQUENCE_OFFSET, ++sequence);
        buffer.putLongVolatile(at, word | bit);
        buffer.putInt(DEAD_COUNT_OFFSET, ++deadCount, LITTLE_ENDIAN);
        buffer.putLongVolatile(SEQUENCE_OFFSET, ++sequence);
    }

    /**
     * @param process application rank.
     * @return true if marked dead.
     */
    public boolean isDead(final int process)
    {
        return (buffer.getLongVolatile(bitmapOffset + (process >>> 6) * 8) & (1L << (process & 63))) != 0;
    }

    /**
     * @param localIndex a local process.
     * @return its slot state, as its process or this daemon last wrote it.
     */
    public long slotState(final int localIndex)
    {
        return buffer.getLongVolatile(ProcessViewLayout.slotOffset(localIndex) + SLOT_STATE_OFFSET);
    }

    /**
     * @param localIndex a local process.
     * @param state      new state.
     */
    public void slotState(final int localIndex, final long state)
    {
        buffer.putLongVolatile(ProcessViewLayout.slotOffset(localIndex) + SLOT_STATE_OFFSET, state);
    }

    /**
     * @param localIndex a local process.
     * @return the heartbeat counter its process leaves on every poll.
     */
    public long slotHeartbeat(final int localIndex)
    {
        return buffer.getLongVolatile(ProcessViewLayout.slotOffset(localIndex) + SLOT_HEARTBEAT_OFFSET);
    }

    /**
     * @param localIndex a local process.
     * @return its pid, 0 if unknown.
     */
    public long slotPid(final int localIndex)
    {
        return buffer.getLongVolatile(ProcessViewLayout.slotOffset(localIndex) + SLOT_PID_OFFSET);
    }

    /**
     * Record a launch or an exit in a slot.
     *
     * @param localIndex  a local process.
     * @param pid         its pid.
     * @param exitCode    exit status, or -1 while running.
     * @param exitedAtNs  when the daemon learned of the exit, 0 while running.
     */
    public void slotProcess(final int localIndex, final long pid, final int exitCode, final long exitedAtNs)
    {
        final int at = ProcessViewLayout.slotOffset(localIndex);
        buffer.putLong(at + SLOT_PID_OFFSET, pid, LITTLE_ENDIAN);
        buffer.putLong(at + SLOT_EXIT_CODE_OFFSET, exitCode, LITTLE_ENDIAN);
        buffer.putLongVolatile(at + SLOT_EXITED_AT_NS_OFFSET, exitedAtNs);
    }

    /**
     * @return the daemon's node rank.
     */
    public int nodeRank()
    {
        return buffer.getInt(NODE_RANK_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * @return the file.
     */
    public File file()
    {
        return file;
    }

    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
