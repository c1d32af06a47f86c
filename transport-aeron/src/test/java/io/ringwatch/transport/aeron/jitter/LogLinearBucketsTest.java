package io.ringwatch.transport.aeron.jitter;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogLinearBucketsTest
{
    private static final int BITS = LogLinearBuckets.SUB_BUCKET_BITS;

    @Test
    void shouldTileTheValuesWithoutGapsOrOverlaps()
    {
        final int buckets = LogLinearBuckets.bucketCount(BITS);
        assertEquals(0, LogLinearBuckets.lowestValue(0, BITS));
        for (int i = 0; i + 1 < buckets; i++)
        {
            assertEquals(LogLinearBuckets.highestValue(i, BITS) + 1, LogLinearBuckets.lowestValue(i + 1, BITS), "at " + i);
            assertEquals(i, LogLinearBuckets.index(LogLinearBuckets.lowestValue(i, BITS), BITS));
            assertEquals(i, LogLinearBuckets.index(LogLinearBuckets.highestValue(i, BITS), BITS));
        }
        assertEquals(buckets - 1, LogLinearBuckets.index(Long.MAX_VALUE, BITS));
        assertEquals(0, LogLinearBuckets.index(-5, BITS));
    }

    @Test
    void shouldKeepEveryValueWithinTwoPercentOfItsBucket()
    {
        final long seed = 20_241_123L;
        final Random random = new Random(seed);
        for (int i = 0; i < 100_000; i++)
        {
            final long value = (long)Math.pow(2, random.nextDouble() * 39.9);
            final int index = LogLinearBuckets.index(value, BITS);
            final long low = LogLinearBuckets.lowestValue(index, BITS);
            final long high = LogLinearBuckets.highestValue(index, BITS);
            assertTrue(low <= value && value <= high, "seed " + seed + " value " + value);
            assertTrue(high - low <= Math.max(0, value / 50), "seed " + seed + " value " + value + " in " + low + ".." + high);
        }
    }
}
