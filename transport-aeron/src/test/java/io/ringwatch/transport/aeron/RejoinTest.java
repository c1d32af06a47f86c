package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

    @Test
    void shouldReadmitACrashedRankUnderANewIncarnationEverywhere()
    {
        cluster = new EmbeddedCluster(4, CLUSTER_ID, HEARTBEAT_NS, TIMEOUT_NS);
        cluster.run(300, 0, 1, 2, 3);
        // the startup grace (1 s) has to end before anyone is suspected
        cluster.run(2000, 0, 1, 3);
        for (final int r : new int[] {0, 1, 3})
        {
            assertFalse(cluster.nodes[r].agent().node().isAlive(2), "rank " + r + " saw the death");
        }

        cluster.nodes[2].close();
        cluster.nodes[2] = RingwatchNode.launch(cluster.context(2).join(true).threadingMode(ThreadingMode.UNSTARTED));
        final int incarnation = cluster.nodes[2].context().incarnation();
        assertTrue(incarnation > 0);
        cluster.nodes[2].agent().onStart();
        assertEquals(NodeState.JOINING, cluster.nodes[2].agent().node().state());

        // the joiner asks once its startup grace (1 s here) is over
        cluster.run(2500, 0, 1, 2, 3);

        final DetectorNode joiner = cluster.nodes[2].agent().node();
        assertEquals(NodeState.ACTIVE, joiner.state());
        assertTrue(joiner.joinConfirmed(), "adopted by both neighbours");
        assertEquals(1, joiner.emitter());
        assertEquals(3, joiner.observer());
        for (final int r : new int[] {0, 1, 3})
        {
            final DetectorNode survivor = cluster.nodes[r].agent().node();
            assertTrue(survivor.isAlive(2), "rank " + r + " readmitted 2");
            assertEquals(incarnation, survivor.incarnationOf(2));
            assertEquals(0, survivor.deadSet().size());
            assertEquals(r == 3 ? 1 : 0, survivor.suspicions(), "only 3 (2's observer) detected, and only the crash");
        }
        assertEquals(2, cluster.nodes[3].agent().node().emitter());
        assertEquals(2, cluster.nodes[1].agent().node().observer());

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
}
