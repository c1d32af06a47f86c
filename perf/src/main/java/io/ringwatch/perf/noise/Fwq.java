package io.ringwatch.perf.noise;



/**
 * The fixed work quantum of the FWQ noise probe: the same integer work every time (a 64-bit LCG step folded into
 * an accumulator), so any repetition that takes longer than the others was interrupted or slowed by something else
 * on its core. No memory traffic beyond registers, no allocation.
 */
final class Fwq
{
    private Fwq()
    {
    }

    /**
     * @param iterations LCG steps.
     * @param seed       starting state, so the JIT cannot fold the loop.
     * @return the accumulator, to be consumed by the caller.
     */
    static long quantum(final int iterations, final long seed)
    {
        long x = seed;
        long acc = 0;
        for (int i = 0; i < iterations; i++)
        {
            x = x * 6364136223846793005L + 1442695040888963407L;
            acc ^= x >>> 29;
        }
        return acc;
    }
}
