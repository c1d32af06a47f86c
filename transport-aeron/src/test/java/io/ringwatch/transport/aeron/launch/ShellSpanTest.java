package io.ringwatch.transport.aeron.launch;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShellSpanTest
{
    @Test
    void shouldKeepTheMicrosecondsOfTheShellsClock()
    {
        final ShellSpan span = ShellSpan.of("1764331234.500001", "1764331234.750003");
        assertEquals(250_002_000L, span.endNs() - span.startNs());
        assertEquals(250, span.millis());
    }

    @Test
    void shouldPutAWallClockInstantOfNowAtNowOnTheMonotonicClock()
    {
        final Instant now = Instant.now();
        final long beforeNs = System.nanoTime();
        final String stamp = now.getEpochSecond() + "." + String.format("%09d", now.getNano()).substring(0, 6);
        final ShellSpan span = ShellSpan.of(stamp, stamp);
        final long afterNs = System.nanoTime();
        // the stamp was taken just before beforeNs; 5 ms of leeway for a descheduled test thread
        assertTrue(span.startNs() <= afterNs && span.startNs() >= beforeNs - 5_000_000L,
            span + " against [" + beforeNs + ", " + afterNs + "]");
    }
}
