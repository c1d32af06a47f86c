package io.ringwatch.core;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The allocation tests' measure: the JVM's per-thread allocation counter around rounds of a workload. A test that
 * runs where the JVM has no such counter is skipped with the reason, not passed.
 */
public final class ThreadAllocation
{
    private final com.sun.management.ThreadMXBean threads;

    private ThreadAllocation(final com.sun.management.ThreadMXBean threads)
    {
        this.threads = threads;
    }

    /**
     * @return the current thread's counter, enabled; the calling test is skipped if the JVM has none.
     */
    public static ThreadAllocation counter()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter on this JVM");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "per-thread allocation counter unsupported");
        threads.setThreadAllocatedMemoryEnabled(true);
        return new ThreadAllocation(threads);
    }

    /**
     * @param work to run once on the current thread.
     * @return bytes it allocated.
     */
    public long bytesOf(final Runnable work)
    {
        final long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * Run rounds until one allocates at most {@code enoughBytes}, or {@code maxRounds} have run: a per-iteration
     * allocation shows in every round, while one-off noise (the JIT settling, a deoptimisation) passes.
     *
     * @param maxRounds   most rounds to run, at least 1.
     * @param enoughBytes a round allocating this much or less ends the measure.
     * @param round       one round of the workload.
     * @return the bytes of each round run, in order.
     */
    public long[] rounds(final int maxRounds, final long enoughBytes, final Runnable round)
    {
        final long[] roundBytes = new long[maxRounds];
        int rounds = 0;
        long fewest = Long.MAX_VALUE;
        while (rounds < maxRounds && fewest > enoughBytes)
        {
            roundBytes[rounds] = bytesOf(round);
            fewest = Math.min(fewest, roundBytes[rounds++]);
        }
        return Arrays.copyOf(roundBytes, rounds);
    }

    /**
     * @param roundBytes as {@link #rounds} returns them.
     * @return the fewest bytes a round allocated.
     */
    public static long fewest(final long[] roundBytes)
    {
        return Arrays.stream(roundBytes).min().orElse(Long.MAX_VALUE);
    }
}
