package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.ProbeFlyweight;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.ReplayGuard;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.Simulation;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Runs the protocol's and the codec's hot paths while a node waits at the start barrier, so its agent does not meet
 * them cold when the barrier opens. Cold, a duty cycle cost 0.2–1.5 ms of CPU instead of about 25 µs: with 16 node
 * JVMs on two cores, agents starved in the ordinary class asked for their real-time switch late and the first to
 * switch took the cores, and live nodes were declared dead as their graces ended.
 * <p>
 * The protocol runs in a small simulated cluster with the node's own η and δ (crashes, restarts, so probes, notices,
 * joins and views all run); the codec signs and checks heartbeats and probes under a throwaway key. Nothing here
 * touches the node's own state, its channels or the network.
 */
public final class JitWarmup
{
    private static final int SIMULATED_RUNS = 2;
    private static final int SIMULATED_NODES = 8;
    private static final int FRAMES = 5_000;

    private volatile long tookNs = -1;

    private JitWarmup()
    {
    }

    /**
     * Start the warm-up on a daemon thread of its own.
     *
     * @param settings the node's protocol settings (η and δ are taken from them).
     * @return the warm-up, {@link #done()} once over.
     */
    public static JitWarmup start(final ProtocolSettings settings)
    {
        final JitWarmup warmup = new JitWarmup();
        final Thread thread = new Thread(() -> warmup.tookNs = run(settings), "ringwatch-warmup");
        thread.setDaemon(true);
        thread.start();
        return warmup;
    }

    /**
     * @return true once the warm-up is over.
     */
    public boolean done()
    {
        return tookNs >= 0;
    }

    /**
     * @return how long it took, ns; -1 until {@link #done()}.
     */
    public long tookNs()
    {
        return tookNs;
    }

    /**
     * @param settings the node's protocol settings (η and δ are taken from them).
     * @return how long it took, ns.
     */
    private static long run(final ProtocolSettings settings)
    {
        final long startNs = System.nanoTime();
        for (int i = 0; i < SIMULATED_RUNS; i++)
        {
            final SimConfig config = new SimConfig()
                .nodes(SIMULATED_NODES)
                .heartbeatPeriodNs(settings.heartbeatPeriodNs())
                .suspicionTimeoutNs(settings.suspicionTimeoutNs())
                .failures(2)
                .seed(i + 1);
            config.restartAfterNs(2 * settings.suspicionTimeoutNs());
            Simulation.run(config);
        }
        codec();
        return System.nanoTime() - startNs;
    }

    private static void codec()
    {
        final int clusterId = 1;
        final int clusterSize = 2;
        final int digest = ConfigDigest.of(clusterId, clusterSize, 1_000_000L, 10_000_000L);
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        Arrays.fill(key, (byte)7);
        final FrameAuthenticator authenticator = FrameAuthenticator.withKey(key);
        final FrameStamper stamper = new FrameStamper(clusterSize, authenticator.newInstance());
        final FrameDecoder decoder = new FrameDecoder(
            clusterId, clusterSize, 1, digest, authenticator, new ReplayGuard(clusterSize));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        final ProbeFlyweight probe = new ProbeFlyweight();
        for (int i = 1; i <= FRAMES; i++)
        {
            int length = heartbeat.encode(buffer, 0, clusterId, 0, 0, 1, digest, i, i);
            decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length));
            length = probe.encode(buffer, 0, FrameHeaderFlyweight.PROBE_TYPE, clusterId, 0, 0, 1, digest, i);
            decoder.decode(buffer, 0, stamper.stamp(buffer, 0, length));
        }
    }
}
