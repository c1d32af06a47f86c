package io.ringwatch.core.protocol;

/**
 * SplitMix64's finalizer (Steele, Lea and Flood 2014): a bijection on 64 bits that moves about half the output bits
 * for every input bit. For hashing small keys into 64 well-spread bits without allocating: view digests, join nonces.
 */
final class SplitMix
{
    private SplitMix()
    {
    }

    /**
     * @param value any 64 bits.
     * @return their mix; distinct inputs give distinct outputs.
     */
    static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
