package io.ringwatch.core.protocol;

/**
 * The candidate run id a driver draws for its node ({@link DetectorNode#runCandidate}): time-ordered, so a later run
 * of the cluster draws higher candidates than an earlier one as long as clocks do not step back across the restart,
 * and random below, so seeds started in the same millisecond rarely draw the same. Pure: the driver reads the clock
 * and draws the bits.
 */
public final class RunIds
{
    private RunIds()
    {
    }

    /**
     * @param epochMillis milliseconds since the epoch when the process started.
     * @param randomBits  random; the low 16 bits are used, and never all zero.
     * @return {@code epochMillis << 16 | bits}, positive and never 0 (the unbound run).
     */
    public static long candidate(final long epochMillis, final int randomBits)
    {
        final int bits = randomBits & 0xFFFF;
        return (epochMillis & 0x7FFF_FFFF_FFFFL) << 16 | (bits == 0 ? 1 : bits);
    }
}
