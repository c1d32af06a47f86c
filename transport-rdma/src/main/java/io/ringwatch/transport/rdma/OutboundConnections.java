package io.ringwatch.transport.rdma;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The emitter's side: the connections this node makes to observers (its nearest live successors, and whoever a
 * NEW_OBSERVER names), their handshake, time-outs and back-off. A connection carries writes only once the observer
 * has answered the handshake with a grant that echoes this connection's nonce ({@link RdmaHello}).
 * <p>
 * States: {@code CONNECTING} (rdma_cm under way, waiting for the observer's challenge), {@code HANDSHAKING} (hello
 * sent, waiting for the grant), {@code CONNECTED}, {@code BACKING_OFF} (failed, retried after the back-off while the
 * peer is still wanted). Set-up from {@code CONNECTING} to {@code CONNECTED} is bounded by the connect timeout.
 */
final class OutboundConnections
{
    static final byte FREE = 0;
    static final byte CONNECTING = 1;
    static final byte HANDSHAKING = 2;
    static final byte CONNECTED = 3;
    static final byte BACKING_OFF = 4;

    private final RdmaVerbs verbs;
    private final RdmaCounters counters;
    private final BeatWriter writer;
    private final RdmaHello hello;
    private final RandomGenerator nonces;
    private final InetSocketAddress[] endpoints;
    private final int rank;
    private final long incarnation;
    private final long connectTimeoutNs;
    private final long reconnectBackoffNs;

    // the index is the connection id given to the verbs layer
    final int capacity;
    private final int[] peer;
    private final byte[] state;
    private final long[] startedNs;
    private final long[] retryAtNs;
    private final RemoteSlot[] target;
    private final long[] nonce;
    private final long[] observerNonce;

    private final int[] wanted;
    private int wantedCount;
    private int currentObserver = -1;
    private int settingUp;

    OutboundConnections(
        final RdmaHeartbeats.Context ctx,
        final RdmaVerbs verbs,
        final RdmaCounters counters,
        final BeatWriter writer,
        final RdmaHello hello,
        final RandomGenerator nonces)
    {
        this.verbs = verbs;
        this.counters = counters;
        this.writer = writer;
        this.hello = hello;
        this.nonces = nonces;
        this.endpoints = ctx.resolvedEndpoints();
        this.rank = ctx.rank();
        this.incarnation = ctx.incarnation();
        this.connectTimeoutNs = ctx.connectTimeoutNs();
        this.reconnectBackoffNs = ctx.reconnectBackoffNs();
        this.capacity = ctx.preConnect() + 1; // one spare for an observer outside the set (the view lags the ring)
        this.peer = new int[capacity];
        this.state = new byte[capacity];
        this.startedNs = new long[capacity];
        this.retryAtNs = new long[capacity];
        this.target = new RemoteSlot[capacity];
        this.nonce = new long[capacity];
        this.observerNonce = new long[capacity];
        this.wanted = new int[ctx.preConnect()];
        Arrays.fill(peer, -1);
    }

    /**
     * Drop connections to dead or no longer wanted ranks (but the current observer's) and connect to the nearest
     * live successors not connected yet.
     */
    void refill(final Ring ring, final RankSet dead, final long nowNs)
    {
        wantedCount = ring.liveSuccessors(wanted);
        for (int i = 0; i < capacity; i++)
        {
            final int p = peer[i];
            if (p >= 0 && (dead.contains(p) || (!isWanted(p) && p != currentObserver)))
            {
                release(i);
            }
        }
        for (int w = 0; w < wantedCount; w++)
        {
            if (connectionOf(wanted[w]) < 0)
            {
                final int free = freeConnection();
                if (free < 0)
                {
                    return;
                }
                startConnect(free, wanted[w], nowNs);
            }
        }
    }

    /**
     * The protocol's word on who observes this node now: connect to it if no connection is held or being made.
     *
     * @return the connection, {@code CONNECTED} or not; -1 if none could be started.
     */
    int observe(final int observerRank, final long nowNs)
    {
        currentObserver = observerRank;
        int connection = connectionOf(observerRank);
        if (connection < 0 && observerRank >= 0 && observerRank < endpoints.length && observerRank != rank &&
            (connection = freeConnection()) >= 0)
        {
            startConnect(connection, observerRank, nowNs);
        }
        return connection;
    }

    /**
     * A NEW_OBSERVER frame named {@code address}/{@code length} as the observer's slot: the grant this connection
     * holds is the one that counts (frames carry no rkey); a slot that differs means the observer is not the
     * process this connection reached, so the connection is made again.
     */
    void confirmSlot(final int connection, final long address, final int length, final long nowNs)
    {
        final RemoteSlot held = target[connection];
        if (held.address() != address || held.length() != length)
        {
            counters.descriptorsReplaced++;
            queuePairFailed(connection, "NEW_OBSERVER from rank " + peer[connection] + " names another slot than " +
                "the connection's grant", nowNs);
        }
    }

    boolean isConnected(final int connection)
    {
        return connection >= 0 && state[connection] == CONNECTED;
    }

    RemoteSlot target(final int connection)
    {
        return target[connection];
    }

    int connectionOf(final int peerRank)
    {
        if (peerRank < 0)
        {
            return -1;
        }
        for (int i = 0; i < capacity; i++)
        {
            if (peer[i] == peerRank)
            {
                return i;
            }
        }
        return -1;
    }

    int[] wanted()
    {
        return Arrays.copyOf(wanted, wantedCount);
    }

    int connectedCount()
    {
        int count = 0;
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == CONNECTED)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @return connections between the attempt and the grant: event and completion polls are worth every cycle.
     */
    int settingUp()
    {
        return settingUp;
    }

    /**
     * A handshake message on an outbound connection: the observer's challenge (answered with this node's hello) or
     * its grant (the connection is up). Anything else, or anything out of turn, fails the connection.
     */
    void onMessage(final int connection, final DirectBuffer message, final int offset, final long nowNs)
    {
        final byte s = state[connection];
        if (s != CONNECTING && s != HANDSHAKING)
        {
            return; // a late message for a connection given up
        }
        final int kind = s == CONNECTING ? RdmaHello.CHALLENGE : RdmaHello.GRANT;
        String refusal = hello.check(message, offset, kind, rank);
        if (refusal == null && RdmaHello.senderRank(message, offset) != peer[connection])
        {
            refusal = "answered by rank " + RdmaHello.senderRank(message, offset);
        }
        if (refusal == null && kind == RdmaHello.GRANT &&
            (RdmaHello.echo(message, offset) != nonce[connection] ||
            RdmaHello.nonce(message, offset) != observerNonce[connection]))
        {
            refusal = "grant for another handshake (replayed?)";
        }
        final long address = RdmaHello.slotAddress(message, offset);
        final int length = RdmaHello.slotLength(message, offset);
        if (refusal == null && kind == RdmaHello.GRANT && RemoteSlot.invalidReason(address, length) != null)
        {
            refusal = RemoteSlot.invalidReason(address, length);
        }
        if (refusal != null)
        {
            counters.handshakesRefused++;
            verbs.disconnect(connection);
            setUpFailed(connection, "handshake with rank " + peer[connection] + " refused: " + refusal, nowNs);
            return;
        }
        if (kind == RdmaHello.CHALLENGE)
        {
            observerNonce[connection] = RdmaHello.nonce(message, offset);
            nonce[connection] = nonces.nextLong();
            if (!verbs.send(connection, false, hello.encode(RdmaHello.HELLO, rank, peer[connection], incarnation,
                nonce[connection], observerNonce[connection], null)))
            {
                verbs.disconnect(connection);
                setUpFailed(connection, "hello to rank " + peer[connection] + ": " + verbs.lastError(), nowNs);
                return;
            }
            state[connection] = HANDSHAKING;
            return;
        }
        settingUp--;
        state[connection] = CONNECTED;
        target[connection] = new RemoteSlot(address, RdmaHello.slotRkey(message, offset), length);
        writer.clear(connection);
        counters.connectionsEstablished++;
        final long tookNs = nowNs - startedNs[connection];
        counters.connectTimeTotalNs += tookNs;
        counters.connectTimeMaxNs = Math.max(counters.connectTimeMaxNs, tookNs);
    }

    void onConnectFailed(final int connection, final String reason, final long nowNs)
    {
        if (state[connection] == CONNECTING || state[connection] == HANDSHAKING)
        {
            setUpFailed(connection, "connect to rank " + peer[connection] + ": " + reason, nowNs);
        }
    }

    void onDisconnected(final int connection, final String reason, final long nowNs)
    {
        if (state[connection] == CONNECTING || state[connection] == HANDSHAKING)
        {
            onConnectFailed(connection, reason, nowNs);
        }
        else if (state[connection] == CONNECTED)
        {
            counters.disconnects++;
            counters.error("connection to rank " + peer[connection] + " lost: " + reason);
            backOff(connection, nowNs);
        }
    }

    void onWriteCompleted(final int connection, final boolean success, final String error, final long nowNs)
    {
        if (state[connection] != CONNECTED)
        {
            return;
        }
        if (!success)
        {
            // errors complete even unsignalled writes; the queue pair carries nothing more
            counters.completionErrors++;
            queuePairFailed(connection, error, nowNs);
            return;
        }
        writer.onCompleted(connection);
    }

    /**
     * Time out set-ups, retry failed connections whose peer is still wanted, free the others.
     */
    int stepTimers(final RankSet dead, final long nowNs)
    {
        int work = 0;
        for (int i = 0; i < capacity; i++)
        {
            if ((state[i] == CONNECTING || state[i] == HANDSHAKING) && nowNs - startedNs[i] - connectTimeoutNs >= 0)
            {
                final String phase = state[i] == HANDSHAKING ? " (hello sent, no grant)" : "";
                verbs.disconnect(i);
                setUpFailed(i, "connect to rank " + peer[i] + " timed out after " +
                    TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms" + phase, nowNs);
                work++;
            }
            else if (state[i] == BACKING_OFF && nowNs - retryAtNs[i] >= 0)
            {
                final int p = peer[i];
                if (!dead.contains(p) && (isWanted(p) || p == currentObserver))
                {
                    startConnect(i, p, nowNs);
                }
                else
                {
                    free(i);
                }
                work++;
            }
        }
        return work;
    }

    void queuePairFailed(final int connection, final String reason, final long nowNs)
    {
        verbs.disconnect(connection);
        counters.error("queue pair to rank " + peer[connection] + ": " + reason);
        backOff(connection, nowNs);
    }

    private void setUpFailed(final int connection, final String reason, final long nowNs)
    {
        settingUp--;
        counters.connectFailures++;
        counters.error(reason);
        backOff(connection, nowNs);
    }

    private void startConnect(final int connection, final int peerRank, final long nowNs)
    {
        peer[connection] = peerRank;
        state[connection] = CONNECTING;
        startedNs[connection] = nowNs;
        target[connection] = null;
        settingUp++;
        counters.connectAttempts++;
        try
        {
            verbs.connect(connection, endpoints[peerRank]);
        }
        catch (final IOException | RuntimeException ex)
        {
            setUpFailed(connection, "connect to rank " + peerRank + " at " + endpoints[peerRank] + ": " +
                ex.getMessage(), nowNs);
        }
    }

    private void backOff(final int connection, final long nowNs)
    {
        writer.clear(connection);
        state[connection] = BACKING_OFF;
        target[connection] = null;
        retryAtNs[connection] = nowNs + reconnectBackoffNs;
    }

    private void release(final int connection)
    {
        if (state[connection] == CONNECTING || state[connection] == HANDSHAKING)
        {
            settingUp--;
        }
        verbs.disconnect(connection);
        free(connection);
    }

    private void free(final int connection)
    {
        writer.clear(connection);
        peer[connection] = -1;
        state[connection] = FREE;
        target[connection] = null;
    }

    private boolean isWanted(final int candidate)
    {
        for (int w = 0; w < wantedCount; w++)
        {
            if (wanted[w] == candidate)
            {
                return true;
            }
        }
        return false;
    }

    private int freeConnection()
    {
        for (int i = 0; i < capacity; i++)
        {
            if (peer[i] < 0)
            {
                return i;
            }
        }
        return -1;
    }
}
