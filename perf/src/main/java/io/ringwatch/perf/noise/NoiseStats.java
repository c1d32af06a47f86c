package io.ringwatch.perf.noise;

import io.ringwatch.transport.aeron.jitter.JitterSnapshot;
import org.HdrHistogram.Histogram;

/**
 * The statistics of the noise benchmark: histograms of nanoseconds, and the mean of per-pair ratios with a
 * Student-t 95 % confidence interval.
 */
public final class NoiseStats
{
    /** t(0.975, df) for df = 1..30. */
    private static final double[] T975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

    private NoiseStats()
    {
    }

    /**
     * A mean and its 95 % confidence interval.
     *
     * @param mean      sample mean.
     * @param halfWidth half the interval's width; NaN with fewer than 2 samples.
     * @param n         samples.
     */
    public record Interval(double mean, double halfWidth, int n)
    {
        /**
         * @return lower end.
         */
        public double low()
        {
            return mean - halfWidth;
        }

        /**
         * @return upper end.
         */
        public double high()
        {
            return mean + halfWidth;
        }

        /**
         * @return true when the interval is known and excludes 0: the effect was measured.
         */
        public boolean measurable()
        {
            return n >= 2 && !Double.isNaN(halfWidth) && (low() > 0 || high() < 0);
        }
    }

    /**
     * @param df degrees of freedom, at least 1.
     * @return the 97.5 % quantile of Student's t.
     */
    public static double t975(final int df)
    {
        if (df < 1)
        {
            throw new IllegalArgumentException("df must be >= 1: " + df);
        }
        // beyond the table, the first terms of the expansion in 1/df are within 0.001
        return df <= T975.length ? T975[df - 1] : 1.95996 + 2.3722 / df + 2.8224 / ((double)df * df);
    }

    /**
     * @param samples values, one per pair.
     * @return their mean with a 95 % confidence interval.
     */
    public static Interval meanWithInterval(final double[] samples)
    {
        final int n = samples.length;
        if (n == 0)
        {
            return new Interval(Double.NaN, Double.NaN, 0);
        }
        double sum = 0;
        for (final double s : samples)
        {
            sum += s;
        }
        final double mean = sum / n;
        if (n == 1)
        {
            return new Interval(mean, Double.NaN, 1);
        }
        double squares = 0;
        for (final double s : samples)
        {
            squares += (s - mean) * (s - mean);
        }
        final double sd = Math.sqrt(squares / (n - 1));
        return new Interval(mean, t975(n - 1) * sd / Math.sqrt(n), n);
    }

    /**
     * @return a histogram of ns from 1 ns to an hour, 3 significant digits, which never resizes.
     */
    static Histogram newHistogram()
    {
        return new Histogram(1, 3_600_000_000_000L, 3);
    }

    /**
     * @param into     histogram to add to.
     * @param snapshot a jitter file's counts; each bucket is added at its upper bound (never above the max), so
     *                 percentiles err high by at most the bucket width (1.6 %).
     */
    static void add(final Histogram into, final JitterSnapshot snapshot)
    {
        for (int i = 0; i < snapshot.bucketCount(); i++)
        {
            final long count = snapshot.count(i);
            if (count > 0)
            {
                final long value = Math.min(snapshot.highestValue(i), Math.max(snapshot.maxNs(), snapshot.lowestValue(i)));
                into.recordValueWithCount(Math.max(1, Math.min(value, into.getHighestTrackableValue())), count);
            }
        }
    }

    /**
     * @param h         a histogram.
     * @param threshold a value.
     * @return how many recorded values exceed it.
     */
    static long countAbove(final Histogram h, final long threshold)
    {
        return h.getTotalCount() - h.getCountBetweenValues(0, threshold);
    }
}
