package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.IncarnationFile;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a live attack test knows of a {@link LocalCluster}: its file (ports, digest, control streams), its nodes'
 * incarnations (their pids: public on this host), its key (to make the genuine frames an attacker would have
 * recorded), and the nodes' counters, read through an Aeron client of the cluster's driver.
 */
final class LiveWire implements AutoCloseable
{
    private static final long COUNTER_WAIT_MS = 10_000;

    final RingwatchContext ctx;
    final ClusterChannels channels;
    final Aeron aeron;
    private final LocalCluster cluster;
    private final CountersReader counters;
    private final FrameAuthenticator keyring;

    LiveWire(final LocalCluster cluster)
    {
        this.cluster = cluster;
        ctx = new RingwatchContext()
            .clusterFile(cluster.clusterFile().toPath())
            .rank(0)
            .transport(TransportMode.UDP)
            .aeronDirectoryName(cluster.aeronDir().getAbsolutePath())
            // set, so that concluding this reader's context takes no new incarnation for rank 0
            .incarnation(1);
        if (cluster.options().authenticated())
        {
            ctx.authKeyFile(cluster.keyFile().toPath());
        }
        else
        {
            ctx.authMode(AuthMode.OFF); // a negative control's cluster runs with --no-auth
        }
        ctx.conclude();
        keyring = ctx.frameAuthenticator();
        channels = new ClusterChannels(ctx);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.aeronDir().getAbsolutePath()));
        counters = aeron.countersReader();
    }

    long incarnation(final int rank)
    {
        // seeds and joiners alike start by one rule and record it in the incarnation file
        final long incarnation = IncarnationFile.last(
            IncarnationFile.fileFor(cluster.aeronDir().getAbsolutePath(), ctx.cluster().clusterId(), rank));
        assertTrue(incarnation > 0, () -> "no incarnation recorded for rank " + rank);
        return incarnation;
    }

    /**
     * Write a rank's incarnation file as a life started under another clock would have left it; its next start takes
     * the next incarnation above it.
     */
    void recordIncarnation(final int rank, final long incarnation) throws IOException
    {
        Files.writeString(IncarnationFile.fileFor(cluster.aeronDir().getAbsolutePath(), ctx.cluster().clusterId(), rank),
            Long.toString(incarnation), StandardCharsets.US_ASCII);
    }

    UnsafeBuffer genuineHeartbeat(final int sender, final int destination, final long frameSequence)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);
        new HeartbeatFlyweight().encode(frame, 0, ctx.cluster().clusterId(), sender, incarnation(sender),
            destination, ctx.configDigest(), frameSequence, System.nanoTime());
        // under the run the sender is bound to, as the sender stamps its own
        new FrameHeaderFlyweight().wrap(frame, 0).frameSequence(frameSequence)
            .runId(counter(sender, NodeCounter.RUN_ID));
        keyring.sign(frame, 0, frame.capacity());
        return frame;
    }

    String host(final int rank)
    {
        return ctx.cluster().member(rank).host();
    }

    int controlPort(final int rank)
    {
        return ctx.cluster().member(rank).controlPort();
    }

    /** The heartbeat address of {@code rank}: where its heartbeats come from. */
    InetSocketAddress heartbeatAddress(final int rank)
    {
        return new InetSocketAddress(host(rank), heartbeatPort(rank));
    }

    /** Whom {@code rank} watches while every rank lives: its predecessor. */
    int emitterOf(final int rank)
    {
        return Math.floorMod(rank - 1, cluster.options().nodes());
    }

    int heartbeatPort(final int rank)
    {
        return ctx.cluster().member(rank).heartbeatPort();
    }

    int controlStream(final int rank)
    {
        return channels.controlStream(rank);
    }

    long rejected(final int rank, final RejectReason reason)
    {
        return RejectCounters.rejected(counters, ctx.cluster().clusterId(), rank, reason);
    }

    long counter(final int rank, final NodeCounter counter)
    {
        return RejectCounters.counter(counters, ctx.cluster().clusterId(), rank, counter);
    }

    void awaitRejected(final int rank, final RejectReason reason, final long atLeast, final String what)
        throws InterruptedException
    {
        awaitRejected(rank, () -> rejected(rank, reason), atLeast, what + " (" + reason + ")");
    }

    void awaitCounter(final int rank, final NodeCounter counter, final long atLeast, final String what)
        throws InterruptedException
    {
        awaitRejected(rank, () -> counter(rank, counter), atLeast, what + " (" + counter.label() + ")");
    }

    /**
     * Wait up to 10 s until {@code count} reaches {@code atLeast}; fail naming {@code what} otherwise.
     */
    void awaitRejected(final int rank, final LongSupplier count, final long atLeast, final String what)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COUNTER_WAIT_MS);
        while (count.getAsLong() < atLeast)
        {
            assertTrue(System.nanoTime() - deadline < 0,
                what + ": rank " + rank + " counted " + count.getAsLong() + ", expected " + atLeast);
            Thread.sleep(5);
        }
    }

    public void close()
    {
        aeron.close();
    }
}
