package io.ringwatch.transport.rdma;

import io.ringwatch.core.ring.Ring;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.util.random.RandomGenerator;

/**
 * The observer's side: who may connect to this node's slot, and the handshake that decides it. The slot becomes
 * writable on a connection only after its peer has answered this connection's fresh nonce under the cluster key,
 * naming a rank this node expects (one of its {@code expectedCount} nearest live predecessors, the emitter first:
 * the ranks whose pre-connection sets hold this node), and then by a registration of that connection's own
 * ({@link RdmaVerbs#grant}), revoked with the connection.
 * <p>
 * <b>Limits.</b> At most {@code maxGranted} granted connections and as many unauthenticated ones (accepted, handshake
 * under way). A new request when the unauthenticated half is full closes the oldest unauthenticated connection, never
 * a granted one, so a flood of connectors on the fabric cannot displace an emitter that proved itself; it can delay
 * new connections, each of which then has to win a place for one handshake round trip. A granted connection gives way
 * only to a newer proof from the same rank (a reconnect: the old queue pair is likely dead) or, at the granted limit,
 * when its rank is no longer expected; an older incarnation never displaces a newer one. A view change revokes every
 * grant to a rank no longer expected.
 */
final class InboundConnections
{
    private static final byte FREE = 0;
    private static final byte ACCEPTED = 1;
    private static final byte CHALLENGED = 2;
    private static final byte GRANTED = 3;

    private final RdmaVerbs verbs;
    private final RdmaCounters counters;
    private final RdmaHello hello;
    private final RandomGenerator nonces;
    private final int rank;
    private final long incarnation;
    private final long handshakeTimeoutNs;
    private final int maxGranted;

    // the index is the inbound id given to the verbs layer
    final int capacity;
    private final byte[] state;
    private final int[] peer;
    private final long[] peerIncarnation;
    private final long[] nonce;
    private final long[] openedNs;
    private final long[] order;
    private long nextOrder;

    private final int[] expected;
    private int expectedCount;

    InboundConnections(
        final RdmaHeartbeats.Context ctx,
        final RdmaVerbs verbs,
        final RdmaCounters counters,
        final RdmaHello hello,
        final RandomGenerator nonces)
    {
        this.verbs = verbs;
        this.counters = counters;
        this.hello = hello;
        this.nonces = nonces;
        this.rank = ctx.rank();
        this.incarnation = ctx.incarnation();
        this.handshakeTimeoutNs = ctx.connectTimeoutNs();
        this.maxGranted = ctx.maxInbound();
        this.capacity = 2 * maxGranted;
        this.state = new byte[capacity];
        this.peer = new int[capacity];
        this.peerIncarnation = new long[capacity];
        this.nonce = new long[capacity];
        this.openedNs = new long[capacity];
        this.order = new long[capacity];
        this.expected = new int[Math.min(maxGranted, ctx.endpoints().length - 1)];
    }

    /**
     * The view changed: expect this node's nearest live predecessors, and revoke the grant of every connection from
     * a rank that is not one of them any more.
     */
    void expect(final Ring ring)
    {
        expectedCount = ring.livePredecessors(expected);
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == GRANTED && !isExpected(peer[i]))
            {
                counters.grantsRevoked++;
                close(i);
                counters.inboundClosed++;
            }
        }
    }

    /**
     * @return the inbound id to accept a new connect request under, or -1 to refuse it.
     */
    int onConnectRequest(final long nowNs)
    {
        int free = -1;
        int unauthenticated = 0;
        int oldest = -1;
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == FREE)
            {
                free = free < 0 ? i : free;
            }
            else if (state[i] != GRANTED)
            {
                unauthenticated++;
                oldest = oldest < 0 || order[i] < order[oldest] ? i : oldest;
            }
        }
        if (unauthenticated >= capacity - maxGranted)
        {
            // never a granted connection: one that has not proved itself yet gives way
            counters.inboundEvicted++;
            close(oldest);
            free = oldest;
        }
        if (free < 0)
        {
            counters.inboundRefused++;
            return -1;
        }
        state[free] = ACCEPTED;
        peer[free] = -1;
        openedNs[free] = nowNs;
        order[free] = nextOrder++;
        return free;
    }

    /**
     * The connection is up: open the handshake with this node's challenge.
     */
    void onConnected(final int inbound)
    {
        if (state[inbound] != ACCEPTED)
        {
            return;
        }
        nonce[inbound] = nonces.nextLong();
        if (!verbs.send(inbound, true, hello.encode(
            RdmaHello.CHALLENGE, rank, RdmaHello.UNKNOWN_RANK, incarnation, nonce[inbound], 0, null)))
        {
            counters.error("challenge on inbound connection " + inbound + ": " + verbs.lastError());
            close(inbound);
            return;
        }
        state[inbound] = CHALLENGED;
    }

    /**
     * The emitter's hello: grant the slot on this connection if it proves the key, answers this connection's challenge
     * and names a rank this node expects; close the connection otherwise.
     */
    void onMessage(final int inbound, final DirectBuffer message, final int offset)
    {
        if (state[inbound] != CHALLENGED)
        {
            refuse(inbound, "message out of turn");
            return;
        }
        final String invalid = hello.check(message, offset, RdmaHello.HELLO, rank);
        if (invalid != null)
        {
            refuse(inbound, invalid);
            return;
        }
        if (RdmaHello.echo(message, offset) != nonce[inbound])
        {
            refuse(inbound, "hello answers another challenge (replayed?)");
            return;
        }
        final int sender = RdmaHello.senderRank(message, offset);
        final long senderIncarnation = RdmaHello.incarnation(message, offset);
        if (!isExpected(sender))
        {
            refuse(inbound, "rank " + sender + " is not one this node expects to write its slot");
            return;
        }
        final int previous = grantedTo(sender);
        if (previous >= 0 && peerIncarnation[previous] > senderIncarnation)
        {
            refuse(inbound, "rank " + sender + " incarnation " + senderIncarnation + " is older than the one " +
                "connected (" + peerIncarnation[previous] + ")");
            return;
        }
        if (previous < 0 && grantedCount() >= maxGranted && !revokeOneUnexpected())
        {
            refuse(inbound, "every granted place holds an expected emitter");
            return;
        }
        final RemoteSlot slot;
        try
        {
            slot = verbs.grant(inbound);
        }
        catch (final IOException | RuntimeException ex)
        {
            counters.error("registering the slot for rank " + sender + " failed: " + ex.getMessage());
            close(inbound);
            return;
        }
        if (!verbs.send(inbound, true, hello.encode(RdmaHello.GRANT, rank, sender, incarnation, nonce[inbound],
            RdmaHello.nonce(message, offset), slot)))
        {
            counters.error("grant to rank " + sender + ": " + verbs.lastError());
            close(inbound);
            return;
        }
        if (previous >= 0)
        {
            // the same rank proved itself again: its old queue pair is the one likely dead
            counters.grantsRevoked++;
            counters.inboundClosed++;
            close(previous);
        }
        state[inbound] = GRANTED;
        peer[inbound] = sender;
        peerIncarnation[inbound] = senderIncarnation;
        counters.inboundAccepted++;
    }

    void onClosed(final int inbound)
    {
        if (state[inbound] == GRANTED)
        {
            counters.inboundClosed++;
        }
        state[inbound] = FREE;
        peer[inbound] = -1;
    }

    /**
     * Close handshakes that have not finished within the connect timeout.
     */
    int stepTimers(final long nowNs)
    {
        int work = 0;
        for (int i = 0; i < capacity; i++)
        {
            if ((state[i] == ACCEPTED || state[i] == CHALLENGED) && nowNs - openedNs[i] - handshakeTimeoutNs >= 0)
            {
                counters.handshakeTimeouts++;
                close(i);
                work++;
            }
        }
        return work;
    }

    /**
     * @return connections accepted whose handshake is still under way.
     */
    int handshaking()
    {
        int count = 0;
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == ACCEPTED || state[i] == CHALLENGED)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @return whether {@code writer} holds a granted connection to this node's slot.
     */
    boolean isGranted(final int writer)
    {
        return grantedTo(writer) >= 0;
    }

    int[] expected()
    {
        return java.util.Arrays.copyOf(expected, expectedCount);
    }

    private void refuse(final int inbound, final String reason)
    {
        counters.handshakesRefused++;
        counters.error("inbound handshake refused: " + reason);
        close(inbound);
    }

    private boolean revokeOneUnexpected()
    {
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == GRANTED && !isExpected(peer[i]))
            {
                counters.grantsRevoked++;
                counters.inboundClosed++;
                close(i);
                return true;
            }
        }
        return false;
    }

    private int grantedCount()
    {
        int count = 0;
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == GRANTED)
            {
                count++;
            }
        }
        return count;
    }

    private int grantedTo(final int writer)
    {
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == GRANTED && peer[i] == writer)
            {
                return i;
            }
        }
        return -1;
    }

    private boolean isExpected(final int candidate)
    {
        for (int e = 0; e < expectedCount; e++)
        {
            if (expected[e] == candidate)
            {
                return true;
            }
        }
        return false;
    }

    private void close(final int inbound)
    {
        verbs.closeInbound(inbound);
        state[inbound] = FREE;
        peer[inbound] = -1;
    }
}
