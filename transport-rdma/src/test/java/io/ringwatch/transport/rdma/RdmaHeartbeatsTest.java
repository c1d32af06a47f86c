package io.ringwatch.transport.rdma;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RdmaHeartbeats}' logic on the in-memory fabric: what it connects to, when, what it writes where, and
 * what a failure does to it. The fabric's writes land in real registered off-heap slots, read back with the
 * runtime's own acquire load.
 */
class RdmaHeartbeatsTest
{
    static final long CONNECT_LATENCY_NS = TimeUnit.MILLISECONDS.toNanos(3);
    static final long CONNECT_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(50);
    static final long BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(10);
    static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);
    static final int SIGNAL_INTERVAL = 4;

    private final InMemoryFabric fabric = new InMemoryFabric(CONNECT_LATENCY_NS);
    private RdmaHeartbeats[] nodes = new RdmaHeartbeats[0];
    private InMemoryFabric.Node[] verbs;

    @AfterEach
    void close()
    {
        for (final RdmaHeartbeats node : nodes)
        {
            node.close();
        }
    }

    static RdmaEndpoint[] endpoints(final int n)
    {
        final RdmaEndpoint[] endpoints = new RdmaEndpoint[n];
        for (int r = 0; r < n; r++)
        {
            endpoints[r] = new RdmaEndpoint("10.1." + (r / 250) + "." + (1 + r % 250), 7471);
        }
        return endpoints;
    }

    static RdmaHeartbeats.Context context(
        final InMemoryFabric fabric, final int rank, final RdmaEndpoint[] endpoints, final RdmaVerbs verbs)
    {
        return new RdmaHeartbeats.Context()
            .rank(rank)
            .incarnation(7)
            .endpoints(endpoints)
            .verbs(verbs)
            .nanoClock(() -> fabric.nowNs)
            .signalInterval(SIGNAL_INTERVAL)
            .connectTimeoutNs(CONNECT_TIMEOUT_NS)
            .reconnectBackoffNs(BACKOFF_NS)
            .eventPollIntervalNs(TimeUnit.MILLISECONDS.toNanos(20))
            .portCheckIntervalNs(TimeUnit.MICROSECONDS.toNanos(200));
    }

    private void cluster(final int n, final int preConnect)
    {
        final RdmaEndpoint[] endpoints = endpoints(n);
        nodes = new RdmaHeartbeats[n];
        verbs = new InMemoryFabric.Node[n];
        for (int r = 0; r < n; r++)
        {
            verbs[r] = fabric.node(preConnect + 1);
            nodes[r] = new RdmaHeartbeats(context(fabric, r, endpoints, verbs[r]).preConnect(preConnect));
        }
    }

    private void run(final long durationNs)
    {
        final long end = fabric.nowNs + durationNs;
        while (fabric.nowNs - end < 0)
        {
            fabric.nowNs += STEP_NS;
            for (int r = 0; r < nodes.length; r++)
            {
                if (verbs[r].alive)
                {
                    nodes[r].poll(fabric.nowNs);
                }
            }
        }
    }

    @Test
    void shouldComputePreConnectCountAsFloorLog2PlusOneCappedByPeers()
    {
        assertEquals(1, RdmaHeartbeats.preConnectCount(2));
        assertEquals(2, RdmaHeartbeats.preConnectCount(3));
        assertEquals(3, RdmaHeartbeats.preConnectCount(4));
        assertEquals(4, RdmaHeartbeats.preConnectCount(15));
        assertEquals(5, RdmaHeartbeats.preConnectCount(16));
        assertEquals(19, RdmaHeartbeats.preConnectCount(262_144));
    }

    @Test
    void shouldExchangeSlotDescriptorsWhileConnectingSoTheInitialRingNeedsNoNewObserver()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(CONNECT_LATENCY_NS + STEP_NS);

        for (int r = 0; r < 4; r++)
        {
            final int observer = (r + 1) % 4;
            assertTrue(nodes[r].isConnectedTo(observer), "rank " + r + " to its observer " + observer);
            nodes[r].writeHeartbeat(observer, 40 + r);
        }
        for (int r = 0; r < 4; r++)
        {
            final int emitter = (r + 3) % 4;
            assertEquals(40 + emitter, nodes[r].readHeartbeat(emitter), "slot of rank " + r);
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[r].readHeartbeat((r + 2) % 4), "not written by them");
            assertEquals(7, nodes[r].slot().writerIncarnation());
            assertEquals(fabric.nowNs, nodes[r].slot().writerTimestampNs());
            assertEquals(0, nodes[r].beatsDroppedNotConnected());
            assertEquals(0, nodes[r].mendsAwaitingConnection());
            assertEquals(1, nodes[r].beatsPosted());
        }
    }

    @Test
    void shouldPreConnectToTheNearestLiveSuccessorsAndRefillAsTheRingMends()
    {
        cluster(16, RdmaHeartbeats.preConnectCount(16));
        run(CONNECT_LATENCY_NS + 2 * STEP_NS); // the last step lets every listener see its accepts

        final RdmaHeartbeats node14 = nodes[14];
        assertArrayEquals(new int[]{ 15, 0, 1, 2, 3 }, node14.preConnectSet());
        assertEquals(5, node14.connectedCount());
        assertEquals(5, node14.connectionsEstablished());
        for (final RdmaHeartbeats node : nodes)
        {
            assertEquals(5, node.inboundAccepted(), "each node is pre-connected to by its 5 nearest predecessors");
        }
        assertEquals(CONNECT_LATENCY_NS, node14.connectTimeMaxNs(), "connect time measured on the duty clock");

        node14.onViewChange(RankArray.of(1, 15), fabric.nowNs);
        assertArrayEquals(new int[]{ 0, 2, 3, 4, 5 }, node14.preConnectSet());
        assertFalse(node14.isConnectedTo(15), "connection to a dead rank released at once");
        assertFalse(node14.isConnectedTo(1));
        assertEquals(3, node14.connectedCount(), "4 and 5 are being connected");
        run(CONNECT_LATENCY_NS + STEP_NS);
        assertEquals(5, node14.connectedCount());
        assertTrue(node14.isConnectedTo(4) && node14.isConnectedTo(5));
        assertEquals(7, node14.connectionsEstablished());
        assertEquals(0, node14.connectFailures());
    }

    @Test
    void shouldMendOntoAPreConnectedObserverWithoutWaitingForRdmaCm()
    {
        cluster(8, RdmaHeartbeats.preConnectCount(8));
        run(CONNECT_LATENCY_NS + STEP_NS);

        fabric.kill(verbs[1]);
        final RemoteSlot slot2 = nodes[2].localSlot();
        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        assertTrue(nodes[0].onNewObserver(2, slot2.rkey(), slot2.address(), slot2.length(), fabric.nowNs));
        nodes[0].writeHeartbeat(2, 99); // same instant: no connection to wait for

        assertEquals(99, nodes[2].readHeartbeat(0));
        assertEquals(1, nodes[0].mendsOntoPreConnected());
        assertEquals(0, nodes[0].mendsAwaitingConnection());
        assertEquals(0, nodes[0].beatsDroppedNotConnected());
        assertEquals(0, nodes[0].descriptorsReplaced(), "NEW_OBSERVER confirmed what the connection brought");
    }

    @Test
    void shouldWaitForRdmaCmWhenTheNewObserverWasNotPreConnected()
    {
        // the negative control of the test above: keeping only the current observer connected costs a connect
        cluster(8, 1);
        run(CONNECT_LATENCY_NS + STEP_NS);
        assertEquals(1, nodes[0].connectedCount());

        fabric.kill(verbs[1]);
        final RemoteSlot slot2 = nodes[2].localSlot();
        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        assertTrue(nodes[0].onNewObserver(2, slot2.rkey(), slot2.address(), slot2.length(), fabric.nowNs));
        nodes[0].writeHeartbeat(2, 99);

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[2].readHeartbeat(0));
        assertEquals(1, nodes[0].mendsAwaitingConnection());
        assertEquals(1, nodes[0].beatsDroppedNotConnected());
        run(CONNECT_LATENCY_NS + STEP_NS);
        nodes[0].writeHeartbeat(2, 100);
        assertEquals(100, nodes[2].readHeartbeat(0));
    }

    @Test
    void shouldReconnectAfterAQueuePairErrorWithoutThrowing()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(CONNECT_LATENCY_NS + STEP_NS);
        assertTrue(verbs[0].breakConnectionTo(verbs[1]));

        long counter = 0;
        for (int i = 0; i < SIGNAL_INTERVAL; i++)
        {
            // the first fails on the wire; its error completion surfaces once a signalled write is outstanding
            nodes[0].writeHeartbeat(1, ++counter);
        }
        run(STEP_NS);
        assertEquals(1, nodes[0].completionErrors());
        assertEquals(SIGNAL_INTERVAL, nodes[0].beatsPosted(), "posted; the fabric failed them");
        assertFalse(nodes[0].isConnectedTo(1));
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(1, nodes[0].beatsDroppedNotConnected());

        run(BACKOFF_NS + CONNECT_LATENCY_NS + STEP_NS);
        assertTrue(nodes[0].isConnectedTo(1), nodes[0].lastError());
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(counter, nodes[1].readHeartbeat(0));
        assertEquals(RdmaHeartbeats.preConnectCount(4) + 1, nodes[0].connectionsEstablished());
        assertTrue(nodes[0].lastError().contains(InMemoryFabric.RETRY_EXCEEDED), nodes[0].lastError());
    }

    @Test
    void shouldSignalEveryNthWriteAndReapItsCompletion()
    {
        cluster(2, 1);
        run(CONNECT_LATENCY_NS + STEP_NS);

        for (int counter = 1; counter <= 10 * SIGNAL_INTERVAL; counter++)
        {
            nodes[0].writeHeartbeat(1, counter);
            nodes[0].poll(fabric.nowNs);
        }

        assertEquals(10 * SIGNAL_INTERVAL, nodes[0].beatsPosted());
        assertEquals(10, nodes[0].completionsReaped());
        assertEquals(0, nodes[0].beatsDroppedQueueFull());
        assertEquals(10L * SIGNAL_INTERVAL, nodes[1].readHeartbeat(0));
    }

    @Test
    void shouldCountErrorCompletionsWhileTheObserversPortIsDownAndResumeWhenItReturns()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(CONNECT_LATENCY_NS + STEP_NS);
        fabric.portActive(verbs[1], false);

        long counter = 0;
        final long downNs = TimeUnit.MILLISECONDS.toNanos(100);
        final long end = fabric.nowNs + downNs;
        while (fabric.nowNs - end < 0)
        {
            nodes[0].writeHeartbeat(1, ++counter);
            run(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final long beforeUp = nodes[1].readHeartbeat(0);

        assertTrue(nodes[0].completionErrors() >= 1, "the first failed write");
        assertTrue(nodes[0].connectFailures() >= 5, "reconnects refused while the port is down, backing off: " +
            nodes[0].connectFailures());
        assertTrue(nodes[0].beatsDroppedNotConnected() > 80, "beats counted, not thrown");
        assertTrue(nodes[1].isLocalPortActive() == false && nodes[1].localPortDowns() == 1);
        assertTrue(nodes[0].isLocalPortActive(), "the writer's own port is fine");

        fabric.portActive(verbs[1], true);
        run(BACKOFF_NS + CONNECT_LATENCY_NS + STEP_NS);
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(counter, nodes[1].readHeartbeat(0));
        assertTrue(counter > beforeUp + 1);
        assertTrue(nodes[1].isLocalPortActive());
    }

    @Test
    void shouldCountADisconnectWhenThePeerProcessDiesAndStopRetryingOnceItIsDeclaredDead()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(CONNECT_LATENCY_NS + STEP_NS);

        fabric.kill(verbs[1]);
        run(TimeUnit.MILLISECONDS.toNanos(20) + STEP_NS); // the paced event poll sees the disconnect
        assertEquals(1, nodes[0].disconnects());
        run(TimeUnit.MILLISECONDS.toNanos(60));
        final long failuresWhileUndeclared = nodes[0].connectFailures();
        assertTrue(failuresWhileUndeclared >= 1, "still wanted: retried and refused");

        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        run(TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(failuresWhileUndeclared, nodes[0].connectFailures(), "no attempts to a dead rank");
        assertArrayEquals(new int[]{ 2, 3 }, nodes[0].preConnectSet());
        assertTrue(nodes[0].isConnectedTo(2) && nodes[0].isConnectedTo(3));
    }

    @Test
    void shouldTimeOutAConnectionAttemptThatNeverCompletes()
    {
        fabric.connectLatencyNs = CONNECT_TIMEOUT_NS * 10;
        cluster(2, 1);
        run(CONNECT_TIMEOUT_NS + STEP_NS);

        assertEquals(1, nodes[0].connectFailures());
        assertTrue(nodes[0].lastError().contains("timed out"), nodes[0].lastError());
        assertFalse(nodes[0].isConnectedTo(1));
    }

    @Test
    void shouldRejectAnInvalidNewObserverDescriptorAndCountIt()
    {
        cluster(3, 2);
        run(CONNECT_LATENCY_NS + STEP_NS);

        assertFalse(nodes[0].onNewObserver(2, 1, 0L, 64, fabric.nowNs));
        assertFalse(nodes[0].onNewObserver(2, 1, 0x1001L, 64, fabric.nowNs));
        assertFalse(nodes[0].onNewObserver(0, 1, 0x1000L, 64, fabric.nowNs));

        assertEquals(3, nodes[0].descriptorsRejected());
        assertTrue(nodes[0].lastError().contains("not a peer rank"), nodes[0].lastError());
    }

    @Test
    void shouldHaveTheProtocolDropANewObserverFrameWhoseSlotRdmaRefuses()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(CONNECT_LATENCY_NS + STEP_NS);
        final ControlChannel noControl = new ControlChannel()
        {
            public void sendNewObserver(final int emitterRank)
            {
            }

            public void sendLeave(final int observerRank)
            {
            }

            public void sendProbe(final int toRank, final long token)
            {
            }

            public void sendProbeAck(final int toRank, final long token)
            {
            }

            public void sendNotice(final int toRank, final Notice notice)
            {
            }

            public void sendViewDigest(final int toRank, final long digest)
            {
            }
        };
        final DetectorNode node0 = new DetectorNode(0, 7, ProtocolSettings.of(4, STEP_NS * 10, STEP_NS * 100),
            new DoubleHypercubeSchedule(), nodes[0], noControl, MembershipListener.NO_OP, fabric.nowNs);

        // a peer that sends no RDMA slot (zeros, as a UDP node would): the protocol drops the frame
        node0.onNewObserver(2, InboundFrame.UNKNOWN_INCARNATION, 0, 0, 0L, 0, fabric.nowNs);
        assertEquals(1, node0.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
        assertEquals(1, nodes[0].descriptorsRejected());
        assertEquals(1, node0.observer(), "the node keeps its observer");
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[2].readHeartbeat(0), "nothing written to the refused rank");

        final RemoteSlot slot2 = nodes[2].localSlot();
        node0.onNewObserver(2, InboundFrame.UNKNOWN_INCARNATION, 0, slot2.rkey(), slot2.address(), slot2.length(), fabric.nowNs);
        assertEquals(2, node0.observer());
        assertEquals(1, nodes[2].readHeartbeat(0), "T4's immediate beat landed by RDMA WRITE");
        assertEquals(1, nodes[0].mendsOntoPreConnected());
    }

    @Test
    void shouldReplaceTheHeldDescriptorWhenNewObserverCarriesAnotherOne()
    {
        cluster(3, 2);
        run(CONNECT_LATENCY_NS + STEP_NS);
        final RemoteSlot real = nodes[2].localSlot();

        assertTrue(nodes[0].onNewObserver(2, real.rkey() + 1, real.address(), real.length(), fabric.nowNs));
        assertEquals(1, nodes[0].descriptorsReplaced());
        for (int counter = 1; counter <= SIGNAL_INTERVAL; counter++)
        {
            nodes[0].writeHeartbeat(2, counter); // the wrong key fails like a wrong rkey on hardware
        }
        run(STEP_NS);
        assertEquals(1, nodes[0].completionErrors());
        assertTrue(nodes[0].lastError().contains(InMemoryFabric.REMOTE_ACCESS), nodes[0].lastError());

        run(BACKOFF_NS + CONNECT_LATENCY_NS + STEP_NS);
        nodes[0].writeHeartbeat(2, 9); // the new connection brought the real descriptor
        assertEquals(9, nodes[2].readHeartbeat(0));
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[2].readHeartbeat(1), "the word credits its writer only");
    }
}
