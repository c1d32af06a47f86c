package io.ringwatch.transport.aeron.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacedIdleStrategyTest
{
    @Test
    void shouldRejectANonPositivePeriod()
    {
        assertThrows(IllegalArgumentException.class, () -> new PacedIdleStrategy(0));
        assertThrows(IllegalArgumentException.class, () -> new PacedIdleStrategy(-5));
    }

    @Test
    void shouldSleepAfterBusyCyclesToo()
    {
        final PacedIdleStrategy idle = new PacedIdleStrategy(1_000_000);
        final long start = System.nanoTime();
        int cycles = 0;
        // a backoff strategy would return at once for every busy cycle; pacing sleeps after each
        while (System.nanoTime() - start < 50_000_000L)
        {
            idle.idle(1);
            cycles++;
        }
        // parkNanos may wake early now and then, never a hundred times over fifty milliseconds at 1 ms a sleep
        assertTrue(cycles < 1_000, "cycles in 50 ms: " + cycles);
        assertEquals(PacedIdleStrategy.ALIAS, idle.alias());
    }
}
