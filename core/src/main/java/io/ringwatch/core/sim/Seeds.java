package io.ringwatch.core.sim;

/**
 * Seeds of the runs of a batch, derived from one batch seed so any single run can be replayed on its own.
 */
public final class Seeds
{
    private Seeds()
    {
    }

    /**
     * A well-mixed seed for run {@code runIndex} of a batch started with {@code batchSeed}: neighbouring runs
     * and neighbouring batch seeds give unrelated streams.
     *
     * @param batchSeed the batch's seed.
     * @param runIndex  0-based run number.
     * @return the run's seed.
     */
    public static long forRun(final long batchSeed, final int runIndex)
    {
        return mix(mix(batchSeed) + 0x9E37_79B9_7F4A_7C15L * (runIndex + 1L));
    }

    private static long mix(final long value)
    {
        // Stafford's variant 13 of the MurmurHash3 finaliser
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
