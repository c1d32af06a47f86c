package io.ringwatch.core.protocol;

/**
 * The incarnation a node starts under, members and joiners alike; the runtime supplies what only it can read (the
 * last incarnation it recorded for the rank, the wall clock) and keeps the record.
 * <p>
 * {@code next = max(last + 1, epochMillis << 16)}: the record makes every start greater than the last one recorded,
 * whatever the clock does (stepped back, two starts within one millisecond); the clock, in milliseconds shifted
 * left 16 bits (room for 65,536 starts per millisecond until the year 6429), makes it greater than every earlier
 * life when the record is lost and the clock is not behind. Only the loss of both can repeat a value.
 */
public final class StartIncarnation
{
    /** Bits below the milliseconds of the clock's floor. */
    public static final int CLOCK_SHIFT = 16;

    private static final long MAX_EPOCH_MILLIS = Long.MAX_VALUE >>> CLOCK_SHIFT;

    private StartIncarnation()
    {
    }

    /**
     * @param lastRecorded the last incarnation recorded for the rank, 0 if none.
     * @param epochMillis  the wall clock: milliseconds since the epoch now (a negative one counts as 0).
     * @return {@code max(last + 1, epochMillis << 16)}.
     * @throws IllegalArgumentException if the record is negative or at {@link Long#MAX_VALUE}, or the clock is past
     *                                  the year 6429: no greater incarnation exists.
     */
    public static long next(final long lastRecorded, final long epochMillis)
    {
        if (lastRecorded < 0 || lastRecorded == Long.MAX_VALUE)
        {
            throw new IllegalArgumentException("no incarnation after " + lastRecorded);
        }
        if (epochMillis > MAX_EPOCH_MILLIS)
        {
            throw new IllegalArgumentException("clock past the incarnation range: " + epochMillis + " ms");
        }
        return Math.max(lastRecorded + 1, Math.max(0, epochMillis) << CLOCK_SHIFT);
    }
}
