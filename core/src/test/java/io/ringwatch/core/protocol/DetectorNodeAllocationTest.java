package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The duty cycle of a node in steady state (heartbeat when due, read the slot, see progress) must not allocate:
 * measured with the JVM's per-thread allocation counter over a million cycles after warm-up.
 */
class DetectorNodeAllocationTest
{
    private static final long ETA_NS = 1_000;
    private static final long DELTA_NS = 10_000;
    private static final int WARMUP_CYCLES = 300_000;
    private static final int MEASURED_CYCLES = 1_000_000;

    /** The observer's slot, written by a fake emitter that beats every other cycle. */
    private static final class Slot implements HeartbeatChannel
    {
        long emitterCounter;
        long written;

        public void writeHeartbeat(final int observerRank, final long counter)
        {
            written = counter;
        }

        public long readHeartbeat(final int emitterRank)
        {
            return emitterCounter;
        }
    }

    private static final class NoControl implements ControlChannel
    {
        int sent;

        public void sendNewObserver(final int emitterRank)
        {
            sent++;
        }

        public void sendLeave(final int observerRank)
        {
            sent++;
        }

        public void sendNotice(final int toRank, final Notice notice)
        {
            sent++;
        }
    }

    @Test
    void shouldNotAllocateInSteadyStateDutyCycle()
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        final com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean)threads;
        assumeTrue(allocation.isThreadAllocatedMemorySupported(), "no per-thread allocation counter");
        allocation.setThreadAllocatedMemoryEnabled(true);

        final Slot slot = new Slot();
        final NoControl control = new NoControl();
        final DetectorNode node = new DetectorNode(
            1, 0, ProtocolSettings.of(3, ETA_NS, DELTA_NS), new DoubleHypercubeSchedule(),
            slot, control, MembershipListener.NO_OP, 0);

        final long[] nowNs = {0};
        runCycles(node, slot, nowNs, WARMUP_CYCLES);
        final long heartbeatsBefore = node.heartbeatsSent();
        final long progressBefore = node.heartbeatProgressSeen();

        allocation.getCurrentThreadAllocatedBytes();
        final long beforeBytes = allocation.getCurrentThreadAllocatedBytes();
        runCycles(node, slot, nowNs, MEASURED_CYCLES);
        final long allocatedBytes = allocation.getCurrentThreadAllocatedBytes() - beforeBytes;

        assertEquals(0, allocatedBytes, "bytes allocated by " + MEASURED_CYCLES + " duty cycles");
        assertEquals(MEASURED_CYCLES / 2, node.heartbeatsSent() - heartbeatsBefore, "heartbeats sent");
        assertEquals(MEASURED_CYCLES / 2, node.heartbeatProgressSeen() - progressBefore, "progress seen");
        assertEquals(0, control.sent, "no suspicion, no control traffic");
        assertEquals(0, node.deadSet().size());
    }

    private static void runCycles(final DetectorNode node, final Slot slot, final long[] nowNs, final int cycles)
    {
        long now = nowNs[0];
        for (int i = 0; i < cycles; i++)
        {
            now += ETA_NS / 2;
            if ((i & 1) == 0)
            {
                slot.emitterCounter++;
            }
            node.doWork(now);
        }
        nowNs[0] = now;
    }
}
