package io.ringwatch.core.process;

import org.junit.jupiter.api.Test;

import static io.ringwatch.core.process.ProcessWatch.DEPARTED;
import static io.ringwatch.core.process.ProcessWatch.FAILED;
import static io.ringwatch.core.process.ProcessWatch.RUNNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessWatchTest
{
    private static final long TIMEOUT = 100;

    @Test
    void shouldCountOnlyAZeroExitAfterSayingItFinishedAsADeparture()
    {
        assertEquals(DEPARTED, ProcessWatch.onExit(true, 0));
        assertEquals(FAILED, ProcessWatch.onExit(true, 1), "it said it finished, then failed on the way out");
        assertEquals(FAILED, ProcessWatch.onExit(false, 0), "an exit 0 nobody announced is a failure");
        assertEquals(FAILED, ProcessWatch.onExit(false, 137));
    }

    @Test
    void shouldEndAProcessWhoseBeatStoodStillForLongerThanTheTimeout()
    {
        final ProcessWatch watch = new ProcessWatch(2, TIMEOUT);
        assertTrue(watch.watching());
        assertEquals(RUNNING, watch.onBeat(0, 0, false, 1_000), "watched from the first read, whatever the beat");
        assertEquals(RUNNING, watch.onBeat(0, 0, false, 1_000 + TIMEOUT), "the timeout itself is not over");
        assertEquals(RUNNING, watch.onBeat(0, 1, false, 1_050 + TIMEOUT), "a beat moved: watched afresh from now");
        assertEquals(RUNNING, watch.onBeat(0, 1, false, 1_050 + 2 * TIMEOUT));
        assertEquals(FAILED, watch.onBeat(0, 1, false, 1_051 + 2 * TIMEOUT));
    }

    @Test
    void shouldLetAProcessThatSaidItFinishedDepartWhenItsBeatStops()
    {
        final ProcessWatch watch = new ProcessWatch(2, TIMEOUT);
        assertEquals(RUNNING, watch.onBeat(1, 7, true, 0));
        assertEquals(DEPARTED, watch.onBeat(1, 7, true, TIMEOUT + 1));
        assertEquals(RUNNING, watch.onBeat(0, 7, false, TIMEOUT + 1), "each process is watched on its own");
    }

    @Test
    void shouldWatchNothingWithoutATimeout()
    {
        assertFalse(new ProcessWatch(4, 0).watching());
        assertThrows(IllegalArgumentException.class, () -> new ProcessWatch(4, -1));
    }
}
