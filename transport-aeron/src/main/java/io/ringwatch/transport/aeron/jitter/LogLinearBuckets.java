package io.ringwatch.transport.aeron.jitter;



/**
 * Bucket arithmetic of a log-linear histogram over non-negative longs (nanoseconds): values below
 * {@code 2^(bits+1)} get a bucket each; above, every power of two is split into {@code 2^bits} equal buckets, so a
 * bucket is at most {@code 2^-bits} of its value wide (1.6 % with the 6 bits used here). Values from
 * {@code 2^MAX_EXPONENT} up share the last bucket. The same scheme as HdrHistogram's, without its object, so the
 * counts can live in a memory-mapped file.
 */
public final class LogLinearBuckets
{
    /** Sub-bucket bits used by the jitter file. */
    public static final int SUB_BUCKET_BITS = 6;

    /** Values at or above {@code 2^MAX_EXPONENT} ns (18 minutes) land in the last bucket. */
    public static final int MAX_EXPONENT = 40;

    private LogLinearBuckets()
    {
    }

    /**
     * @param bits sub-bucket bits.
     * @return number of buckets.
     */
    public static int bucketCount(final int bits)
    {
        final int linear = 1 << (bits + 1);
        return linear + (MAX_EXPONENT - bits - 1) * (1 << bits);
    }

    /**
     * @param value a value; negative counts as 0.
     * @param bits  sub-bucket bits.
     * @return its bucket.
     */
    public static int index(final long value, final int bits)
    {
        if (value < (1L << (bits + 1)))
        {
            return value < 0 ? 0 : (int)value;
        }
        final int exponent = 63 - Long.numberOfLeadingZeros(value);
        if (exponent >= MAX_EXPONENT)
        {
            return bucketCount(bits) - 1;
        }
        final int shift = exponent - bits;
        final int sub = (int)(value >>> shift) - (1 << bits);
        return (1 << (bits + 1)) + (exponent - bits - 1) * (1 << bits) + sub;
    }

    /**
     * @param index a bucket.
     * @param bits  sub-bucket bits.
     * @return the smallest value it holds.
     */
    public static long lowestValue(final int index, final int bits)
    {
        final int linear = 1 << (bits + 1);
        if (index < linear)
        {
            return index;
        }
        final int octave = (index - linear) >>> bits;
        final int sub = (index - linear) & ((1 << bits) - 1);
        final int shift = octave + 1;
        return ((long)((1 << bits) + sub)) << shift;
    }

    /**
     * @param index a bucket.
     * @param bits  sub-bucket bits.
     * @return the largest value it holds ({@link Long#MAX_VALUE} for the last).
     */
    public static long highestValue(final int index, final int bits)
    {
        return index == bucketCount(bits) - 1 ? Long.MAX_VALUE : lowestValue(index + 1, bits) - 1;
    }
}
