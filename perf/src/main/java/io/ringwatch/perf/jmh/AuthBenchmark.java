package io.ringwatch.perf.jmh;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ReplayGuard;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Frame authentication on a heartbeat frame (72 bytes) in a direct buffer: the MAC alone (sign, verify), a forged frame
 * against a full three-key keyring (the most a bad frame can cost), and a heartbeat's whole trip through a node
 * (encode, stamp, then decode with MAC, digest, destination and replay checks).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class AuthBenchmark
{
    static final int CLUSTER_ID = 7;
    static final int CLUSTER_SIZE = 1024;
    static final int SENDER_RANK = 5;
    static final int LOCAL_RANK = 6;
    static final int CONFIG_DIGEST = ConfigDigest.of(CLUSTER_ID, CLUSTER_SIZE, 1_000_000L, 10_000_000L);

    @State(Scope.Thread)
    public static class FrameState
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        final UnsafeBuffer forged = new UnsafeBuffer(BufferUtil.allocateDirectAligned(256, 64));
        final FrameAuthenticator authenticator = FrameAuthenticator.withKey(key(1));
        final FrameAuthenticator keyring = FrameAuthenticator.withKeys(List.of(key(1), key(2), key(3)));
        final FrameStamper stamper = new FrameStamper(CLUSTER_SIZE, authenticator.newInstance());
        final FrameDecoder decoder = new FrameDecoder(
            CLUSTER_ID, CLUSTER_SIZE, LOCAL_RANK, CONFIG_DIGEST, authenticator, new ReplayGuard(CLUSTER_SIZE));
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        long counter;

        public FrameState()
        {
            final int length = heartbeat.encode(buffer, 0, CLUSTER_ID, SENDER_RANK, 1, LOCAL_RANK, CONFIG_DIGEST, 1, 0);
            stamper.stamp(buffer, 0, length);
            forged.putBytes(0, buffer, 0, length);
            FrameAuthenticator.withKey(key(99)).sign(forged, 0, length);
        }

        private static byte[] key(final int first)
        {
            final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
            for (int i = 0; i < key.length; i++)
            {
                key[i] = (byte)(first * 31 + i);
            }
            return key;
        }
    }

    @Benchmark
    public void sign(final FrameState state)
    {
        state.authenticator.sign(state.buffer, 0, HeartbeatFlyweight.LENGTH);
    }

    @Benchmark
    public boolean verify(final FrameState state)
    {
        return state.authenticator.verify(state.buffer, 0, HeartbeatFlyweight.LENGTH);
    }

    /**
     * A forged frame is tried against every key before it is refused.
     */
    @Benchmark
    public boolean verifyForgedAgainstThreeKeys(final FrameState state)
    {
        return state.keyring.verify(state.forged, 0, HeartbeatFlyweight.LENGTH);
    }

    /**
     * Everything a heartbeat costs both ends: encode, stamp (sequence and MAC), decode (MAC, fields, replay window).
     */
    @Benchmark
    public void heartbeatSendAndReceive(final FrameState state, final Blackhole blackhole)
    {
        final long counter = ++state.counter;
        final int length = state.heartbeat.encode(
            state.buffer, 0, CLUSTER_ID, SENDER_RANK, 1, LOCAL_RANK, CONFIG_DIGEST, counter, counter);
        state.stamper.stamp(state.buffer, 0, length);
        final RejectReason reason = state.decoder.decode(state.buffer, 0, length);
        blackhole.consume(reason);
        blackhole.consume(state.decoder.heartbeatCounter());
    }
}
