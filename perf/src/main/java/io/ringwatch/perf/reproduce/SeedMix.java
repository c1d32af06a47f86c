package io.ringwatch.perf.reproduce;

/**
 * Derives independent seeds from one root seed, so an experiment's runs are reproducible one by one.
 */
public final class SeedMix
{
    private SeedMix()
    {
    }

    /**
     * A bijective 64-bit finaliser (the SplitMix64 one): nearby inputs give unrelated outputs.
     *
     * @param value input.
     * @return mixed value.
     */
    public static long mix(final long value)
    {
        long z = value + 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /**
     * @param experimentSeed seed of the experiment.
     * @param point          index of the parameter point (e.g. the n being simulated).
     * @param run            index of the run at that point.
     * @return the seed of that run.
     */
    public static long forRun(final long experimentSeed, final int point, final int run)
    {
        return mix(mix(experimentSeed + point) + run);
    }
}
