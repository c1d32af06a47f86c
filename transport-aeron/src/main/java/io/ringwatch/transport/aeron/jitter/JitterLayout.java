package io.ringwatch.transport.aeron.jitter;

import java.io.File;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Layout of a node's jitter file: three log-linear histograms the agent thread records into and any local process
 * reads while the node runs (or after it died). All fields little-endian; counts only grow, so a reader takes a
 * snapshot before and after an interval and subtracts.
 * <pre>
 *   Header (64 bytes)
 *     0  magic int32            4  version int32
 *     8  pid int64
 *    16  clusterId int32       20  rank int32
 *    24  heartbeatPeriodNs int64
 *    32  bucketCount int32     36  subBucketBits int32
 *    40  reserved up to 64
 *   Histogram 0: emission error, ns a heartbeat went out after its scheduled time
 *   Histogram 1: duty-cycle length, ns from the start to the end of one doWork()
 *   Histogram 2: idle gap, ns from the end of a duty cycle that found no work to the start of the next (the idle
 *                strategy's sleep, yield or spin): a gap of {@link #WAKE_UP_MIN_NS} or more is one wake-up from sleep
 *   each: totalCount int64, maxValue int64, then bucketCount x int64 counts (see {@link LogLinearBuckets})
 * </pre>
 * Counts are plain stores by the single writer, the total a release store after its bucket: a reader that loads
 * the total with acquire sees at least that many counts in the buckets.
 */
public final class JitterLayout
{
    /** 'RWJT'. */
    public static final int MAGIC = 0x544A5752;
    /** Layout version. */
    public static final int VERSION = 2;

    /** Histogram of heartbeat emission error. */
    public static final int EMISSION_ERROR = 0;
    /** Histogram of duty-cycle lengths. */
    public static final int DUTY_CYCLE = 1;
    /** Histogram of idle gaps between duty cycles. */
    public static final int IDLE_GAP = 2;
    /** Histograms in a file. */
    public static final int HISTOGRAMS = 3;
    /**
     * An idle gap this long or longer counts as a wake-up from sleep: the deadline strategy's shortest sleep; a spin
     * or a yield is far shorter, a descheduled spinner's gap is counted too (it lost its core as a sleeper does).
     */
    public static final long WAKE_UP_MIN_NS = 20_000;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_INT;
    public static final int PID_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int CLUSTER_ID_OFFSET = PID_OFFSET + SIZE_OF_LONG;
    public static final int RANK_OFFSET = CLUSTER_ID_OFFSET + SIZE_OF_INT;
    public static final int HEARTBEAT_PERIOD_OFFSET = RANK_OFFSET + SIZE_OF_INT;
    public static final int BUCKET_COUNT_OFFSET = HEARTBEAT_PERIOD_OFFSET + SIZE_OF_LONG;
    public static final int SUB_BUCKET_BITS_OFFSET = BUCKET_COUNT_OFFSET + SIZE_OF_INT;
    public static final int HEADER_LENGTH = 64;

    public static final int TOTAL_OFFSET = 0;
    public static final int MAX_OFFSET = TOTAL_OFFSET + SIZE_OF_LONG;
    public static final int COUNTS_OFFSET = MAX_OFFSET + SIZE_OF_LONG;

    private JitterLayout()
    {
    }

    /**
     * @param bucketCount buckets per histogram.
     * @return bytes of one histogram: total, maximum and counts.
     */
    public static int histogramLength(final int bucketCount)
    {
        return COUNTS_OFFSET + bucketCount * SIZE_OF_LONG;
    }

    /**
     * @param histogram   {@link #EMISSION_ERROR}, {@link #DUTY_CYCLE} or {@link #IDLE_GAP}.
     * @param bucketCount buckets per histogram.
     * @return where that histogram starts in the file.
     */
    public static int histogramOffset(final int histogram, final int bucketCount)
    {
        return HEADER_LENGTH + histogram * histogramLength(bucketCount);
    }

    /**
     * @param bucketCount buckets per histogram.
     * @return bytes of a whole file.
     */
    public static int fileLength(final int bucketCount)
    {
        return HEADER_LENGTH + HISTOGRAMS * histogramLength(bucketCount);
    }

    /**
     * @param aeronDir  the node's Aeron directory, where its view file also lives.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the node's jitter file.
     */
    public static File fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        return new File(aeronDir, "ringwatch-jitter-" + clusterId + "-" + rank + ".dat");
    }
}
