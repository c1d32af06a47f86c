package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventQueueTest
{
    @Test
    void shouldPollInTimeOrderAndBreakTiesByInsertionOrder()
    {
        final long seed = 99;
        final SplittableRandom random = new SplittableRandom(seed);
        final EventQueue queue = new EventQueue(4);
        final List<long[]> expected = new ArrayList<>();
        for (int i = 0; i < 20_000; i++)
        {
            final long time = random.nextLong(500);
            final long seq = queue.schedule(time, EventQueue.WAKE, -1, i, 0, null);
            expected.add(new long[] {time, seq, i});
        }
        expected.sort(Comparator.<long[]>comparingLong((e) -> e[0]).thenComparingLong((e) -> e[1]));

        for (final long[] e : expected)
        {
            final int slot = queue.poll();
            assertEquals(e[0], queue.polledTimeNs(), "seed=" + seed);
            assertEquals(e[1], queue.polledSeq(), "seed=" + seed);
            assertEquals((int)e[2], queue.to(slot), "seed=" + seed);
            queue.release(slot);
        }
        assertTrue(queue.isEmpty());
    }

    /**
     * Events scheduled while others are polled, over near times, later buckets and beyond the calendar (seconds
     * ahead), with many ties: the order must be that of one (time, sequence) heap.
     */
    @Test
    void shouldKeepTheOrderOfOneHeapAcrossItsTiers()
    {
        final long seed = Long.getLong("ringwatch.test.seed", 32);
        final SplittableRandom random = new SplittableRandom(seed);
        final EventQueue queue = new EventQueue(4);
        final java.util.PriorityQueue<long[]> reference = new java.util.PriorityQueue<>(
            Comparator.<long[]>comparingLong((e) -> e[0]).thenComparingLong((e) -> e[1]));
        long nowNs = 0;
        for (int step = 0; step < 200_000; step++)
        {
            if (reference.isEmpty() || random.nextInt(5) < 3)
            {
                final long aheadNs = switch (random.nextInt(4))
                {
                    case 0 -> random.nextLong(1_000);
                    case 1 -> random.nextLong(3_000_000);
                    case 2 -> 100_000_000L + random.nextLong(4) * 1_048_576L;
                    default -> random.nextLong(3_000_000_000L);
                };
                final long timeNs = nowNs + aheadNs;
                final long seq = queue.schedule(timeNs, EventQueue.WAKE, -1, step % 1000, 0, null);
                reference.add(new long[] {timeNs, seq});
            }
            else
            {
                final long[] e = reference.poll();
                assertEquals(e[0], queue.peekTimeNs(), "seed=" + seed + " step=" + step);
                final int slot = queue.poll();
                assertEquals(e[0], queue.polledTimeNs(), "seed=" + seed + " step=" + step);
                assertEquals(e[1], queue.polledSeq(), "seed=" + seed + " step=" + step);
                queue.release(slot);
                nowNs = e[0];
            }
            assertEquals(reference.size(), queue.size(), "seed=" + seed);
        }
    }

    @Test
    void shouldRequeuePolledEventBehindThoseAlreadyScheduledForThatTime()
    {
        final EventQueue queue = new EventQueue(4);
        final Object payload = new Object();
        queue.schedule(5, EventQueue.NOTICE, 1, 2, 0, payload);
        queue.schedule(10, EventQueue.RESUME, -1, 2, 0, null);

        final int slot = queue.poll();
        queue.requeue(slot, 10);

        assertEquals(EventQueue.RESUME, queue.type(queue.poll()));
        final int again = queue.poll();
        assertEquals(10, queue.polledTimeNs());
        assertEquals(EventQueue.NOTICE, queue.type(again));
        assertEquals(payload, queue.ref(again));
        assertEquals(1, queue.from(again));
    }

    @Test
    void shouldReuseReleasedSlots()
    {
        final EventQueue queue = new EventQueue(16);
        for (int round = 0; round < 1000; round++)
        {
            queue.schedule(round, EventQueue.HEARTBEAT, 0, 1, round, null);
            final int slot = queue.poll();
            assertEquals(round, queue.value(slot));
            queue.release(slot);
        }
        assertEquals(0, queue.size());
    }
}
