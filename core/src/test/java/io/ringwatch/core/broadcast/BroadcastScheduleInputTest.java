package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inputs a corrupt or unexpected notice could carry: the schedules answer with nothing or with participants,
 * never with an exception or a rank outside the cluster.
 */
class BroadcastScheduleInputTest
{
    private static final BroadcastSchedule[] SCHEDULES = { new DoubleHypercubeSchedule(), new BinomialGraphSchedule() };
    private static final int N = 16;

    @Test
    void shouldReturnNoNeighboursForRanksOutsideTheCluster()
    {
        for (final BroadcastSchedule schedule : SCHEDULES)
        {
            final int[] out = new int[schedule.maxFanout(N)];
            for (final int bad : new int[]{ -1, N, Integer.MAX_VALUE, Integer.MIN_VALUE })
            {
                assertEquals(0, schedule.neighbours(bad, 0, RankArray.of(), N, out), name(schedule));
                assertEquals(0, schedule.neighbours(0, bad, RankArray.of(), N, out), name(schedule));
            }
        }
    }

    @Test
    void shouldReturnNoNeighboursWithoutAnotherParticipant()
    {
        for (final BroadcastSchedule schedule : SCHEDULES)
        {
            final int[] out = new int[schedule.maxFanout(N)];
            assertEquals(0, schedule.neighbours(0, 0, RankArray.of(), 1, out), name(schedule));
            assertEquals(0, schedule.neighbours(2, 2, RankArray.of(0, 1, 3), 4, out), name(schedule));
            assertEquals(0, schedule.neighbours(0, 0, RankArray.of(0, 1, 2, 3), 4, out), name(schedule));
        }
    }

    @Test
    void shouldIgnoreExcludedRanksBeyondTheCluster()
    {
        for (final BroadcastSchedule schedule : SCHEDULES)
        {
            final int[] expected = new int[schedule.maxFanout(N)];
            final int[] actual = new int[schedule.maxFanout(N)];
            for (int self = 0; self < N; self++)
            {
                if (self == 3)
                {
                    continue;
                }
                final int count = schedule.neighbours(self, 5, RankArray.of(3), N, expected);
                assertEquals(count, schedule.neighbours(self, 5, RankArray.of(3, 16, 99, 4000), N, actual));
                assertArrayEquals(expected, actual, name(schedule) + " self " + self);
            }
        }
    }

    @Test
    void shouldAnswerWithParticipantsEvenWhenSourceOrSelfIsExcluded()
    {
        final RankArray excluded = RankArray.of(0, 7, 15);
        for (final BroadcastSchedule schedule : SCHEDULES)
        {
            final int[] out = new int[schedule.maxFanout(N)];
            for (int self = 0; self < N; self++)
            {
                for (final int source : new int[]{ 0, 7, 15, 8 })
                {
                    final int count = schedule.neighbours(self, source, excluded, N, out);
                    assertTrue(count > 0 && count <= out.length, name(schedule));
                    for (int i = 0; i < count; i++)
                    {
                        assertTrue(out[i] >= 0 && out[i] < N, name(schedule) + " out of range " + out[i]);
                        assertFalse(excluded.contains(out[i]), name(schedule) + " excluded " + out[i]);
                    }
                }
            }
        }
    }

    private static String name(final BroadcastSchedule schedule)
    {
        return schedule.getClass().getSimpleName();
    }
}
