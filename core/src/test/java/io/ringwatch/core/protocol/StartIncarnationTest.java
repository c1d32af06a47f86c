package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartIncarnationTest
{
    private static final long NOW_MS = 1_795_000_000_000L;
    private static final long FLOOR = NOW_MS << StartIncarnation.CLOCK_SHIFT;

    @Test
    void shouldStartAboveEveryEarlierLifeAndTheClock()
    {
        assertTrue(FLOOR > Integer.MAX_VALUE, "2026's floor is past 31 bits");
        assertEquals(FLOOR, StartIncarnation.next(0, NOW_MS), "first start: the clock");
        assertEquals(FLOOR, StartIncarnation.next(4_194_303, NOW_MS), "after a life under an old pid");
        assertEquals(FLOOR + 1, StartIncarnation.next(FLOOR, NOW_MS), "two starts within one millisecond");
        assertEquals(1, StartIncarnation.next(0, -5), "a clock before the epoch counts as 0");
    }

    @Test
    void shouldGrowWhenTheClockIsSteppedBack()
    {
        long last = 0;
        long clockMs = NOW_MS;
        for (int start = 0; start < 10; start++)
        {
            final long next = StartIncarnation.next(last, clockMs);
            assertTrue(next > last, "start " + start + ": " + next + " after " + last);
            last = next;
            clockMs -= 3_600_000; // an hour back each start
        }
        assertEquals(FLOOR + 9, last, "the record carries it once the clock falls behind");
    }

    @Test
    void shouldRefuseWhereNoGreaterIncarnationExists()
    {
        assertThrows(IllegalArgumentException.class, () -> StartIncarnation.next(Long.MAX_VALUE, NOW_MS));
        assertThrows(IllegalArgumentException.class, () -> StartIncarnation.next(-1, NOW_MS));
        assertThrows(IllegalArgumentException.class, () -> StartIncarnation.next(0, Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, StartIncarnation.next(Long.MAX_VALUE - 1, NOW_MS), "the last one, no wrap");
    }
}
