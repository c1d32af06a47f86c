package io.ringwatch.transport.aeron.jitter;

import java.util.Arrays;

/**
 * A copy of one histogram of a jitter file at one moment, or the difference of two.
 */
public final class JitterSnapshot
{
    private final int bits;
    private final long[] counts;
    private final long total;
    private final long maxNs;

    /**
     * @param bits   sub-bucket bits.
     * @param counts per-bucket counts (kept, not copied).
     * @param total  values recorded.
     * @param maxNs  largest value recorded (over the file's whole life, also in a difference).
     */
    public JitterSnapshot(final int bits, final long[] counts, final long total, final long maxNs)
    {
        this.bits = bits;
        this.counts = counts;
        this.total = total;
        this.maxNs = maxNs;
    }

    /**
     * @param earlier a snapshot of the same histogram taken before this one.
     * @return what was recorded between the two; its max is the largest bucket's upper bound seen in between
     * (the exact max is only known over the file's life).
     */
    public JitterSnapshot minus(final JitterSnapshot earlier)
    {
        final long[] diff = new long[counts.length];
        long sum = 0;
        int highest = -1;
        for (int i = 0; i < counts.length; i++)
        {
            diff[i] = Math.max(0, counts[i] - earlier.counts[i]);
            sum += diff[i];
            highest = diff[i] > 0 ? i : highest;
        }
        final long max = highest < 0 ? 0 : Math.min(maxNs, LogLinearBuckets.highestValue(highest, bits));
        return new JitterSnapshot(bits, diff, sum, max);
    }

    /**
     * @return values recorded.
     */
    public long totalCount()
    {
        return total;
    }

    /**
     * @return largest value recorded, ns.
     */
    public long maxNs()
    {
        return maxNs;
    }

    /**
     * @return buckets.
     */
    public int bucketCount()
    {
        return counts.length;
    }

    /**
     * @param index bucket.
     * @return its count.
     */
    public long count(final int index)
    {
        return counts[index];
    }

    /**
     * @param index bucket.
     * @return smallest value it holds, ns.
     */
    public long lowestValue(final int index)
    {
        return LogLinearBuckets.lowestValue(index, bits);
    }

    /**
     * @param index bucket.
     * @return largest value it holds, ns.
     */
    public long highestValue(final int index)
    {
        return LogLinearBuckets.highestValue(index, bits);
    }

    /**
     * @param percentile 0..100.
     * @return the upper bound of the bucket holding that percentile (never above the max), 0 when empty.
     */
    public long valueAtPercentile(final double percentile)
    {
        if (total == 0)
        {
            return 0;
        }
        final long rank = Math.max(1, (long)Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++)
        {
            seen += counts[i];
            if (seen >= rank)
            {
                return Math.min(maxNs, highestValue(i));
            }
        }
        return maxNs;
    }

    public String toString()
    {
        return "JitterSnapshot{total=" + total + ", p50=" + valueAtPercentile(50) + ", p99=" +
            valueAtPercentile(99) + ", max=" + maxNs + ", nonEmpty=" + Arrays.stream(counts).filter(c -> c > 0).count() +
            '}';
    }
}
