package io.ringwatch.perf.reproduce;

import java.nio.file.Path;

/**
 * What one {@code reproduce} invocation does.
 *
 * @param outDir      where CSVs, PNGs and REPORT.md go; created if missing.
 * @param quick       smaller n and fewer runs, for CI (under a minute in total).
 * @param seed        root seed; each experiment and run derives its own from it.
 * @param commandLine the command line as typed, recorded in every CSV header.
 */
public record ReproduceOptions(Path outDir, boolean quick, long seed, String commandLine)
{
    /** Root seed when none is given. */
    public static final long DEFAULT_SEED = 20170412L;

    /**
     * @param salt distinguishes experiments so they never share random streams.
     * @return the seed of one experiment.
     */
    public long seedFor(final String salt)
    {
        return SeedMix.mix(seed ^ salt.hashCode() * 0x9E37_79B9_7F4A_7C15L);
    }
}
