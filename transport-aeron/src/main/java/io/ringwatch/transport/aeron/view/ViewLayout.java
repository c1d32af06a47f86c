package io.ringwatch.transport.aeron.view;

import java.io.File;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of a node's view file, shared by the writer on the agent thread and readers in any local process.
 * All fields little-endian.
 * <pre>
 *   Header (128 bytes)
 *     0  magic int32            4  version int32
 *     8  pid int64
 *    16  clusterId int32       20  clusterSize int32
 *    24  rank int32            28  state int32   (NodeState code: 0 active, 1 excluded, 2 left, 3 joining)
 *    32  sequence int64        seqlock: odd while the writer is inside an update
 *    40  viewEpoch int64       48  deadCount int32   52  excludedBy int32
 *    56  startNs int64         node's nanoTime when it started
 *    64  excludedAtNs int64
 *    72  heartbeatProgress int64   outside the seqlock: release-stored liveness gauge for tools
 *    80  lastProgressNs int64      outside the seqlock
 *    88  exclusionCause int32      ExclusionCause code (1 notice, 2 fenced, 3 left, 4 minority, 5 isolated,
 *                                  6 driver lost), 0 while active
 *    92  stopCause int32           0 running (or a writer that never said), 1 closed, 2 start failed
 *    96  stoppedAtMs int64         wall clock (ms since the epoch) when it stopped, 0 while running
 *   104  pidStartMs int64          wall clock (ms since the epoch) when the writing process started, 0 unknown:
 *                                  with the pid, tells the writer from a later process given the same pid
 *   112  reserved up to 128
 *   Dead bitmap: ceil(N / 64) int64 words, bit r of word r/64 set when rank r is dead
 *   Records: N x 16 bytes {detectedAtNs int64, cause int32 (0 alive, 1 detected, 2 notice, 3 left, 4 joined),
 *            reporter int32}; for a rank that joined, the time this node admitted it and reporter -1
 *   Incarnations: N x int64, the incarnation this node admitted for each rank; 0 (boot) until it rejoins
 * </pre>
 * Timestamps are {@code System.nanoTime()} of the writing process: comparable between processes of one host
 * (one monotonic clock), meaningless across hosts.
 */
public final class ViewLayout
{
    /** 'RWVW'. */
    public static final int MAGIC = 0x57565752;
    /** Layout version: 3 made the incarnations int64. */
    public static final int VERSION = 3;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_INT;
    public static final int PID_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int CLUSTER_ID_OFFSET = PID_OFFSET + SIZE_OF_LONG;
    public static final int CLUSTER_SIZE_OFFSET = CLUSTER_ID_OFFSET + SIZE_OF_INT;
    public static final int RANK_OFFSET = CLUSTER_SIZE_OFFSET + SIZE_OF_INT;
    public static final int STATE_OFFSET = RANK_OFFSET + SIZE_OF_INT;
    public static final int SEQUENCE_OFFSET = STATE_OFFSET + SIZE_OF_INT;
    public static final int VIEW_EPOCH_OFFSET = SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int DEAD_COUNT_OFFSET = VIEW_EPOCH_OFFSET + SIZE_OF_LONG;
    public static final int EXCLUDED_BY_OFFSET = DEAD_COUNT_OFFSET + SIZE_OF_INT;
    public static final int START_NS_OFFSET = EXCLUDED_BY_OFFSET + SIZE_OF_INT;
    public static final int EXCLUDED_AT_NS_OFFSET = START_NS_OFFSET + SIZE_OF_LONG;
    public static final int HEARTBEAT_PROGRESS_OFFSET = EXCLUDED_AT_NS_OFFSET + SIZE_OF_LONG;
    public static final int LAST_PROGRESS_NS_OFFSET = HEARTBEAT_PROGRESS_OFFSET + SIZE_OF_LONG;
    public static final int EXCLUSION_CAUSE_OFFSET = LAST_PROGRESS_NS_OFFSET + SIZE_OF_LONG;
    public static final int STOP_CAUSE_OFFSET = EXCLUSION_CAUSE_OFFSET + SIZE_OF_INT;
    public static final int STOPPED_AT_MS_OFFSET = STOP_CAUSE_OFFSET + SIZE_OF_INT;
    public static final int PID_START_MS_OFFSET = STOPPED_AT_MS_OFFSET + SIZE_OF_LONG;
    /** Bytes of header before the bitmap. */
    public static final int HEADER_LENGTH = 128;

    public static final int RECORD_LENGTH = 16;
    public static final int RECORD_DETECTED_AT_OFFSET = 0;
    public static final int RECORD_CAUSE_OFFSET = RECORD_DETECTED_AT_OFFSET + SIZE_OF_LONG;
    public static final int RECORD_REPORTER_OFFSET = RECORD_CAUSE_OFFSET + SIZE_OF_INT;

    // the record causes are FailureCause codes, spelled as constants for switches; ViewFileTest keeps them equal
    /** Record cause: rank is alive in this view. */
    public static final int CAUSE_NONE = 0;
    /** Record cause: this node detected it. */
    public static final int CAUSE_DETECTED = 1;
    /** Record cause: learned from a notice. */
    public static final int CAUSE_NOTICE = 2;
    /** Record cause: it left gracefully. */
    public static final int CAUSE_LEFT = 3;
    /** Record cause: it rejoined under a new incarnation and is alive in this view. */
    public static final int CAUSE_JOINED = 4;

    /** Stop cause: the node runs, or its writer died without saying (see {@link ViewSnapshot#writerAlive()}). */
    public static final int STOP_NONE = 0;
    /** Stop cause: its process closed it (SIGTERM or SIGINT, the end of a command, an application's close). */
    public static final int STOP_CLOSED = 1;
    /** Stop cause: its start failed after the view file was made (a port in use, a host that does not resolve). */
    public static final int STOP_START_FAILED = 2;

    private ViewLayout()
    {
    }

    public static int bitmapWords(final int clusterSize)
    {
        return (clusterSize + 63) >>> 6;
    }

    public static int recordsOffset(final int clusterSize)
    {
        return HEADER_LENGTH + bitmapWords(clusterSize) * SIZE_OF_LONG;
    }

    public static int recordOffset(final int clusterSize, final int rank)
    {
        return recordsOffset(clusterSize) + rank * RECORD_LENGTH;
    }

    /**
     * @param clusterSize N.
     * @return file length for N ranks.
     */
    public static long fileLength(final int clusterSize)
    {
        return incarnationOffset(clusterSize, clusterSize);
    }

    /**
     * @param clusterSize N.
     * @param rank        a rank.
     * @return offset of the rank's incarnation.
     */
    public static int incarnationOffset(final int clusterSize, final int rank)
    {
        return recordsOffset(clusterSize) + clusterSize * RECORD_LENGTH + rank * SIZE_OF_LONG;
    }

    /**
     * @param aeronDir  directory.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the node's view file.
     */
    public static File fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        return new File(aeronDir, "ringwatch-" + clusterId + "-view-" + rank + ".dat");
    }

    /**
     * @param stopCause a stop cause code.
     * @return its name.
     */
    public static String stopCauseName(final int stopCause)
    {
        switch (stopCause)
        {
            case STOP_NONE: return "RUNNING";
            case STOP_CLOSED: return "CLOSED";
            case STOP_START_FAILED: return "START_FAILED";
            default: return "UNKNOWN(" + stopCause + ")";
        }
    }

    /**
     * @param cause cause code.
     * @return short name.
     */
    public static String causeName(final int cause)
    {
        switch (cause)
        {
            case CAUSE_DETECTED: return "detected";
            case CAUSE_NOTICE: return "notice";
            case CAUSE_LEFT: return "left";
            case CAUSE_JOINED: return "joined";
            default: return "alive";
        }
    }
}
