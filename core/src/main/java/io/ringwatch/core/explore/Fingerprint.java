package io.ringwatch.core.explore;

/**
 * A 128-bit hash fed one long at a time, two independent lanes so that a collision (which would wrongly prune a
 * state) needs both to collide.
 */
final class Fingerprint
{
    private long low;
    private long high;

    Fingerprint reset()
    {
        low = 0x9E37_79B9_7F4A_7C15L;
        high = 0xC2B2_AE3D_27D4_EB4FL;
        return this;
    }

    Fingerprint()
    {
        reset();
    }

    Fingerprint add(final long value)
    {
        low = mix(low ^ value) * 0xFF51_AFD7_ED55_8CCDL;
        high = Long.rotateLeft(high + value * 0x9E37_79B9_7F4A_7C15L, 29) * 0xC4CE_B9FE_1A85_EC53L;
        return this;
    }

    long low()
    {
        return mix(low);
    }

    long high()
    {
        return mix(high ^ low);
    }

    private static long mix(final long z0)
    {
        long z = (z0 ^ (z0 >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
        return z ^ (z >>> 33);
    }
}
