package io.ringwatch.perf.reproduce;

import java.nio.file.Path;

/**
 * What one {@code reproduce} invocation does.
 *
 * @param outDir      where CSVs, PNGs and REPORT.md go; created if missing.
 * @param quick       smaller n and fewer runs, for CI (under a minute in total).
 * @param seed        root seed; each experiment and run derives its own from it.
 * @param commandLine the command line as typed, recorded in every CSV header.
 * @param maxNodes    simulated cluster sizes above this are skipped (the analytic experiments ignore it).
 */
public record ReproduceOptions(Path outDir, boolean quick, long seed, String commandLine, int maxNodes)
{
    /** Root seed when none is given. */
    public static final long DEFAULT_SEED = 20170412L;

    /**
     * @param sizes candidate cluster sizes, ascending.
     * @return those not above {@link #maxNodes()}; at least the smallest, so an experiment always has a point.
     */
    public int[] simulatedSizes(final int[] sizes)
    {
        final int[] kept = java.util.Arrays.stream(sizes).filter((n) -> n <= maxNodes).toArray();
        return kept.length > 0 ? kept : new int[]{sizes[0]};
    }

    /**
     * @param salt distinguishes experiments so they never share random streams.
     * @return the seed of one experiment.
     */
    public long seedFor(final String salt)
    {
        return SeedMix.mix(seed ^ salt.hashCode() * 0x9E37_79B9_7F4A_7C15L);
    }
}
