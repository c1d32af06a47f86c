package io.ringwatch.transport.aeron.view;

import java.io.File;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of a node's membership journal ({@code ringwatch-<clusterId>-journal-<rank>.dat}, beside its view file): a
 * ring of fixed-length records, one per membership event the node saw, kept across restarts of the rank so the
 * history of one rank reads as one sequence. Little-endian.
 * <pre>
 *   header (64 bytes): magic, version, cluster id, cluster size, rank, capacity (records), writer pid (long),
 *                      records appended so far (long, stored with release once a record is complete)
 *   records (capacity x {@value #RECORD_LENGTH} bytes), record i at slot i % capacity:
 *     monotonic ns (System.nanoTime: CLOCK_MONOTONIC, one clock for every process of a host), wall-clock ms,
 *     sequence (i + 1, stored last; -1 while being written), event, rank, incarnation, cause, reporter, writer pid
 * </pre>
 */
public final class JournalLayout
{
    /** "RWJL". */
    public static final int MAGIC = 0x4c4a5752;
    /** Layout version: 2 made the record's incarnation int64. */
    public static final int VERSION = 2;
    /** Records a journal keeps: the last this many events; about 112 KiB. */
    public static final int DEFAULT_CAPACITY = 2048;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_INT;
    public static final int CLUSTER_ID_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int CLUSTER_SIZE_OFFSET = CLUSTER_ID_OFFSET + SIZE_OF_INT;
    public static final int RANK_OFFSET = CLUSTER_SIZE_OFFSET + SIZE_OF_INT;
    public static final int CAPACITY_OFFSET = RANK_OFFSET + SIZE_OF_INT;
    public static final int PID_OFFSET = CAPACITY_OFFSET + SIZE_OF_INT;
    public static final int APPENDED_OFFSET = PID_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH = 64;

    public static final int RECORD_MONO_NS_OFFSET = 0;
    public static final int RECORD_WALL_MS_OFFSET = RECORD_MONO_NS_OFFSET + SIZE_OF_LONG;
    public static final int RECORD_SEQUENCE_OFFSET = RECORD_WALL_MS_OFFSET + SIZE_OF_LONG;
    public static final int RECORD_EVENT_OFFSET = RECORD_SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int RECORD_RANK_OFFSET = RECORD_EVENT_OFFSET + SIZE_OF_INT;
    public static final int RECORD_INCARNATION_OFFSET = RECORD_RANK_OFFSET + SIZE_OF_INT;
    public static final int RECORD_CAUSE_OFFSET = RECORD_INCARNATION_OFFSET + SIZE_OF_LONG;
    public static final int RECORD_REPORTER_OFFSET = RECORD_CAUSE_OFFSET + SIZE_OF_INT;
    public static final int RECORD_PID_OFFSET = RECORD_REPORTER_OFFSET + SIZE_OF_INT;
    public static final int RECORD_LENGTH = 56;

    /** Cause of a {@link Event#STARTED} record: the process starts as a seed of the cluster's first boot. */
    public static final int STARTED_AS_SEED = 0;
    /** Cause of a {@link Event#STARTED} record: the process starts by joining. */
    public static final int STARTED_TO_JOIN = 1;

    private JournalLayout()
    {
    }

    /**
     * @param capacity records.
     * @return the file's length.
     */
    public static long fileLength(final int capacity)
    {
        return HEADER_LENGTH + (long)capacity * RECORD_LENGTH;
    }

    /**
     * @param capacity records.
     * @param index    record number, from 0.
     * @return where its slot starts.
     */
    public static int recordOffset(final int capacity, final long index)
    {
        return HEADER_LENGTH + (int)(index % capacity) * RECORD_LENGTH;
    }

    /**
     * @param aeronDir  the node's Aeron directory.
     * @param clusterId cluster.
     * @param rank      node.
     * @return its journal file.
     */
    public static File fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        return new File(aeronDir, "ringwatch-" + clusterId + "-journal-" + rank + ".dat");
    }

    /**
     * What a record says happened. Codes are stable: journals outlive the process that wrote them.
     */
    public enum Event
    {
        /** This node's process started (rank = itself); cause {@link #STARTED_AS_SEED} or {@link #STARTED_TO_JOIN}. */
        STARTED(1),
        /** This node's process started by joining under the record's incarnation. */
        JOINING(2),
        /** A rank was admitted under the record's incarnation (this node's own admission too). */
        JOINED(3),
        /** A rank entered this node's dead set; cause is its failure cause, reporter who told. */
        DEAD(4),
        /** This node stopped taking part; cause is its exclusion cause. */
        EXCLUDED(5),
        /** This node's process closed its files; cause is the view file's stop cause. */
        STOPPED(6);

        private final int code;

        Event(final int code)
        {
            this.code = code;
        }

        /**
         * @return the stable code.
         */
        public int code()
        {
            return code;
        }

        /**
         * @param code a code from {@link #code()}.
         * @return the event, or null for a code this version does not know.
         */
        public static Event ofCode(final int code)
        {
            for (final Event event : values())
            {
                if (event.code == code)
                {
                    return event;
                }
            }
            return null;
        }
    }
}
