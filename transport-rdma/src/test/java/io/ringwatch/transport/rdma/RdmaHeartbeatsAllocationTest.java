package io.ringwatch.transport.rdma;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The heartbeat path of {@link RdmaHeartbeats} (write, duty-cycle poll with its paced event polls, port checks and
 * completion reaping, slot read) must not allocate, measured with the JVM's per-thread allocation counter on the
 * in-memory seam. What DiSNI's own calls allocate underneath is outside this test (its post and CQ poll calls are
 * pre-built; its event poll allocates and is paced for that reason).
 */
class RdmaHeartbeatsAllocationTest
{
    private static final int WARMUP_BEATS = 200_000;
    private static final int MEASURED_BEATS = 500_000;
    private static final int MAX_ROUNDS = 5;
    private static final long CYCLE_NS = 1_000;

    @Test
    void shouldNotAllocatePerHeartbeat()
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        final com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean)threads;
        assumeTrue(allocation.isThreadAllocatedMemorySupported(), "no per-thread allocation counter");
        allocation.setThreadAllocatedMemoryEnabled(true);

        final InMemoryFabric fabric = new InMemoryFabric(RdmaHeartbeatsTest.CONNECT_LATENCY_NS);
        final RdmaEndpoint[] endpoints = RdmaHeartbeatsTest.endpoints(3);
        try (RdmaHeartbeats emitter = new RdmaHeartbeats(
                RdmaHeartbeatsTest.context(fabric, 0, endpoints, fabric.node(3)));
            RdmaHeartbeats observer = new RdmaHeartbeats(
                RdmaHeartbeatsTest.context(fabric, 1, endpoints, fabric.node(3)));
            RdmaHeartbeats third = new RdmaHeartbeats(
                RdmaHeartbeatsTest.context(fabric, 2, endpoints, fabric.node(3))))
        {
            final RdmaHeartbeats[] all = { emitter, observer, third };
            long counter = beats(fabric, all, 0, WARMUP_BEATS);
            assertEquals(counter, observer.readHeartbeat(0), observer.lastError());
            final long postedBefore = emitter.counters().beatsPosted();

            final long[] roundBytes = new long[MAX_ROUNDS];
            long fewestBytes = Long.MAX_VALUE;
            int rounds = 0;
            allocation.getCurrentThreadAllocatedBytes();
            while (rounds < MAX_ROUNDS && fewestBytes != 0)
            {
                final long before = allocation.getCurrentThreadAllocatedBytes();
                counter = beats(fabric, all, counter, MEASURED_BEATS);
                roundBytes[rounds] = allocation.getCurrentThreadAllocatedBytes() - before;
                fewestBytes = Math.min(fewestBytes, roundBytes[rounds++]);
            }

            assertEquals(0, fewestBytes, "bytes allocated per round of " + MEASURED_BEATS + " beats: " +
                Arrays.toString(Arrays.copyOf(roundBytes, rounds)));
            assertEquals((long)rounds * MEASURED_BEATS, emitter.counters().beatsPosted() - postedBefore, "every beat posted");
            assertEquals(counter, observer.readHeartbeat(0));
            assertTrue(emitter.counters().completionsReaped() > 0, "signalled completions reaped on the way");
            assertEquals(0, emitter.counters().beatsDroppedQueueFull() + emitter.counters().completionErrors());
        }
    }

    private static long beats(
        final InMemoryFabric fabric, final RdmaHeartbeats[] all, final long from, final int count)
    {
        long counter = from;
        long sink = 0;
        for (int i = 0; i < count; i++)
        {
            fabric.nowNs += CYCLE_NS;
            for (final RdmaHeartbeats node : all)
            {
                node.poll(fabric.nowNs);
            }
            if (all[0].isConnectedTo(1))
            {
                all[0].writeHeartbeat(1, ++counter);
                all[1].writeHeartbeat(2, counter);
            }
            sink += all[1].readHeartbeat(0) + all[2].readHeartbeat(1);
        }
        return sink == Long.MIN_VALUE ? -1 : counter;
    }
}
