package io.ringwatch.transport.aeron.jitter;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;

import static io.ringwatch.transport.aeron.jitter.JitterLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Reads a node's jitter file from any local process, while the node runs or after it stopped.
 */
public final class JitterReader implements AutoCloseable
{
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int bucketCount;
    private final int bits;

    /**
     * @param file a jitter file.
     * @throws IllegalStateException if it is missing, short, or not a jitter file of this version.
     */
    public JitterReader(final File file)
    {
        if (!file.isFile() || file.length() < HEADER_LENGTH)
        {
            throw new IllegalStateException("no jitter file at " + file);
        }
        this.mapped = IoUtil.mapExistingFile(file, "jitter");
        this.buffer = new UnsafeBuffer(mapped);
        if (buffer.getIntVolatile(MAGIC_OFFSET) != MAGIC || buffer.getInt(VERSION_OFFSET, LITTLE_ENDIAN) != VERSION)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException("not a version " + VERSION + " jitter file (or still being created): " +
                file);
        }
        this.bucketCount = buffer.getInt(BUCKET_COUNT_OFFSET, LITTLE_ENDIAN);
        this.bits = buffer.getInt(SUB_BUCKET_BITS_OFFSET, LITTLE_ENDIAN);
        if (bucketCount != LogLinearBuckets.bucketCount(bits) || buffer.capacity() < fileLength(bucketCount))
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException("jitter file with an inconsistent size: " + file);
        }
    }

    /**
     * @return η of the node that writes it.
     */
    public long heartbeatPeriodNs()
    {
        return buffer.getLong(HEARTBEAT_PERIOD_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * @return pid of the node that writes it.
     */
    public long pid()
    {
        return buffer.getLong(PID_OFFSET, LITTLE_ENDIAN);
    }

    /**
     * @param histogram {@link JitterLayout#EMISSION_ERROR} or {@link JitterLayout#DUTY_CYCLE}.
     * @return a copy of it now.
     */
    public JitterSnapshot snapshot(final int histogram)
    {
        final int base = histogramOffset(histogram, bucketCount);
        buffer.getLongVolatile(base + TOTAL_OFFSET);  // acquire: the buckets hold at least that many
        final long[] counts = new long[bucketCount];
        long total = 0;
        for (int i = 0; i < bucketCount; i++)
        {
            counts[i] = buffer.getLong(base + COUNTS_OFFSET + i * Long.BYTES, LITTLE_ENDIAN);
            total += counts[i];
        }
        return new JitterSnapshot(bits, counts, total, buffer.getLongVolatile(base + MAX_OFFSET));
    }

    /**
     * Unmap.
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
