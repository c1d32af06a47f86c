package io.ringwatch.perf.jmh;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.MembershipListener;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One steady-state duty cycle of a {@link DetectorNode}, as the live agent runs it in a busy loop.
 * <p>
 * The protocol clock moves by η/{@value #CALLS_PER_PERIOD} per call, so one call in {@value #CALLS_PER_PERIOD}
 * emits a heartbeat, one in {@value #CALLS_PER_PERIOD} finds new progress in the slot (the emitter beats at the
 * same rate, half a period out of phase), and every call reads the slot and compares deadlines. The number is the
 * average over that mix, i.e. the protocol's share of one spin of an agent polling at η/100.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class DetectorNodeDutyCycleBenchmark
{
    static final int CALLS_PER_PERIOD = 100;
    private static final long HEARTBEAT_PERIOD_NS = 100_000;
    private static final long SUSPICION_TIMEOUT_NS = 10 * HEARTBEAT_PERIOD_NS;
    private static final long STEP_NS = HEARTBEAT_PERIOD_NS / CALLS_PER_PERIOD;

    @Param({"16", "262144"})
    int clusterSize;

    private Slot slot;
    private DetectorNode node;
    private long nowNs;
    private long emitterNextBeatNs;
    private long startedAtNs;
    private long heartbeatsAtStart;

    /**
     * The slot of one observer: the node writes its observer's slot, the benchmark plays the emitter writing ours.
     */
    static final class Slot implements HeartbeatChannel
    {
        long ownSlot;
        long observerSlot;

        public void writeHeartbeat(final int observerRank, final long counter)
        {
            observerSlot = counter;
        }

        public long readHeartbeat(final int emitterRank)
        {
            return ownSlot;
        }

        public int lastWriter()
        {
            return NO_WRITER;
        }
    }

    @Setup
    public void setUp()
    {
        slot = new Slot();
        node = new DetectorNode(
            clusterSize / 2,
            0,
            ProtocolSettings.of(clusterSize, HEARTBEAT_PERIOD_NS, SUSPICION_TIMEOUT_NS),
            new DoubleHypercubeSchedule(),
            slot,
            new CountingControlChannel(),
            MembershipListener.NO_OP,
            0);
        nowNs = 0;
        emitterNextBeatNs = HEARTBEAT_PERIOD_NS / 2;

        // past the first suspicion window, so what follows is steady state
        for (int i = 0; i < 20 * CALLS_PER_PERIOD; i++)
        {
            dutyCycle();
        }
        startedAtNs = nowNs;
        heartbeatsAtStart = node.counter(ProtocolCounter.HEARTBEATS_SENT);
    }

    @Benchmark
    public int dutyCycle()
    {
        final long nowNs = this.nowNs += STEP_NS;
        if (nowNs - emitterNextBeatNs >= 0)
        {
            slot.ownSlot++;
            emitterNextBeatNs += HEARTBEAT_PERIOD_NS;
        }
        return node.doWork(nowNs);
    }

    @TearDown
    public void checkSteadyState()
    {
        final long expectedHeartbeats = (nowNs - startedAtNs) / HEARTBEAT_PERIOD_NS;
        final long heartbeats = node.counter(ProtocolCounter.HEARTBEATS_SENT) - heartbeatsAtStart;
        if (node.state() != NodeState.ACTIVE || node.counter(ProtocolCounter.SUSPICIONS) != 0 || node.counter(ProtocolCounter.PAUSES_DETECTED) != 0 ||
            node.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED) != 0 || Math.abs(heartbeats - expectedHeartbeats) > 1 ||
            slot.observerSlot != node.counter(ProtocolCounter.HEARTBEATS_SENT))
        {
            throw new IllegalStateException("duty cycle left steady state: state=" + node.state() +
                " suspicions=" + node.counter(ProtocolCounter.SUSPICIONS) + " pauses=" + node.counter(ProtocolCounter.PAUSES_DETECTED) +
                " missed=" + node.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED) + " heartbeats=" + heartbeats +
                " expected=" + expectedHeartbeats);
        }
    }
}
