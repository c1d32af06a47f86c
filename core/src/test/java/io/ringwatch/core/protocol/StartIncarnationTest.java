package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StartIncarnationTest
{
    private static final long NOW_S = 1_795_000_000L;

    @Test
    void shouldStartANodeThatTakesPartAtOnceUnderItsProcessId()
    {
        assertEquals(4_194_303, StartIncarnation.ofProcess(4_194_303));
        assertThrows(IllegalArgumentException.class, () -> StartIncarnation.ofProcess(0));
        assertThrows(IllegalArgumentException.class, () -> StartIncarnation.ofProcess(1L << 31));
    }

    @Test
    void shouldStartAJoinerAboveEveryEarlierLifeAndTheClock()
    {
        assertEquals(NOW_S, StartIncarnation.ofJoiner(0, NOW_S), "first join: the clock beats every pid");
        assertEquals(NOW_S, StartIncarnation.ofJoiner(4_194_303, NOW_S), "after a seed's boot under its pid");
        assertEquals(NOW_S + 1, StartIncarnation.ofJoiner((int)NOW_S, NOW_S), "two restarts within one second");
        assertEquals(NOW_S + 6, StartIncarnation.ofJoiner((int)NOW_S + 5, NOW_S - 3600), "a clock stepped back");
        assertEquals(Integer.MAX_VALUE, StartIncarnation.ofJoiner(0, Long.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, StartIncarnation.ofJoiner(Integer.MAX_VALUE, NOW_S), "no wrap to negative");
    }
}
