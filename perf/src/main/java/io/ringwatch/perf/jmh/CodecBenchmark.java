package io.ringwatch.perf.jmh;

import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.spi.RankSet;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Wire codecs on a direct buffer, as a UDP transport uses them: encode a frame, then validate and decode it, without
 * the MAC and replay checks ({@link AuthBenchmark} measures those) so the layout and validation cost stays visible.
 * <p>
 * D_msg of the notice is scattered (no two dead ranks adjacent), so {@code deadCount} dead ranks travel as as many
 * runs: the worst case per dead rank for both the encoder's run compression and the decoder's checks.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
// Agrona 2.x reaches jdk.internal.misc.Unsafe directly; prepend, so -jvmArgsAppend on the command line keeps it
@Fork(value = 1, jvmArgsPrepend = {"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class CodecBenchmark
{
    static final int CLUSTER_ID = 7;
    static final int CLUSTER_SIZE = 262_144;
    static final int SENDER_RANK = 12_345;
    static final int SENDER_INCARNATION = 3;
    static final int DESTINATION_RANK = 12_346;
    static final int CONFIG_DIGEST = 0x5EED;

    @State(Scope.Thread)
    public static class HeartbeatState
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, CLUSTER_SIZE);
        long counter;
    }

    @State(Scope.Thread)
    public static class NoticeState
    {
        @Param({"1", "64"})
        int deadCount;

        final UnsafeBuffer buffer = new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(FailureNoticeFlyweight.MAX_LENGTH, 64));
        final FailureNoticeFlyweight flyweight = new FailureNoticeFlyweight();
        final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, CLUSTER_SIZE);
        ReusableNotice notice;
        int length;

        @Setup
        public void setUp()
        {
            final int spacing = CLUSTER_SIZE / deadCount;
            final int[] dead = new int[deadCount];
            for (int i = 0; i < deadCount; i++)
            {
                dead[i] = 1 + i * spacing;
            }
            // the source is the observer of the first dead rank
            notice = BenchNotice.of(dead[0], dead[0] + 1, 2, 41, dead);

            length = flyweight.encode(
                buffer, 0, CLUSTER_ID, SENDER_RANK, SENDER_INCARNATION, DESTINATION_RANK, CONFIG_DIGEST, notice);
            if (length != FailureNoticeFlyweight.lengthOf(deadCount))
            {
                throw new IllegalStateException("expected " + deadCount + " runs, encode returned " + length);
            }
            final RejectReason reason = decoder.decode(buffer, 0, length);
            if (RejectReason.NONE != reason || !sameNotice(decoder.notice(), notice))
            {
                throw new IllegalStateException("round trip failed: " + reason + " " + decoder.notice());
            }
        }

        private static boolean sameNotice(final ReusableNotice decoded, final ReusableNotice sent)
        {
            final RankSet a = decoded.deadSet();
            final RankSet b = sent.deadSet();
            boolean same = decoded.deadRank() == sent.deadRank() && decoded.sourceRank() == sent.sourceRank() &&
                decoded.sourceIncarnation() == sent.sourceIncarnation() && decoded.sequence() == sent.sequence() &&
                a.size() == b.size();
            for (int i = 0; same && i < a.size(); i++)
            {
                same = a.rankAt(i) == b.rankAt(i);
            }
            return same;
        }
    }

    @Benchmark
    public void heartbeatRoundTrip(final HeartbeatState state, final Blackhole blackhole)
    {
        final long counter = ++state.counter;
        final int length = state.heartbeat.encode(state.buffer, 0, CLUSTER_ID, SENDER_RANK, SENDER_INCARNATION,
            DESTINATION_RANK, CONFIG_DIGEST, counter, counter * 1_000);
        blackhole.consume(state.decoder.decode(state.buffer, 0, length));
        blackhole.consume(state.decoder.heartbeatCounter());
    }

    @Benchmark
    public void noticeRoundTrip(final NoticeState state, final Blackhole blackhole)
    {
        final int length = state.flyweight.encode(state.buffer, 0, CLUSTER_ID, SENDER_RANK, SENDER_INCARNATION,
            DESTINATION_RANK, CONFIG_DIGEST, state.notice);
        blackhole.consume(state.decoder.decode(state.buffer, 0, length));
        blackhole.consume(state.decoder.notice().deadSet().size());
    }

    /**
     * Sender side alone: every forward of a broadcast encodes D_msg afresh.
     */
    @Benchmark
    public int noticeEncode(final NoticeState state)
    {
        return state.flyweight.encode(state.buffer, 0, CLUSTER_ID, SENDER_RANK, SENDER_INCARNATION,
            DESTINATION_RANK, CONFIG_DIGEST, state.notice);
    }

    /**
     * Receiver side alone: every copy of a broadcast is validated and decoded, duplicates included.
     */
    @Benchmark
    public void noticeDecode(final NoticeState state, final Blackhole blackhole)
    {
        blackhole.consume(state.decoder.decode(state.buffer, 0, state.length));
        blackhole.consume(state.decoder.notice().deadSet().size());
    }
}
