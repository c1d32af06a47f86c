package io.ringwatch.transport.rdma;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.protocol.Deliver;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
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
    static final long EVENT_POLL_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(20);
    /** rdma_cm's latency, then the handshake: challenge, hello, grant, one message per node poll. */
    static final long SET_UP_NS = CONNECT_LATENCY_NS + 4 * STEP_NS;
    static final FrameAuthenticator KEYS = FrameAuthenticator.withKey(key(0x5A));

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
            .authenticator(KEYS.newInstance())
            .clusterId(42)
            .configDigest(0x1234)
            .verbs(verbs)
            .nanoClock(() -> fabric.nowNs)
            .signalInterval(SIGNAL_INTERVAL)
            .connectTimeoutNs(CONNECT_TIMEOUT_NS)
            .reconnectBackoffNs(BACKOFF_NS)
            .eventPollIntervalNs(EVENT_POLL_INTERVAL_NS)
            .portCheckIntervalNs(TimeUnit.MICROSECONDS.toNanos(200));
    }

    static byte[] key(final int seed)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(seed + 31 * i);
        }
        return key;
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
        run(SET_UP_NS);

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
            assertEquals(0, nodes[r].counters().beatsDroppedNotConnected());
            assertEquals(0, nodes[r].counters().mendsAwaitingConnection());
            assertEquals(1, nodes[r].counters().beatsPosted());
        }
    }

    @Test
    void shouldPreConnectToTheNearestLiveSuccessorsAndRefillAsTheRingMends()
    {
        cluster(16, RdmaHeartbeats.preConnectCount(16));
        run(SET_UP_NS);

        final RdmaHeartbeats node14 = nodes[14];
        assertArrayEquals(new int[]{ 15, 0, 1, 2, 3 }, node14.preConnectSet());
        assertEquals(5, node14.connectedCount());
        assertEquals(5, node14.counters().connectionsEstablished());
        for (final RdmaHeartbeats node : nodes)
        {
            assertEquals(5, node.counters().inboundAccepted(), "each node is pre-connected to by its 5 nearest predecessors");
        }
        assertEquals(CONNECT_LATENCY_NS + 2 * STEP_NS, node14.counters().connectTimeMaxNs(),
            "rdma_cm's latency, then the handshake's three messages over two duty cycles, on the duty clock");

        node14.onViewChange(RankArray.of(1, 15), fabric.nowNs);
        assertArrayEquals(new int[]{ 0, 2, 3, 4, 5 }, node14.preConnectSet());
        assertFalse(node14.isConnectedTo(15), "connection to a dead rank released at once");
        assertFalse(node14.isConnectedTo(1));
        assertEquals(3, node14.connectedCount(), "4 and 5 are being connected");
        assertArrayEquals(new int[]{ 13, 12, 11, 10, 9, 8 }, node14.expectedWriters());
        final RankArray dead = RankArray.of(1, 15);
        for (int r = 2; r < 15; r++)
        {
            nodes[r].onViewChange(dead, fabric.nowNs); // 4 and 5 expect 14 once they know 15 and 1 are dead
        }
        assertArrayEquals(new int[]{ 4, 3, 2, 0, 14, 13 }, nodes[5].expectedWriters());
        run(SET_UP_NS);
        assertEquals(5, node14.connectedCount());
        assertTrue(node14.isConnectedTo(4) && node14.isConnectedTo(5));
        assertEquals(7, node14.counters().connectionsEstablished());
        assertEquals(0, node14.counters().connectFailures());
    }

    @Test
    void shouldMendOntoAPreConnectedObserverWithoutWaitingForRdmaCm()
    {
        cluster(8, RdmaHeartbeats.preConnectCount(8));
        run(SET_UP_NS);

        fabric.kill(verbs[1]);
        final RemoteSlot slot2 = nodes[2].localSlot();
        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        assertTrue(nodes[0].onNewObserver(2, slot2.rkey(), slot2.address(), slot2.length(), fabric.nowNs));
        nodes[0].writeHeartbeat(2, 99); // same instant: no connection to wait for

        assertEquals(99, nodes[2].readHeartbeat(0));
        assertEquals(1, nodes[0].counters().mendsOntoPreConnected());
        assertEquals(0, nodes[0].counters().mendsAwaitingConnection());
        assertEquals(0, nodes[0].counters().beatsDroppedNotConnected());
        assertEquals(0, nodes[0].counters().descriptorsReplaced(), "NEW_OBSERVER confirmed what the connection brought");
    }

    @Test
    void shouldWaitForRdmaCmWhenTheNewObserverWasNotPreConnected()
    {
        // the negative control of the test above: keeping only the current observer connected costs a connect
        cluster(8, 1);
        run(SET_UP_NS);
        assertEquals(1, nodes[0].connectedCount());

        fabric.kill(verbs[1]);
        final RemoteSlot slot2 = nodes[2].localSlot();
        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        assertTrue(nodes[0].onNewObserver(2, slot2.rkey(), slot2.address(), slot2.length(), fabric.nowNs));
        nodes[0].writeHeartbeat(2, 99);

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[2].readHeartbeat(0));
        assertEquals(1, nodes[0].counters().mendsAwaitingConnection());
        assertEquals(1, nodes[0].counters().beatsDroppedNotConnected());
        run(SET_UP_NS);
        nodes[0].writeHeartbeat(2, 100);
        assertEquals(100, nodes[2].readHeartbeat(0));
    }

    @Test
    void shouldReconnectAfterAQueuePairErrorWithoutThrowing()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(SET_UP_NS);
        assertTrue(verbs[0].breakConnectionTo(verbs[1]));

        long counter = 0;
        for (int i = 0; i < SIGNAL_INTERVAL; i++)
        {
            // the first fails on the wire; its error completion surfaces once a signalled write is outstanding
            nodes[0].writeHeartbeat(1, ++counter);
        }
        run(STEP_NS);
        assertEquals(1, nodes[0].counters().completionErrors());
        assertEquals(SIGNAL_INTERVAL, nodes[0].counters().beatsPosted(), "posted; the fabric failed them");
        assertFalse(nodes[0].isConnectedTo(1));
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(1, nodes[0].counters().beatsDroppedNotConnected());

        run(BACKOFF_NS + SET_UP_NS);
        assertTrue(nodes[0].isConnectedTo(1), nodes[0].lastError());
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(counter, nodes[1].readHeartbeat(0));
        assertEquals(RdmaHeartbeats.preConnectCount(4) + 1, nodes[0].counters().connectionsEstablished());
        assertTrue(nodes[0].lastError().contains(InMemoryFabric.RETRY_EXCEEDED), nodes[0].lastError());
    }

    @Test
    void shouldSignalEveryNthWriteAndReapItsCompletion()
    {
        cluster(2, 1);
        run(SET_UP_NS);

        for (int counter = 1; counter <= 10 * SIGNAL_INTERVAL; counter++)
        {
            nodes[0].writeHeartbeat(1, counter);
            nodes[0].poll(fabric.nowNs);
        }

        assertEquals(10 * SIGNAL_INTERVAL, nodes[0].counters().beatsPosted());
        assertEquals(10, nodes[0].counters().completionsReaped());
        assertEquals(0, nodes[0].counters().beatsDroppedQueueFull());
        assertEquals(10L * SIGNAL_INTERVAL, nodes[1].readHeartbeat(0));
    }

    @Test
    void shouldCountErrorCompletionsWhileTheObserversPortIsDownAndResumeWhenItReturns()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(SET_UP_NS);
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

        assertTrue(nodes[0].counters().completionErrors() >= 1, "the first failed write");
        assertTrue(nodes[0].counters().connectFailures() >= 5, "reconnects refused while the port is down, backing off: " +
            nodes[0].counters().connectFailures());
        assertTrue(nodes[0].counters().beatsDroppedNotConnected() > 80, "beats counted, not thrown");
        assertTrue(nodes[1].isLocalPortActive() == false && nodes[1].counters().localPortDowns() == 1);
        assertTrue(nodes[0].isLocalPortActive(), "the writer's own port is fine");

        fabric.portActive(verbs[1], true);
        // the observer sees the new request at its next paced event poll, as rdma_cm's accept always waited for
        run(BACKOFF_NS + SET_UP_NS + EVENT_POLL_INTERVAL_NS);
        nodes[0].writeHeartbeat(1, ++counter);
        assertEquals(counter, nodes[1].readHeartbeat(0));
        assertTrue(counter > beforeUp + 1);
        assertTrue(nodes[1].isLocalPortActive());
    }

    @Test
    void shouldCountADisconnectWhenThePeerProcessDiesAndStopRetryingOnceItIsDeclaredDead()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(SET_UP_NS);

        fabric.kill(verbs[1]);
        run(TimeUnit.MILLISECONDS.toNanos(20) + STEP_NS); // the paced event poll sees the disconnect
        assertEquals(1, nodes[0].counters().disconnects());
        run(TimeUnit.MILLISECONDS.toNanos(60));
        final long failuresWhileUndeclared = nodes[0].counters().connectFailures();
        assertTrue(failuresWhileUndeclared >= 1, "still wanted: retried and refused");

        nodes[0].onViewChange(RankArray.of(1), fabric.nowNs);
        run(TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(failuresWhileUndeclared, nodes[0].counters().connectFailures(), "no attempts to a dead rank");
        assertArrayEquals(new int[]{ 2, 3 }, nodes[0].preConnectSet());
        assertTrue(nodes[0].isConnectedTo(2) && nodes[0].isConnectedTo(3));
    }

    @Test
    void shouldTimeOutAConnectionAttemptThatNeverCompletes()
    {
        fabric.connectLatencyNs = CONNECT_TIMEOUT_NS * 10;
        cluster(2, 1);
        run(CONNECT_TIMEOUT_NS + STEP_NS);

        assertEquals(1, nodes[0].counters().connectFailures());
        assertTrue(nodes[0].lastError().contains("timed out"), nodes[0].lastError());
        assertFalse(nodes[0].isConnectedTo(1));
    }

    @Test
    void shouldRejectAnInvalidNewObserverDescriptorAndCountIt()
    {
        cluster(3, 2);
        run(SET_UP_NS);

        assertFalse(nodes[0].onNewObserver(2, 1, 0L, 64, fabric.nowNs));
        assertFalse(nodes[0].onNewObserver(2, 1, 0x1001L, 64, fabric.nowNs));
        assertFalse(nodes[0].onNewObserver(0, 1, 0x1000L, 64, fabric.nowNs));

        assertEquals(3, nodes[0].counters().descriptorsRejected());
        assertTrue(nodes[0].lastError().contains("not a peer rank"), nodes[0].lastError());
    }

    @Test
    void shouldHaveTheProtocolDropANewObserverFrameWhoseSlotRdmaRefuses()
    {
        cluster(4, RdmaHeartbeats.preConnectCount(4));
        run(SET_UP_NS);
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
        Deliver.newObserver(node0, 1, InboundFrame.UNKNOWN_INCARNATION, 0, 0, 0L, 0, fabric.nowNs);
        assertEquals(1, node0.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
        assertEquals(1, nodes[0].counters().descriptorsRejected());
        assertEquals(1, node0.observer(), "the node keeps its observer");
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[1].readHeartbeat(0), "nothing written to the refused rank");

        // rank 2 took this node on when 1 died; its offer waits until this node knows of that death too
        final RemoteSlot slot2 = nodes[2].localSlot();
        Deliver.newObserver(node0, 2, InboundFrame.UNKNOWN_INCARNATION, 0, slot2.rkey(), slot2.address(), slot2.length(),
            fabric.nowNs);
        assertEquals(1, node0.observer());
        Deliver.notice(node0, new ReusableNotice().set(1, 3, 0, 1, RankArray.of(1)).subject(0, false), 3,
            InboundFrame.UNKNOWN_INCARNATION, fabric.nowNs);
        assertEquals(2, node0.observer());
        assertTrue(nodes[2].readHeartbeat(0) > 0, "T4's immediate beat landed by RDMA WRITE");
        assertEquals(1, nodes[0].counters().mendsOntoPreConnected());
    }

    @Test
    void shouldUseTheGrantsRkeyAndReconnectWhenNewObserverNamesAnotherSlot()
    {
        cluster(3, 2);
        run(SET_UP_NS);
        final RemoteSlot real = nodes[2].localSlot();
        assertEquals(0, real.rkey(), "frames carry no rkey");

        assertTrue(nodes[0].onNewObserver(2, 0xBAD, real.address(), real.length(), fabric.nowNs));
        nodes[0].writeHeartbeat(2, 1);
        assertEquals(1, nodes[2].readHeartbeat(0), "the frame's rkey is not used: the grant's is");
        assertEquals(0, nodes[0].counters().descriptorsReplaced());

        assertTrue(nodes[0].onNewObserver(2, 0, real.address() + 64, real.length(), fabric.nowNs));
        assertEquals(1, nodes[0].counters().descriptorsReplaced());
        assertFalse(nodes[0].isConnectedTo(2), "another slot: not the process this connection reached");
        nodes[0].writeHeartbeat(2, 2);
        assertEquals(1, nodes[0].counters().beatsDroppedNotConnected());

        run(BACKOFF_NS + SET_UP_NS);
        nodes[0].writeHeartbeat(2, 9); // a new connection, a new handshake, a new grant
        assertEquals(9, nodes[2].readHeartbeat(0));
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[2].readHeartbeat(1), "the word credits its writer only");
    }
}
