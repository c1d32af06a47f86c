package io.ringwatch.transport.aeron.launch;

import java.time.Instant;

/**
 * A span a shell timed with {@code $EPOCHREALTIME}, moved onto {@link System#nanoTime()}'s clock. A fault's edges
 * are taken inside the shell that makes them, so no process start lies between them; the JVM learns of the end only
 * once the shell, {@code ip netns exec} and the JVM's reader have run, which took tens of milliseconds at load 38.
 * Stamping the end "now" moved the whole span that much later and made a declaration δ after a cut look early.
 *
 * @param startNs the first edge on the {@code System.nanoTime()} clock.
 * @param endNs   the second edge on that clock.
 */
public record ShellSpan(long startNs, long endNs)
{
    /**
     * @param startEpochSeconds the shell's {@code $EPOCHREALTIME} at the first edge (seconds, a decimal point).
     * @param endEpochSeconds   the same at the second edge.
     * @return the span on the monotonic clock, read against the wall clock just now (the two drift by parts per
     * million at most over a fault's seconds).
     */
    public static ShellSpan of(final String startEpochSeconds, final String endEpochSeconds)
    {
        final Instant now = Instant.now();
        final long monoNow = System.nanoTime();
        final long wallNowNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        final long offsetNs = wallNowNs - monoNow;
        return new ShellSpan(epochNanos(startEpochSeconds) - offsetNs, epochNanos(endEpochSeconds) - offsetNs);
    }

    /**
     * @return the length in whole milliseconds, rounded.
     */
    public long millis()
    {
        return Math.round((endNs - startNs) / 1e6);
    }

    private static long epochNanos(final String epochSeconds)
    {
        // "1764331234.567890": parse the two halves, a double loses the microseconds at today's epoch
        final int dot = epochSeconds.indexOf('.');
        if (dot < 0)
        {
            return Long.parseLong(epochSeconds.trim()) * 1_000_000_000L;
        }
        final long seconds = Long.parseLong(epochSeconds.substring(0, dot));
        final String fraction = (epochSeconds.substring(dot + 1).trim() + "000000000").substring(0, 9);
        return seconds * 1_000_000_000L + Long.parseLong(fraction);
    }
}
