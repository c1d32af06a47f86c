package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank of a live cluster dies, is detected, and comes back as a new node under a new incarnation through the
 * join protocol: real media driver, real frames (JOIN_REQUEST, JOIN, VIEW), duty cycles driven by the test thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejoinTest
{
    private static final int CLUSTER_ID = 31;
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private EmbeddedCluster cluster;

    @AfterEach
    void tearDown()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /**
     * Over UDP too: the rejoined rank's heartbeat socket is new, its successor re-connects its own to it when it
     * takes it as emitter again, and its control publications are new sessions to the others' drivers.
     */
    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"IPC", "UDP"})
    void shouldReadmitACrashedRankUnderANewIncarnationEverywhere(final TransportMode transport)
        throws InterruptedException
    {
        cluster = new EmbeddedCluster(4, CLUSTER_ID, HEARTBEAT_NS, TIMEOUT_NS, transport);
        cluster.run(300, 0, 1, 2, 3);
        // the startup grace (1 s) has to end before anyone is suspected
        cluster.run(2000, 0, 1, 3);
        for (final int r : new int[] {0, 1, 3})
        {
            assertFalse(NodeInternals.agent(cluster.nodes[r]).node().isAlive(2), "rank " + r + " saw the death");
        }

        // over UDP the shared driver closes the closed node's receive endpoint on its own time; the new node waits
        cluster.nodes[2].close();
        cluster.nodes[2] = RingwatchNode.launch(cluster.context(2).authMode(AuthMode.OFF).join(true).threadingMode(ThreadingMode.UNSTARTED));
        final long incarnation = cluster.nodes[2].context().incarnation();
        assertTrue(incarnation > 0);
        NodeInternals.agent(cluster.nodes[2]).onStart();
        assertEquals(NodeState.JOINING, NodeInternals.agent(cluster.nodes[2]).node().state());

        // the joiner asks once its startup grace (1 s here) is over
        cluster.run(2500, 0, 1, 2, 3);

        final DetectorNode joiner = NodeInternals.agent(cluster.nodes[2]).node();
        assertEquals(NodeState.ACTIVE, joiner.state());
        assertTrue(joiner.joinConfirmed(), "adopted by both neighbours");
        assertEquals(1, joiner.emitter());
        assertEquals(3, joiner.observer());
        for (final int r : new int[] {0, 1, 3})
        {
            final DetectorNode survivor = NodeInternals.agent(cluster.nodes[r]).node();
            assertTrue(survivor.isAlive(2), "rank " + r + " readmitted 2");
            assertEquals(incarnation, survivor.incarnationOf(2));
            assertEquals(0, survivor.deadSet().size());
            assertEquals(r == 3 ? 1 : 0, survivor.counter(ProtocolCounter.SUSPICIONS), "only 3 (2's observer) detected, and only the crash");
        }
        assertEquals(2, NodeInternals.agent(cluster.nodes[3]).node().emitter());
        assertEquals(2, NodeInternals.agent(cluster.nodes[1]).node().observer());

        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), CLUSTER_ID, 0)))
        {
            final ViewSnapshot view = reader.read(new ViewSnapshot());
            assertFalse(view.isDead(2));
            assertEquals(ViewLayout.CAUSE_JOINED, view.cause(2));
            assertEquals(incarnation, view.incarnation(2));
        }
        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), CLUSTER_ID, 2)))
        {
            final ViewSnapshot view = reader.read(new ViewSnapshot());
            assertEquals(NodeState.ACTIVE, view.state());
            assertEquals(incarnation, view.incarnation(2));
        }
    }

    /**
     * Two neighbours die and come back; the second asks the first, which rejoined already, to admit it. Before it
     * asks, a frame of its contact's old life reaches it (live, one left queued on its control stream by the dead
     * process): admitted on first use, it would make the new process refuse its contact's VIEW and its successor's
     * NEW_OBSERVER (the same node, rejoined), so it would never beat to its successor and be declared dead again.
     */
    @Test
    void shouldAdmitAJoinerWhoseContactRejoinedAfterAFrameOfTheContactsOldLife()
    {
        cluster = new EmbeddedCluster(4, CLUSTER_ID, HEARTBEAT_NS, TIMEOUT_NS);
        final long bootIncarnation2 = cluster.nodes[2].context().incarnation();
        cluster.run(300, 0, 1, 2, 3);
        cluster.nodes[1].close();
        cluster.nodes[2].close();
        cluster.run(2000, 0, 3);
        assertFalse(NodeInternals.agent(cluster.nodes[0]).node().isAlive(1));
        assertFalse(NodeInternals.agent(cluster.nodes[0]).node().isAlive(2));

        cluster.nodes[2] = RingwatchNode.launch(cluster.context(2).authMode(AuthMode.OFF).join(true).threadingMode(ThreadingMode.UNSTARTED));
        NodeInternals.agent(cluster.nodes[2]).onStart();
        cluster.run(2500, 0, 2, 3);
        assertTrue(NodeInternals.agent(cluster.nodes[2]).node().joinConfirmed(), "rank 2 rejoined first");

        cluster.nodes[1] = RingwatchNode.launch(cluster.context(1).authMode(AuthMode.OFF).join(true).threadingMode(ThreadingMode.UNSTARTED));
        final long incarnation1 = cluster.nodes[1].context().incarnation();
        NodeInternals.agent(cluster.nodes[1]).onStart();
        final ClusterChannels channels = new ClusterChannels(cluster.nodes[1].context());
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
            Publication toRank1 = aeron.addPublication(channels.controlChannel(1), channels.controlStream(1)))
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
            final int length = new FrameStamper(4, FrameAuthenticator.NONE).stamp(buffer, 0, new LeaveFlyweight()
                .encode(buffer, 0, CLUSTER_ID, 2, bootIncarnation2, 1, cluster.nodes[1].context().configDigest()));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (toRank1.offer(buffer, 0, length) < 0)
            {
                assertTrue(System.nanoTime() - deadline < 0, "could not offer the old life's frame");
                NodeInternals.agent(cluster.nodes[1]).doWork();
            }
            cluster.run(50, 1);
        }

        // rank 1 asks its successor, rank 2, first once its grace is over
        cluster.run(2500, 0, 1, 2, 3);

        final DetectorNode joiner = NodeInternals.agent(cluster.nodes[1]).node();
        assertEquals(NodeState.ACTIVE, joiner.state());
        assertTrue(joiner.joinConfirmed(), "adopted by both neighbours");
        for (final int r : new int[] {0, 2, 3})
        {
            final DetectorNode survivor = NodeInternals.agent(cluster.nodes[r]).node();
            assertTrue(survivor.isAlive(1), "rank " + r + " holds 1 alive");
            assertEquals(incarnation1, survivor.incarnationOf(1));
            assertEquals(0, survivor.deadSet().size(), "rank " + r + " dead set");
        }
        assertEquals(1, NodeInternals.agent(cluster.nodes[2]).node().emitter());
    }
}
