package io.ringwatch.transport.aeron.client;

import java.io.File;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of a daemon's process view file ({@code ringwatch-<cluster>-procs-<node>.dat} in the Aeron directory),
 * little-endian, and of the notifications the daemon pushes to its local processes.
 * <pre>
 *   header (64 bytes): magic, version, process count P, node count N, local count K, first local rank,
 *                      sequence (odd while the daemon writes), dead count
 *   K local slots (64 bytes each): state, pid, exit code, exited-at ns, heartbeat; a slot's state is written by
 *                      its process (ATTACHED, FINISHED) and by the daemon (LAUNCHED, DEPARTED, DEAD); the heartbeat
 *                      counter by its process on every poll, watched by the daemon's watchdog
 *   bitmap: P bits, bit p set when application rank p is dead in the daemon's view
 *   job table: N + 1 ints, the first application rank of each node rank then P (the job, for nodeOf)
 * </pre>
 * Readers use plain loads bracketed by the sequence, like the node view file.
 */
public final class ProcessViewLayout
{
    /** File magic, "RWPROCS1". */
    public static final long MAGIC = 0x3153434F52505752L;
    /** Layout version. */
    public static final int VERSION = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int PROCESS_COUNT_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int NODE_COUNT_OFFSET = PROCESS_COUNT_OFFSET + SIZE_OF_INT;
    public static final int LOCAL_COUNT_OFFSET = NODE_COUNT_OFFSET + SIZE_OF_INT;
    public static final int FIRST_LOCAL_OFFSET = LOCAL_COUNT_OFFSET + SIZE_OF_INT;
    public static final int NODE_RANK_OFFSET = FIRST_LOCAL_OFFSET + SIZE_OF_INT;
    public static final int SEQUENCE_OFFSET = NODE_RANK_OFFSET + 2 * SIZE_OF_INT;
    public static final int DEAD_COUNT_OFFSET = SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH = CACHE_LINE_LENGTH;

    public static final int SLOT_LENGTH = CACHE_LINE_LENGTH;
    public static final int SLOT_STATE_OFFSET = 0;
    public static final int SLOT_PID_OFFSET = SLOT_STATE_OFFSET + SIZE_OF_LONG;
    public static final int SLOT_EXIT_CODE_OFFSET = SLOT_PID_OFFSET + SIZE_OF_LONG;
    public static final int SLOT_EXITED_AT_NS_OFFSET = SLOT_EXIT_CODE_OFFSET + SIZE_OF_LONG;
    public static final int SLOT_HEARTBEAT_OFFSET = SLOT_EXITED_AT_NS_OFFSET + SIZE_OF_LONG;

    /** Slot state: nobody there yet. */
    public static final long SLOT_EMPTY = 0;
    /** Slot state: the daemon launched the process. */
    public static final long SLOT_LAUNCHED = 1;
    /** Slot state: the process attached. */
    public static final long SLOT_ATTACHED = 2;
    /** Slot state: the process said it finished; exit 0 from here is a departure. */
    public static final long SLOT_FINISHED = 3;
    /** Slot state: the process exited after finishing (departed). */
    public static final long SLOT_DEPARTED = 4;
    /** Slot state: the process died (a failure, announced to the cluster). */
    public static final long SLOT_DEAD = 5;

    /** Notification: one message per dead process, {@link #NOTIFICATION_LENGTH} bytes. */
    public static final int NOTIFICATION_LENGTH = 2 * SIZE_OF_INT + SIZE_OF_LONG;
    public static final int NOTIFICATION_PROCESS_OFFSET = 0;
    public static final int NOTIFICATION_CAUSE_OFFSET = NOTIFICATION_PROCESS_OFFSET + SIZE_OF_INT;
    public static final int NOTIFICATION_DAEMON_NS_OFFSET = NOTIFICATION_CAUSE_OFFSET + SIZE_OF_INT;

    /** Channel of the daemon's notifications to its local processes. */
    public static final String NOTIFICATION_CHANNEL = "aeron:ipc?term-length=64k";

    private ProcessViewLayout()
    {
    }

    /**
     * @param localCount K.
     * @return offset of the dead bitmap.
     */
    public static int bitmapOffset(final int localCount)
    {
        return HEADER_LENGTH + localCount * SLOT_LENGTH;
    }

    /**
     * @param localCount   K.
     * @param processCount P.
     * @return offset of the job table.
     */
    public static int jobTableOffset(final int localCount, final int processCount)
    {
        return bitmapOffset(localCount) + ((processCount + 63) >>> 6) * SIZE_OF_LONG;
    }

    /**
     * @param localCount   K.
     * @param processCount P.
     * @param nodeCount    N.
     * @return file length.
     */
    public static int fileLength(final int localCount, final int processCount, final int nodeCount)
    {
        return jobTableOffset(localCount, processCount) + (nodeCount + 1) * SIZE_OF_INT;
    }

    /**
     * @param localIndex index of the process on its node.
     * @return offset of its slot.
     */
    public static int slotOffset(final int localIndex)
    {
        return HEADER_LENGTH + localIndex * SLOT_LENGTH;
    }

    /**
     * @param aeronDir  the Aeron directory the daemon uses.
     * @param clusterId cluster.
     * @param nodeRank  the daemon's node rank.
     * @return the daemon's process view file.
     */
    public static File fileFor(final String aeronDir, final int clusterId, final int nodeRank)
    {
        return new File(aeronDir, "ringwatch-" + clusterId + "-procs-" + nodeRank + ".dat");
    }

    /**
     * @param clusterId cluster.
     * @param nodeRank  the daemon's node rank.
     * @return the IPC stream id of the daemon's notifications: one stream per daemon on a shared driver.
     */
    public static int notificationStreamId(final int clusterId, final int nodeRank)
    {
        return 0x4000_0000 + Math.floorMod(clusterId, 1024) * (1 << 18) + nodeRank;
    }
}
