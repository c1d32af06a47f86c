package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.internal.NodeCounters;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.RingwatchAgent;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nodes with a real embedded media driver, duty cycles driven by the test thread, except where a test is about
 * another threading mode.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingwatchNodeTest
{
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
    void shouldDetectNodeWhoseDutyCycleStopsAndSpreadItToEveryone()
    {
        cluster = new EmbeddedCluster(3, 11, HEARTBEAT_NS, TIMEOUT_NS);
        cluster.run(300, 0, 1, 2);
        assertEquals(0, NodeInternals.agent(cluster.nodes[0]).node().deadSet().size(), "no suspicion while all run");

        cluster.run(1000, 0, 1);

        final DetectorNode observer = NodeInternals.agent(cluster.nodes[0]).node();
        final DetectorNode other = NodeInternals.agent(cluster.nodes[1]).node();
        assertFalse(observer.isAlive(2));
        assertFalse(other.isAlive(2));
        assertEquals(1, observer.counter(ProtocolCounter.SUSPICIONS), "rank 0 watches rank 2 and detects it");
        assertEquals(1, observer.deadSet().size());
        assertEquals(1, other.deadSet().size());

        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 11, 1)))
        {
            final ViewSnapshot view = reader.read(new ViewSnapshot());
            assertTrue(view.isDead(2));
            assertEquals(ViewLayout.CAUSE_NOTICE, view.cause(2));
            assertEquals(0, view.reporter(2));
            assertEquals(1, view.deadCount());
            assertEquals(NodeState.ACTIVE, view.state());
        }
    }

    @Test
    void shouldAnnounceGracefulLeaveWithoutWaitingForTimeout()
    {
        cluster = new EmbeddedCluster(3, 12, HEARTBEAT_NS, TimeUnit.SECONDS.toNanos(30));
        cluster.run(200, 0, 1, 2);

        NodeInternals.agent(cluster.nodes[1]).requestLeave();
        cluster.run(200, 0, 1, 2);

        assertEquals(NodeState.LEFT, NodeInternals.agent(cluster.nodes[1]).node().state());
        assertEquals(0, NodeInternals.agent(cluster.nodes[1]).stopped().getCount());
        assertFalse(NodeInternals.agent(cluster.nodes[0]).node().isAlive(1), "δ is 30s, so only the LEAVE can explain this");
        assertFalse(NodeInternals.agent(cluster.nodes[2]).node().isAlive(1));
        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 12, 2)))
        {
            final ViewSnapshot view = reader.read(new ViewSnapshot());
            assertEquals(ViewLayout.CAUSE_LEFT, view.cause(1));
        }
    }

    @Test
    void shouldCountAndDropMalformedFramesAndKeepWorking()
    {
        cluster = new EmbeddedCluster(3, 13, HEARTBEAT_NS, TIMEOUT_NS);
        cluster.run(200, 0, 1, 2);
        final RingwatchAgent target = NodeInternals.agent(cluster.nodes[0]);
        final long progressBefore = target.node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);

        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
            Publication publication = aeron.addPublication(
                new ClusterChannels(cluster.nodes[0].context()).controlChannel(0),
                RingwatchConfiguration.CONTROL_STREAM_ID_DEFAULT))
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);
            final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
            final int digest = cluster.nodes[0].context().configDigest();
            final FrameStamper stamper = new FrameStamper(3, FrameAuthenticator.NONE);

            heartbeat.encode(buffer, 0, 999, 1, 1, 0, digest, 5, 0);
            offer(publication, buffer, stamper.stamp(buffer, 0, HeartbeatFlyweight.LENGTH));

            new LeaveFlyweight().encode(buffer, 0, 13, 1, 1, 0, digest);
            buffer.putByte(0, (byte)9);
            offer(publication, buffer, stamper.stamp(buffer, 0, LeaveFlyweight.LENGTH));

            heartbeat.encode(buffer, 0, 13, 77, 1, 0, digest, 5, 0);
            offer(publication, buffer, stamper.stamp(buffer, 0, HeartbeatFlyweight.LENGTH));

            heartbeat.encode(buffer, 0, 13, 1, 1, 0, digest + 1, 5, 0);
            offer(publication, buffer, stamper.stamp(buffer, 0, HeartbeatFlyweight.LENGTH));

            heartbeat.encode(buffer, 0, 13, 1, 1, 0, digest, 5, 0);
            offer(publication, buffer, 10);

            heartbeat.encode(buffer, 0, 13, 1, 1, 0, digest, 5, 0);
            offer(publication, buffer, HeartbeatFlyweight.LENGTH - 1);

            cluster.run(300, 0, 1, 2);
        }

        final NodeCounters counters = target.counters();
        assertEquals(1, counters.rejected(RejectReason.WRONG_CLUSTER));
        assertEquals(1, counters.rejected(RejectReason.UNSUPPORTED_VERSION));
        assertEquals(1, counters.rejected(RejectReason.SENDER_OUT_OF_RANGE));
        assertEquals(1, counters.rejected(RejectReason.CONFIG_MISMATCH));
        assertEquals(1, counters.rejected(RejectReason.TOO_SHORT));
        assertEquals(1, counters.rejected(RejectReason.WRONG_LENGTH));
        assertEquals(6, counters.rejectedTotal());

        assertTrue(target.node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > progressBefore, "still sees heartbeats");
        for (final RingwatchNode node : cluster.nodes)
        {
            assertEquals(0, NodeInternals.agent(node).node().deadSet().size(), "nobody suspected after garbage");
            assertEquals(NodeState.ACTIVE, NodeInternals.agent(node).node().state());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportMode.class)
    void shouldNotAllocateInSteadyStateDutyCycle(final TransportMode transport)
    {
        cluster = new EmbeddedCluster(3, 14, HEARTBEAT_NS, TIMEOUT_NS, transport);
        final AgentInvoker invoker = new AgentInvoker(Throwable::printStackTrace, null, new CompositeAgent(
            NodeInternals.agent(cluster.nodes[0]), NodeInternals.agent(cluster.nodes[1]), NodeInternals.agent(cluster.nodes[2])));
        invoker.start();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

        // warm up: first-use paths (class init, lambda linkage, JIT) may allocate once; steady state must not.
        // Pass on three consecutive 1 s windows without a byte allocated: an allocation on every cycle, or
        // periodically within 3 s, fails every attempt.
        invokeFor(invoker, 3000);
        final long progressBefore = NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
        final long cyclesBefore = invocations;
        final StringBuilder windows = new StringBuilder();
        int zeroRun = 0;
        for (int i = 0; i < 8 && zeroRun < 3; i++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            invokeFor(invoker, 1000);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            windows.append(' ').append(allocated);
            zeroRun = allocated == 0 ? zeroRun + 1 : 0;
        }

        final long cycles = invocations - cyclesBefore;
        assertTrue(NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > progressBefore,
            "the measured cycles did real work");
        assertEquals(0, NodeInternals.agent(cluster.nodes[0]).node().deadSet().size());
        assertEquals(3, zeroRun, "bytes allocated per 1 s window over " + cycles + " duty cycles of 3 nodes on " +
            transport + ":" + windows);
        invoker.close();
    }

    @Test
    void shouldDetectThroughInvokersTheTestThreadDrives()
    {
        cluster = new EmbeddedCluster(3, 15, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.IPC,
            ctx -> ctx.threadingMode(ThreadingMode.INVOKER));
        for (final RingwatchNode node : cluster.nodes)
        {
            assertTrue(node.invoker().isStarted(), "launch starts the invoker");
            assertTrue(node.invoker().isRunning());
        }

        invoke(300, 0, 1, 2);
        assertEquals(0, NodeInternals.agent(cluster.nodes[0]).node().deadSet().size(), "no suspicion while all run");
        assertTrue(NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > 0, "heartbeats flow");

        invoke(1000, 0, 1);

        final DetectorNode watcher = NodeInternals.agent(cluster.nodes[0]).node();
        assertFalse(watcher.isAlive(2), () -> "rank 0: " + watcher.state() + ", probes sent " + watcher.counter(ProtocolCounter.PROBES_SENT) +
            ", rank 1 probes sent " + NodeInternals.agent(cluster.nodes[1]).node().counter(ProtocolCounter.PROBES_SENT));
        assertFalse(NodeInternals.agent(cluster.nodes[1]).node().isAlive(2));
        assertEquals(1, NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.SUSPICIONS), "rank 0 watches rank 2 and detects it");
    }

    @Test
    void shouldRunDedicatedNodesOnThreadsOfTheirOwnOnlyOnceTheirStartGateOpens() throws Exception
    {
        final long gateNs = TimeUnit.MILLISECONDS.toNanos(200);
        final long graceNs = TimeUnit.SECONDS.toNanos(1);
        final long[] releasedAtNs = new long[3];
        final long[] beatsAtGate = new long[3];
        final DeadlineIdleStrategy[] idle = new DeadlineIdleStrategy[3];
        cluster = new EmbeddedCluster(3, 16, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.IPC, ctx ->
        {
            final int rank = ctx.rank();
            idle[rank] = new DeadlineIdleStrategy(TimeUnit.MILLISECONDS.toNanos(50));
            return ctx.threadingMode(ThreadingMode.DEDICATED).idleStrategy(idle[rank]).startGate(node ->
            {
                final long openAt = System.nanoTime() + gateNs;
                assertTrue(node.holdUntil(() -> System.nanoTime() - openAt >= 0, 10_000));
                beatsAtGate[rank] = NodeInternals.agent(node).node().counter(ProtocolCounter.HEARTBEATS_SENT);
                releasedAtNs[rank] = System.nanoTime();
            });
        });

        try (ViewReader reader0 = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 16, 0));
            ViewReader reader1 = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 16, 1)))
        {
            final ViewSnapshot view0 = new ViewSnapshot();
            final ViewSnapshot view1 = new ViewSnapshot();
            Await.until(20, () -> reader0.read(view0).heartbeatProgress() > 100, "rank 0 sees rank 2's heartbeats");
            assertTrue(idle[0].parkNs() <= HEARTBEAT_NS, "the deadline idle strategy reads the protocol's " +
                "deadlines: a heartbeat is due within η, not after the 50 ms cap: " + idle[0].parkNs());
            assertThrows(IllegalStateException.class, () -> cluster.nodes[0].holdUntil(() -> true, 1));

            cluster.nodes[2].close();

            Await.until(20, () -> reader0.read(view0).isDead(2) && reader1.read(view1).isDead(2),
                "ranks 0 and 1 learn that rank 2 stopped");
            assertEquals(NodeState.ACTIVE, view0.state(), "rank 0 is still active");
        }
        // after close their threads are gone, so their fields read as they left them
        cluster.nodes[0].close();
        cluster.nodes[1].close();
        for (int r = 0; r < 3; r++)
        {
            assertEquals(0, beatsAtGate[r], "rank " + r + " sent nothing before its gate opened");
            // the startup grace counts from the agent's onStart, which must come after the gate
            assertTrue(NodeInternals.agent(cluster.nodes[r]).node().armedAtNs() - graceNs - releasedAtNs[r] >= 0,
                "rank " + r + " started after its gate opened");
        }
    }

    @Test
    void shouldLeaveAnUnstartedAgentToTheCompositeAgentHostingIt() throws Exception
    {
        cluster = new EmbeddedCluster(3, 17, HEARTBEAT_NS, TIMEOUT_NS);
        Thread.sleep(50);
        for (final RingwatchNode node : cluster.nodes)
        {
            assertNull(node.invoker());
            assertEquals(0, NodeInternals.agent(node).node().counter(ProtocolCounter.HEARTBEATS_SENT), "launch runs nothing when unstarted");
        }

        final AgentRunner host = new AgentRunner(new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(100)),
            Throwable::printStackTrace, null, new CompositeAgent(
            NodeInternals.agent(cluster.nodes[0]), NodeInternals.agent(cluster.nodes[1]), NodeInternals.agent(cluster.nodes[2])));
        AgentRunner.startOnThread(host);
        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 17, 1)))
        {
            final ViewSnapshot view = new ViewSnapshot();
            Await.until(20, () -> reader.read(view).heartbeatProgress() > 100, "rank 1 sees rank 0's heartbeats");
            assertEquals(0, view.deadCount());
        }
        finally
        {
            host.close();
        }
    }

    private void invoke(final long millis, final int... ranks)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            for (final int r : ranks)
            {
                cluster.nodes[r].invoker().invoke();
            }
            Thread.onSpinWait();
        }
    }

    private long invocations;

    private void invokeFor(final AgentInvoker invoker, final long millis)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            invoker.invoke();
            invocations++;
        }
    }

    private void offer(final Publication publication, final UnsafeBuffer buffer, final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (publication.offer(buffer, 0, length) < 0)
        {
            cluster.run(1, 0, 1, 2);
            assertTrue(System.nanoTime() - deadline < 0, "could not offer test frame");
        }
    }
}
