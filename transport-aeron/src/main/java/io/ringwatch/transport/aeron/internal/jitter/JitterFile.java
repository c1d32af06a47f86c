package io.ringwatch.transport.aeron.internal.jitter;

import io.ringwatch.transport.aeron.jitter.JitterLayout;
import io.ringwatch.transport.aeron.jitter.LogLinearBuckets;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;

import static io.ringwatch.transport.aeron.jitter.JitterLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Writer side of a node's jitter file ({@link JitterLayout}), used by the agent thread only. No allocation after
 * construction: a record is a bucket index, two plain stores and a release store.
 */
public final class JitterFile implements AutoCloseable
{
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int bucketCount;
    private final int bits = LogLinearBuckets.SUB_BUCKET_BITS;
    private final long[] totals = new long[HISTOGRAMS];
    private final long[] maxima = new long[HISTOGRAMS];
    private boolean closed;

    /**
     * Create (or replace) the file and write its header.
     *
     * @param file              where.
     * @param clusterId         cluster.
     * @param rank              node.
     * @param heartbeatPeriodNs η, so readers can judge the errors against it.
     */
    public JitterFile(final File file, final int clusterId, final int rank, final long heartbeatPeriodNs)
    {
        if (file.exists() && !file.delete())
        {
            throw new IllegalStateException("cannot replace stale jitter file " + file);
        }
        this.bucketCount = LogLinearBuckets.bucketCount(bits);
        this.mapped = IoUtil.mapNewFile(file, fileLength(bucketCount));
        this.buffer = new UnsafeBuffer(mapped);
        buffer.putLong(PID_OFFSET, ProcessHandle.current().pid(), LITTLE_ENDIAN);
        buffer.putInt(CLUSTER_ID_OFFSET, clusterId, LITTLE_ENDIAN);
        buffer.putInt(RANK_OFFSET, rank, LITTLE_ENDIAN);
        buffer.putLong(HEARTBEAT_PERIOD_OFFSET, heartbeatPeriodNs, LITTLE_ENDIAN);
        buffer.putInt(BUCKET_COUNT_OFFSET, bucketCount, LITTLE_ENDIAN);
        buffer.putInt(SUB_BUCKET_BITS_OFFSET, bits, LITTLE_ENDIAN);
        buffer.putInt(VERSION_OFFSET, VERSION, LITTLE_ENDIAN);
        // magic last: a reader that sees it sees a complete header
        buffer.putIntRelease(MAGIC_OFFSET, MAGIC);
    }

    /**
     * @param histogram {@link JitterLayout#EMISSION_ERROR} or {@link JitterLayout#DUTY_CYCLE}.
     * @param valueNs   the value.
     */
    public void record(final int histogram, final long valueNs)
    {
        final int base = histogramOffset(histogram, bucketCount);
        final int countOffset = base + COUNTS_OFFSET + LogLinearBuckets.index(valueNs, bits) * Long.BYTES;
        buffer.putLong(countOffset, buffer.getLong(countOffset, LITTLE_ENDIAN) + 1, LITTLE_ENDIAN);
        if (valueNs > maxima[histogram])
        {
            maxima[histogram] = valueNs;
            buffer.putLong(base + MAX_OFFSET, valueNs, LITTLE_ENDIAN);
        }
        buffer.putLongRelease(base + TOTAL_OFFSET, ++totals[histogram]);
    }

    /**
     * Unmap; the file stays for readers. Idempotent; the agent must not record afterwards.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        IoUtil.unmap(mapped);
    }
}
