package io.ringwatch.transport.rdma;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.RankArray;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.ringwatch.transport.rdma.RdmaHeartbeatsTest.CONNECT_LATENCY_NS;
import static io.ringwatch.transport.rdma.RdmaHeartbeatsTest.CONNECT_TIMEOUT_NS;
import static io.ringwatch.transport.rdma.RdmaHeartbeatsTest.SET_UP_NS;
import static io.ringwatch.transport.rdma.RdmaHeartbeatsTest.STEP_NS;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RDMA connection handshake on the in-memory fabric, against connectors that are not who they claim: one
 * without the key, one replaying recorded handshake messages (to an observer and, posing as an observer, to an
 * emitter), a key holder of a rank the observer does not expect, and a flood of connectors at the inbound limit. In
 * each case the genuine emitter keeps writing and nobody but an expected emitter is ever granted an rkey
 * ({@link InMemoryFabric#grants()} records every grant).
 */
class RdmaHandshakeTest
{
    private static final int N = 8;
    private static final int OBSERVER = 1;
    private static final int EMITTER = 0;

    private final InMemoryFabric fabric = new InMemoryFabric(CONNECT_LATENCY_NS);
    private final RdmaEndpoint[] endpoints = RdmaHeartbeatsTest.endpoints(N);
    private final RdmaHeartbeats[] nodes = new RdmaHeartbeats[N];
    private final InMemoryFabric.Node[] verbs = new InMemoryFabric.Node[N];
    private final List<Rogue> rogues = new ArrayList<>();

    @AfterEach
    void close()
    {
        for (final RdmaHeartbeats node : nodes)
        {
            if (node != null)
            {
                node.close();
            }
        }
    }

    private void cluster()
    {
        for (int r = 0; r < N; r++)
        {
            verbs[r] = fabric.node(RdmaHeartbeats.preConnectCount(N) + 1);
            nodes[r] = new RdmaHeartbeats(RdmaHeartbeatsTest.context(fabric, r, endpoints, verbs[r]));
        }
        run(SET_UP_NS);
        assertTrue(nodes[EMITTER].isConnectedTo(OBSERVER));
        assertTrue(nodes[OBSERVER].isGrantedTo(EMITTER));
    }

    private void run(final long durationNs)
    {
        final long end = fabric.nowNs + durationNs;
        while (fabric.nowNs - end < 0)
        {
            fabric.nowNs += STEP_NS;
            for (int r = 0; r < N; r++)
            {
                if (verbs[r].alive)
                {
                    nodes[r].poll(fabric.nowNs);
                }
            }
            for (final Rogue rogue : rogues)
            {
                rogue.poll();
            }
        }
    }

    /** An emitter that beats into its observer every step, as a node's duty cycle would. */
    private long beat(final long counter, final long durationNs)
    {
        long c = counter;
        final long end = fabric.nowNs + durationNs;
        while (fabric.nowNs - end < 0)
        {
            nodes[EMITTER].writeHeartbeat(OBSERVER, ++c);
            run(STEP_NS);
        }
        return c;
    }

    private void assertOnlyExpectedWritersWereGranted()
    {
        for (final InMemoryFabric.Grant grant : fabric.grants())
        {
            boolean genuine = false;
            for (int r = 0; r < N; r++)
            {
                genuine |= grant.writer() == verbs[r];
            }
            assertTrue(genuine, "an rkey went to a connector that is no cluster node: " + grant);
        }
        for (final Rogue rogue : rogues)
        {
            assertEquals(0, rogue.grantsReceived, "a rogue received a grant");
        }
    }

    @Test
    void shouldRefuseAConnectorWithoutTheKeyAndKeepItsRkeyGuessesUseless()
    {
        cluster();
        final int grantsBefore = fabric.grants().size();
        final Rogue stranger = rogue("10.9.0.1", FrameAuthenticator.withKey(RdmaHeartbeatsTest.key(0x33)));
        stranger.answerChallengesAs(7); // a rank the observer expects, but under another key
        stranger.connectTo(OBSERVER);
        final Rogue silent = rogue("10.9.0.2", FrameAuthenticator.withKey(RdmaHeartbeatsTest.key(0x33)));
        silent.connectTo(OBSERVER);
        run(SET_UP_NS);

        assertEquals(1, stranger.challengesReceived, "the observer opens every handshake, knowing nothing yet");
        assertEquals(1, nodes[OBSERVER].counters().handshakesRefused());
        assertTrue(nodes[OBSERVER].lastError().contains("bad MAC"), nodes[OBSERVER].lastError());
        assertFalse(stranger.isUp(), "closed by the observer");
        assertEquals(grantsBefore, fabric.grants().size());

        // the silent one still holds its queue pair; it has sniffed the emitter's rkey, which is no use on it
        final RemoteSlot genuine = lastGrantTo(verbs[EMITTER]);
        assertTrue(silent.isUp());
        assertTrue(silent.verbs.postWrite(0, genuine, true));
        silent.poll();
        assertEquals(InMemoryFabric.REMOTE_ACCESS, silent.lastWriteError);
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[OBSERVER].readHeartbeat(7));

        run(CONNECT_TIMEOUT_NS);
        assertEquals(1, nodes[OBSERVER].counters().handshakeTimeouts(), "the silent one is closed after the timeout");
        assertFalse(silent.isUp());
        final long counter = beat(0, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(counter, nodes[OBSERVER].readHeartbeat(EMITTER));
        assertOnlyExpectedWritersWereGranted();
    }

    @Test
    void shouldRefuseARecordedHelloReplayedToTheObserver()
    {
        cluster();
        final byte[] recordedHello = recorded(verbs[EMITTER], verbs[OBSERVER], RdmaHello.HELLO);
        final int grantsBefore = fabric.grants().size();

        final Rogue replayer = rogue("10.9.0.3", FrameAuthenticator.withKey(RdmaHeartbeatsTest.key(0x44)));
        replayer.replayOnChallenge(recordedHello);
        replayer.connectTo(OBSERVER);
        run(SET_UP_NS);

        assertEquals(1, replayer.challengesReceived);
        assertEquals(1, nodes[OBSERVER].counters().handshakesRefused());
        assertTrue(nodes[OBSERVER].lastError().contains("answers another challenge"), nodes[OBSERVER].lastError());
        assertEquals(grantsBefore, fabric.grants().size(), "no registration for a replayed hello");
        assertTrue(nodes[OBSERVER].isGrantedTo(EMITTER), "the genuine emitter keeps its connection");
        assertTrue(nodes[EMITTER].isConnectedTo(OBSERVER));
        final long counter = beat(0, TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(counter, nodes[OBSERVER].readHeartbeat(EMITTER));
        assertOnlyExpectedWritersWereGranted();
    }

    @Test
    void shouldRefuseRecordedObserverMessagesReplayedToAnEmitter()
    {
        cluster();
        final byte[] challenge = recorded(verbs[2], verbs[EMITTER], RdmaHello.CHALLENGE);
        final byte[] grant = recorded(verbs[2], verbs[EMITTER], RdmaHello.GRANT);

        // rank 2 dies; an impostor takes its address and answers rank 0's reconnect with rank 2's recorded words
        fabric.kill(verbs[2]);
        final Rogue impostor = rogue(null, FrameAuthenticator.withKey(RdmaHeartbeatsTest.key(0x55)));
        impostor.listenAs(endpoints[2].resolve(), challenge, grant);
        run(TimeUnit.MILLISECONDS.toNanos(200) + SET_UP_NS);

        assertTrue(impostor.helloReceived, "the emitter answered the recorded challenge (its MAC is genuine)");
        assertFalse(nodes[EMITTER].isConnectedTo(2), "but refused the recorded grant");
        assertTrue(nodes[EMITTER].counters().handshakesRefused() >= 1);
        assertTrue(nodes[EMITTER].lastError().contains("replayed") ||
            nodes[EMITTER].counters().handshakesRefused() > 1, nodes[EMITTER].lastError());
        nodes[EMITTER].writeHeartbeat(2, 1);
        assertEquals(0, impostor.verbs.writesPlaced, "nothing written into the impostor's memory");
    }

    @Test
    void shouldRefuseAKeyHolderOfARankTheObserverDoesNotExpect()
    {
        cluster();
        final int grantsBefore = fabric.grants().size();
        // rank 1 lets its 5 nearest predecessors write (0, 7, 6, 5, 4); this key holder claims rank 3
        final Rogue insider = rogue("10.9.0.4", RdmaHeartbeatsTest.KEYS.newInstance());
        insider.answerChallengesAs(3);
        insider.connectTo(OBSERVER);
        run(SET_UP_NS);

        assertEquals(1, nodes[OBSERVER].counters().handshakesRefused());
        assertTrue(nodes[OBSERVER].lastError().contains("rank 3 is not one this node expects"),
            nodes[OBSERVER].lastError());
        assertEquals(grantsBefore, fabric.grants().size());
        assertOnlyExpectedWritersWereGranted();
    }

    @Test
    void shouldKeepTheExpectedEmitterAndGrantNobodyElseUnderAConnectionFlood()
    {
        cluster();
        final long granted = nodes[OBSERVER].counters().inboundAccepted();
        long counter = 0;
        for (int i = 0; i < 60; i++)
        {
            final Rogue rogue = rogue("10.9.1." + (1 + i), FrameAuthenticator.withKey(RdmaHeartbeatsTest.key(i)));
            if (i % 3 == 0)
            {
                rogue.answerChallengesAs(EMITTER); // claims to be the emitter, without the key
            }
            rogue.connectTo(OBSERVER);
            counter = beat(counter, 2 * STEP_NS);
        }
        counter = beat(counter, SET_UP_NS);

        assertEquals(counter, nodes[OBSERVER].readHeartbeat(EMITTER), "every beat landed through the flood");
        assertTrue(nodes[OBSERVER].isGrantedTo(EMITTER));
        assertTrue(nodes[EMITTER].isConnectedTo(OBSERVER));
        assertEquals(0, nodes[EMITTER].counters().disconnects());
        assertEquals(granted, nodes[OBSERVER].counters().inboundAccepted(), "no new grant during the flood");
        assertTrue(nodes[OBSERVER].counters().inboundEvicted() > 0, "the limit was reached: " +
            nodes[OBSERVER].counters().inboundEvicted());
        assertEquals(20, nodes[OBSERVER].counters().handshakesRefused(), "the 20 that claimed rank 0");
        assertEquals(0, nodes[OBSERVER].counters().grantsRevoked(), "no granted connection gave way");
        assertOnlyExpectedWritersWereGranted();

        // and a genuine reconnect still gets through once the flood stops
        assertTrue(verbs[EMITTER].breakConnectionTo(verbs[OBSERVER]));
        for (int i = 0; i < RdmaHeartbeatsTest.SIGNAL_INTERVAL; i++)
        {
            nodes[EMITTER].writeHeartbeat(OBSERVER, ++counter);
        }
        run(RdmaHeartbeatsTest.BACKOFF_NS + SET_UP_NS + RdmaHeartbeatsTest.EVENT_POLL_INTERVAL_NS);
        assertTrue(nodes[EMITTER].isConnectedTo(OBSERVER), nodes[EMITTER].lastError());
        nodes[EMITTER].writeHeartbeat(OBSERVER, ++counter);
        assertEquals(counter, nodes[OBSERVER].readHeartbeat(EMITTER));
    }

    @Test
    void shouldRevokeTheGrantOfAWriterDeclaredDead()
    {
        cluster();
        nodes[EMITTER].writeHeartbeat(OBSERVER, 5);
        assertEquals(5, nodes[OBSERVER].readHeartbeat(EMITTER));

        // the observer holds rank 0 dead (a zombie, say, that still writes): its rkey dies with its connection
        nodes[OBSERVER].onViewChange(RankArray.of(EMITTER), fabric.nowNs);
        assertFalse(nodes[OBSERVER].isGrantedTo(EMITTER));
        assertEquals(1, nodes[OBSERVER].counters().grantsRevoked());
        for (int i = 0; i < RdmaHeartbeatsTest.SIGNAL_INTERVAL; i++)
        {
            nodes[EMITTER].writeHeartbeat(OBSERVER, 6 + i);
        }
        assertEquals(5, nodes[OBSERVER].readHeartbeat(EMITTER), "no write lands after the revocation");
    }

    private RemoteSlot lastGrantTo(final InMemoryFabric.Node writer)
    {
        for (int i = fabric.grants().size() - 1; i >= 0; i--)
        {
            final InMemoryFabric.Grant grant = fabric.grants().get(i);
            if (grant.writer() == writer)
            {
                return new RemoteSlot(grant.observer().slotAddress, grant.rkey(), 64);
            }
        }
        throw new AssertionError("no grant to " + writer);
    }

    private byte[] recorded(final InMemoryFabric.Node from, final InMemoryFabric.Node to, final int kind)
    {
        for (final InMemoryFabric.Sent sent : fabric.sent())
        {
            final UnsafeBuffer bytes = new UnsafeBuffer(sent.bytes());
            if (sent.from() == from && sent.to() == to &&
                bytes.getInt(RdmaHello.KIND_OFFSET, LITTLE_ENDIAN) == kind)
            {
                return sent.bytes();
            }
        }
        throw new AssertionError("no message of kind " + kind + " recorded");
    }

    private Rogue rogue(final String address, final FrameAuthenticator keys)
    {
        final Rogue rogue = new Rogue(address, keys);
        rogues.add(rogue);
        return rogue;
    }

    /**
     * A client on the fabric driven by the test through the raw verbs seam: it connects, reads what it is sent and
     * answers as told. No {@link RdmaHeartbeats} logic of its own.
     */
    private final class Rogue implements RdmaVerbs.Listener
    {
        final InMemoryFabric.Node verbs = fabric.node(1);
        final RdmaHello hello;
        int challengesReceived;
        int grantsReceived;
        boolean helloReceived;
        String lastWriteError;
        private int claimedRank = -1;
        private byte[] replay;
        private byte[] listenChallenge;
        private byte[] listenGrant;
        private boolean failed;
        private int nextInbound;
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[RdmaVerbs.MESSAGE_LENGTH]);

        Rogue(final String address, final FrameAuthenticator keys)
        {
            hello = new RdmaHello(keys, 42, 0x1234, 0);
            if (address != null)
            {
                verbs.openWithoutSlot(new InetSocketAddress(address, 7471));
            }
        }

        void answerChallengesAs(final int rank)
        {
            claimedRank = rank;
        }

        void replayOnChallenge(final byte[] message)
        {
            replay = message;
        }

        void listenAs(final InetSocketAddress address, final byte[] challenge, final byte[] grant)
        {
            listenChallenge = challenge;
            listenGrant = grant;
            try
            {
                verbs.open(address, new HeartbeatSlot().wrap(HeartbeatSlot.allocateAligned(), 0).reset(),
                    new HeartbeatSlot().wrap(HeartbeatSlot.allocateAligned(), 0).reset());
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
        }

        void connectTo(final int rank)
        {
            try
            {
                verbs.connect(0, endpoints[rank].resolve());
            }
            catch (final IOException ex)
            {
                throw new AssertionError(ex);
            }
        }

        boolean isUp()
        {
            return verbs.phase[0] == InMemoryFabric.Node.UP && !failed;
        }

        void poll()
        {
            verbs.pollEvents(this);
            verbs.pollCompletions(this);
        }

        public void onConnectFailed(final int connection, final String reason)
        {
            failed = true;
        }

        public void onDisconnected(final int connection, final String reason)
        {
            failed = true;
        }

        public void onWriteCompleted(final int connection, final boolean success, final String error)
        {
            lastWriteError = error;
        }

        public int onConnectRequest()
        {
            return listenChallenge == null ? -1 : nextInbound++; // every rank that pre-connects to 2 comes here
        }

        public void onInboundConnected(final int inbound)
        {
            out.putBytes(0, listenChallenge);
            verbs.send(inbound, true, out);
        }

        public void onInboundClosed(final int inbound, final String reason)
        {
        }

        public void onMessage(final int id, final boolean inbound, final DirectBuffer buffer, final int offset)
        {
            if (inbound)
            {
                helloReceived = true;
                out.putBytes(0, listenGrant);
                verbs.send(id, true, out);
                return;
            }
            final int kind = buffer.getInt(offset + RdmaHello.KIND_OFFSET, LITTLE_ENDIAN);
            if (kind == RdmaHello.GRANT)
            {
                grantsReceived++;
                return;
            }
            challengesReceived++;
            if (replay != null)
            {
                out.putBytes(0, replay);
                verbs.send(id, false, out);
            }
            else if (claimedRank >= 0)
            {
                verbs.send(id, false, hello.encode(RdmaHello.HELLO, claimedRank, OBSERVER, 7, 99L,
                    RdmaHello.nonce(buffer, offset), null));
            }
        }
    }
}
