package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code neighbours()} runs on every notice a node forwards, so it must not allocate. The measured loop is
 * compared with the same loop minus the call; the minimum over a few attempts discards a stray allocation
 * (class loading, a compiler-triggered event), while a real per-call allocation costs megabytes over 100k calls.
 */
class NeighboursAllocationTest
{
    private static final int CALLS = 100_000;
    private static final int ATTEMPTS = 3;
    private static final int CLUSTER_SIZE = 262_144;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
    private final int[] selves = new int[1024];
    private RankArray excluded;
    private int source;
    private long sink;

    @Test
    void shouldNotAllocateInDoubleHypercubeNeighbours()
    {
        assertNoAllocation(new DoubleHypercubeSchedule());
    }

    @Test
    void shouldNotAllocateInBinomialGraphNeighbours()
    {
        assertNoAllocation(new BinomialGraphSchedule());
    }

    private void assertNoAllocation(final BroadcastSchedule schedule)
    {
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "thread allocation counting unsupported");
        threads.setThreadAllocatedMemoryEnabled(true);
        setUpCluster();
        final int[] out = new int[schedule.maxFanout(CLUSTER_SIZE)];

        for (int i = 0; i < 2; i++)
        {
            callNeighbours(schedule, out);
            emptyLoop(out);
        }

        long baseline = Long.MAX_VALUE;
        long measured = Long.MAX_VALUE;
        for (int i = 0; i < ATTEMPTS; i++)
        {
            baseline = Math.min(baseline, emptyLoop(out));
            measured = Math.min(measured, callNeighbours(schedule, out));
        }
        System.out.println(schedule.getClass().getSimpleName() + ": " + CALLS + " calls allocated " + measured +
            " bytes, empty loop " + baseline + " bytes");
        assertTrue(measured <= baseline, "neighbours() allocated " + (measured - baseline) + " bytes over " +
            CALLS + " calls (loop baseline " + baseline + ")");
    }

    private void setUpCluster()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final int[] dead = random.ints(0, CLUSTER_SIZE).distinct().limit(1000).toArray();
        excluded = RankArray.of(dead);
        for (int i = 0; i < selves.length; i++)
        {
            int rank = random.nextInt(CLUSTER_SIZE);
            while (excluded.contains(rank))
            {
                rank = random.nextInt(CLUSTER_SIZE);
            }
            selves[i] = rank;
        }
        source = selves[0];
    }

    private long callNeighbours(final BroadcastSchedule schedule, final int[] out)
    {
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        long acc = 0;
        for (int i = 0; i < CALLS; i++)
        {
            acc += schedule.neighbours(selves[i & 1023], source, excluded, CLUSTER_SIZE, out) + out[0];
        }
        final long after = threads.getThreadAllocatedBytes(threadId);
        sink += acc;
        return after - before;
    }

    private long emptyLoop(final int[] out)
    {
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        long acc = 0;
        for (int i = 0; i < CALLS; i++)
        {
            acc += selves[i & 1023] + out[0];
        }
        final long after = threads.getThreadAllocatedBytes(threadId);
        sink += acc;
        return after - before;
    }
}
