package io.ringwatch.perf.jmh;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.sim.SimFrame;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.ReusableNotice;
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
 * {@link DetectorNode#onFrame} with a notice for a copy of a broadcast already forwarded: during a flood each node receives up to
 * 2k copies of every broadcast and forwards only the first, so this is the common case and must be cheap.
 * <p>
 * {@code broadcastsInFlight} independent failures have each been announced by their observer, with D_msg growing
 * by one dead rank per broadcast, and the node has forwarded all of them once. Invocations then replay the copies
 * in rotation, so the duplicate lookup finds its id anywhere in the remembered set, not always at the front.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class OnNoticeBenchmark
{
    private static final int CLUSTER_SIZE = 262_144;
    private static final int RANK = 200_000;
    private static final int FIRST_DEAD_RANK = 1_000;
    private static final int DEAD_RANK_SPACING = 2_048;
    private static final long NOW_NS = 1_000_000_000L;

    /** Distinct broadcasts remembered by the node; a power of two, at most the default dedup capacity. */
    @Param({"1", "64"})
    int broadcastsInFlight;

    private DetectorNode node;
    private CountingControlChannel control;
    private ReusableNotice[] notices;
    private final SimFrame frame = new SimFrame();
    private int next;
    private long forwardedAtStart;
    private long sentAtStart;
    private long duplicatesAtStart;
    private long viewEpochAtStart;

    @Setup
    public void setUp()
    {
        if (Integer.bitCount(broadcastsInFlight) != 1 || broadcastsInFlight > ProtocolSettings.DEFAULT_DEDUP_CAPACITY)
        {
            throw new IllegalArgumentException("broadcastsInFlight must be a power of two <= " +
                ProtocolSettings.DEFAULT_DEDUP_CAPACITY + ": " + broadcastsInFlight);
        }

        control = new CountingControlChannel();
        node = new DetectorNode(
            RANK,
            0,
            ProtocolSettings.of(CLUSTER_SIZE, 100_000, 1_000_000),
            new DoubleHypercubeSchedule(),
            new NoHeartbeats(),
            control,
            MembershipListener.NO_OP,
            0);

        notices = new ReusableNotice[broadcastsInFlight];
        for (int i = 0; i < broadcastsInFlight; i++)
        {
            final int[] dead = new int[i + 1];
            for (int j = 0; j <= i; j++)
            {
                dead[j] = FIRST_DEAD_RANK + j * DEAD_RANK_SPACING;
            }
            final int deadRank = dead[i];
            notices[i] = BenchNotice.of(deadRank, deadRank + 1, 0, 1, dead);
            node.onFrame(frame.notice(notices[i].sourceRank(), InboundFrame.UNKNOWN_INCARNATION, notices[i]), NOW_NS);
        }

        if (node.counter(ProtocolCounter.NOTICES_DUPLICATE) != 0 || node.deadSet().size() != broadcastsInFlight)
        {
            throw new IllegalStateException("first receipts were not all new: duplicates=" +
                node.counter(ProtocolCounter.NOTICES_DUPLICATE) + " dead=" + node.deadSet());
        }
        forwardedAtStart = node.counter(ProtocolCounter.NOTICES_FORWARDED);
        sentAtStart = control.noticesSent;
        duplicatesAtStart = node.counter(ProtocolCounter.NOTICES_DUPLICATE);
        viewEpochAtStart = node.viewEpoch();
    }

    @Benchmark
    public long duplicateNotice()
    {
        final ReusableNotice notice = notices[next++ & (broadcastsInFlight - 1)];
        node.onFrame(frame.notice(notice.sourceRank(), InboundFrame.UNKNOWN_INCARNATION, notice), NOW_NS);
        return node.counter(ProtocolCounter.NOTICES_DUPLICATE);
    }

    @TearDown
    public void checkOnlyDuplicates()
    {
        if (node.state() != NodeState.ACTIVE || node.counter(ProtocolCounter.NOTICES_FORWARDED) != forwardedAtStart ||
            control.noticesSent != sentAtStart || node.viewEpoch() != viewEpochAtStart ||
            node.counter(ProtocolCounter.NOTICES_DUPLICATE) == duplicatesAtStart)
        {
            throw new IllegalStateException("measured path was not the duplicate path: state=" + node.state() +
                " forwarded=" + (node.counter(ProtocolCounter.NOTICES_FORWARDED) - forwardedAtStart) +
                " sent=" + (control.noticesSent - sentAtStart) +
                " duplicates=" + (node.counter(ProtocolCounter.NOTICES_DUPLICATE) - duplicatesAtStart));
        }
    }

    private static final class NoHeartbeats implements HeartbeatChannel
    {
        public void writeHeartbeat(final int observerRank, final long counter)
        {
        }

        public long readHeartbeat(final int emitterRank)
        {
            return NO_HEARTBEAT;
        }

        public int lastWriter()
        {
            return NO_WRITER;
        }
    }
}
