package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.RingwatchAgent;
import io.ringwatch.transport.aeron.internal.slot.RdmaHeartbeatTransport;
import io.ringwatch.transport.aeron.launch.FreePorts;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import io.ringwatch.transport.rdma.RdmaDevices;
import io.ringwatch.transport.rdma.RdmaHeartbeats;
import io.ringwatch.transport.rdma.RemoteSlot;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Live nodes with {@code transport=rdma}: real agents, a real media driver, control frames on loopback UDP, and
 * heartbeats by RDMA WRITE over transport-rdma's in-memory fabric, which stands in for the HCA this host lacks (its
 * writes land in each node's registered slot, read with the runtime's own acquire load). What this shows is the
 * runtime's wiring: the agent polls the transport, NEW_OBSERVER frames carry the sender's slot and the core hands it to
 * {@link RdmaHeartbeats}, a node whose port goes down stops, counters reach the driver. What it cannot show is
 * DiSNI on a device: {@code RdmaMultiProcessDetectionTest} does, where there is one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaRuntimeTest
{
    private static final int N = 4;
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** EmbeddedCluster's startup grace plus a few δ. */
    private static final long PAST_GRACE_MS = 1400;

    @TempDir
    File tempDir;

    private EmbeddedCluster cluster;
    private final boolean[] halted = new boolean[N];
    private final boolean[] killed = new boolean[N];

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(cluster);
    }

    @Test
    void shouldBeatByRdmaWriteAndMendOntoAPreConnectedObserverWhenANodeDies()
    {
        cluster = new EmbeddedCluster(N, 51, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.RDMA);
        run(PAST_GRACE_MS);
        for (int r = 0; r < N; r++)
        {
            assertEquals(0, node(r).deadSet().size(), "no suspicion while all run, rank " + r);
            assertTrue(rdma(r).counters().beatsPosted() > 100, "rank " + r + " beats by RDMA WRITE: " + rdma(r).counters().beatsPosted());
            assertTrue(node(r).counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > 100, "rank " + r + " sees its slot progress");
            // the connection handshake (challenge, hello, grant) takes a duty cycle or two of both nodes at start
            assertTrue(rdma(r).counters().beatsDroppedNotConnected() <= 3, "connected within the handshake's first " +
                "cycles, rank " + r + ": " + rdma(r).counters().beatsDroppedNotConnected() + " beats dropped");
        }

        // rank 2's process dies: its queue pairs go, and its agent runs no more
        cluster.fabric.kill(cluster.fabric.nodeOf(2));
        killed[2] = true;
        run(1000);

        for (final int r : new int[]{0, 1, 3})
        {
            assertEquals(RankArray.of(2).toString(), RankArray.copyOf(node(r).deadSet()).toString(), "rank " + r);
            assertEquals(r == 3 ? 1 : 0, node(r).counter(ProtocolCounter.SUSPICIONS), "only rank 2's observer suspects, rank " + r);
            assertEquals(0, node(r).counter(ProtocolCounter.NEW_OBSERVER_REFUSED), "rank " + r);
            assertEquals(0, rdma(r).counters().descriptorsRejected(), "rank " + r);
        }
        assertEquals(1, node(3).emitter(), "rank 3 mended the ring around rank 2");
        assertEquals(3, node(1).observer(), "rank 1 took rank 3's NEW_OBSERVER, descriptor and all");
        assertEquals(1, rdma(1).counters().mendsOntoPreConnected(), "rank 3 was already connected: no rdma_cm on the mend");
        assertEquals(0, rdma(1).counters().mendsAwaitingConnection());
        assertEquals(0, rdma(1).counters().descriptorsReplaced(), "the frame's descriptor is the one the connection brought");

        final long progress = node(3).counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
        run(300);
        assertTrue(node(3).counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > progress, "rank 1's beats reach rank 3's slot");
        assertEquals(1, node(3).counter(ProtocolCounter.SUSPICIONS), "and nobody else is suspected");

        assertEquals(1, driverCounter(NodeCounter.RDMA_MENDS_ONTO_PRE_CONNECTED, 51, 1), "published for stat");
        assertEquals(rdma(0).counters().beatsPosted(), driverCounter(NodeCounter.RDMA_BEATS_POSTED, 51, 0));
    }

    @Test
    void shouldStopANodeWhoseHcaPortGoesDownBeforeItSuspectsAHealthyEmitter()
    {
        cluster = new EmbeddedCluster(N, 52, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.RDMA);
        run(PAST_GRACE_MS);
        assertEquals(0, node(0).deadSet().size());

        cluster.fabric.portActive(cluster.fabric.nodeOf(1), false);
        run(1000);

        assertTrue(halted[1], "the deaf node stopped");
        final String fault = agent(1).localFault();
        assertTrue(fault != null && fault.startsWith("HCA port down: local RDMA port is down"), fault);
        assertEquals(0, node(1).counter(ProtocolCounter.SUSPICIONS), "the deaf node suspected nobody");
        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 52, 1)))
        {
            final ViewSnapshot view = reader.read(new ViewSnapshot());
            assertEquals(NodeState.EXCLUDED, view.state(), "the core stopped it, so its view file says why");
            assertEquals(ExclusionCause.TRANSPORT_FAULT, view.exclusionCause());
        }
        assertEquals(0, node(1).deadSet().size());
        for (final int r : new int[]{0, 2, 3})
        {
            assertEquals(RankArray.of(1).toString(), RankArray.copyOf(node(r).deadSet()).toString(), "rank " + r);
            assertEquals(r == 2 ? 1 : 0, node(r).counter(ProtocolCounter.SUSPICIONS), "only the deaf node's observer suspects, rank " + r);
        }
        assertEquals(1, driverCounter(NodeCounter.RDMA_LOCAL_PORT_DOWNS, 52, 1), "published before stopping");

        cluster.fabric.portActive(cluster.fabric.nodeOf(1), true);
        assertThrows(AgentTerminationException.class, () -> agent(1).doWork(),
            "fail-stop: the port coming back does not bring the node back");
    }

    @Test
    void shouldHaveTheCoreDropANewObserverFrameWithoutAnRdmaSlotAndTakeOneWithIt()
    {
        // δ long enough that rank 0, run alone, suspects nobody
        cluster = new EmbeddedCluster(N, 53, HEARTBEAT_NS, TimeUnit.SECONDS.toNanos(30), TransportMode.RDMA);
        final ClusterChannels channels = new ClusterChannels(cluster.nodes[0].context());
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
            Publication toNode0 = aeron.addPublication(channels.controlChannel(0), channels.controlStream(0)))
        {
            // every node's agent runs for a moment: the successors must answer rank 0's connection handshakes to grant them
            cluster.run(300, 0, 1, 2, 3);
            runNode0Until(toNode0::isConnected, "a UDP publication to rank 0's control port connects");
            final DetectorNode node0 = node(0);
            final int digest = cluster.nodes[0].context().configDigest();
            final FrameStamper stamper = new FrameStamper(N, FrameAuthenticator.NONE);

            // as a node without RDMA would send it: no slot (from rank 1, rank 0's nearest live successor: a farther
            // one's NEW_OBSERVER waits until rank 0's view agrees, whatever its slot)
            offer(toNode0, buffer,
                stamper.stamp(buffer, 0, new NewObserverFlyweight().encode(buffer, 0, 53, 1, 9, digest, 0)));
            runNode0Until(() -> node0.counter(ProtocolCounter.NEW_OBSERVER_REFUSED) == 1, "the core drops the frame RDMA refuses");
            assertEquals(1, rdma(0).counters().descriptorsRejected());
            assertTrue(rdma(0).lastError().contains("RDMA slot address is 0"), rdma(0).lastError());
            assertEquals(1, node0.observer(), "rank 0 keeps its observer");

            final RemoteSlot slot1 = rdma(1).localSlot();
            offer(toNode0, buffer, stamper.stamp(buffer, 0, new NewObserverFlyweight().encode(buffer, 0, 53, 1, 9,
                digest, 0, slot1.rkey(), slot1.address(), slot1.length())));
            runNode0Until(() -> rdma(0).counters().mendsOntoPreConnected() == 1,
                "the frame with rank 1's slot is taken, onto its pre-connected connection");
            assertEquals(1, node0.observer());
            assertEquals(1, node0.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
            assertTrue(rdma(1).readHeartbeat(0) > 0, "T4's beat is in rank 1's registered slot");
        }
    }

    @Test
    void shouldRefuseToLaunchWithTheReasonAndTheDoctorHintWhereRdmaIsUnusable()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeFalse(availability.usable(), "this host can do RDMA: the refusal cannot be shown here");
        final File aeronDir = new File(tempDir, "aeron");
        try (MediaDriver driver = MediaDriver.launch(Drivers.lowFootprint(aeronDir.getAbsolutePath())))
        {
            final ClusterConfig config = new ClusterConfig(54, -1, -1,
                FreePorts.withRdmaEndpoints(FreePorts.localhostMembers(2), InetAddress.getLoopbackAddress()));
            final RingwatchContext ctx = new RingwatchContext().authMode(AuthMode.OFF).cluster(config).rank(0).transport(TransportMode.RDMA)
                .embeddedDriver(false).aeronDirectoryName(driver.aeronDirectoryName())
                .threadingMode(ThreadingMode.UNSTARTED);

            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> RingwatchNode.launch(ctx));
            assertTrue(ex.getMessage().startsWith("transport=rdma, but RDMA is unusable for rank 0 on this host: " +
                availability.reason() + " (java -jar ringwatch.jar doctor"), ex.getMessage());
        }
        finally
        {
            IoUtil.delete(aeronDir, true);
        }
    }

    private void run(final long millis)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            for (int r = 0; r < N; r++)
            {
                if (!halted[r] && !killed[r])
                {
                    try
                    {
                        agent(r).doWork();
                    }
                    catch (final AgentTerminationException ex)
                    {
                        halted[r] = true;
                    }
                }
            }
            Thread.onSpinWait();
        }
    }

    private void runNode0Until(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, what);
            agent(0).doWork();
            Thread.onSpinWait();
        }
    }

    private void offer(final Publication publication, final UnsafeBuffer buffer, final int length)
    {
        runNode0Until(() -> publication.offer(buffer, 0, length) > 0, "offer a frame to rank 0");
    }

    private long driverCounter(final NodeCounter counter, final int clusterId, final int rank)
    {
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath())))
        {
            final CountersReader reader = aeron.countersReader();
            final long[] value = {Long.MIN_VALUE};
            reader.forEach((counterId, typeId, key, label) ->
            {
                if (typeId == counter.typeId() && key.getInt(0, LITTLE_ENDIAN) == clusterId &&
                    key.getInt(4, LITTLE_ENDIAN) == rank)
                {
                    value[0] = reader.getCounterValue(counterId);
                }
            });
            assertTrue(value[0] != Long.MIN_VALUE, "no counter " + counter + " for rank " + rank);
            return value[0];
        }
    }

    private RingwatchAgent agent(final int rank)
    {
        return NodeInternals.agent(cluster.nodes[rank]);
    }

    private DetectorNode node(final int rank)
    {
        return agent(rank).node();
    }

    private RdmaHeartbeats rdma(final int rank)
    {
        return ((RdmaHeartbeatTransport)agent(rank).heartbeatTransport()).rdma();
    }
}
