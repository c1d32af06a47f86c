package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Heartbeats by one-sided RDMA WRITE, as the live runtime uses them. Each node is both sides at once:
 * <ul>
 * <li><b>Observer</b>: one 64-byte {@link HeartbeatSlotLayout heartbeat slot}, registered once for remote write;
 * {@link #readHeartbeat(int)} is the same acquire load of the same layout every transport uses. Its descriptor
 * ({@link #localSlot()}) goes into this node's NEW_OBSERVER frames and into every connection emitters make.</li>
 * <li><b>Emitter</b>: {@link #writeHeartbeat(int, long)} posts one inline RDMA WRITE of the 24-byte payload into the
 * observer's slot over a queue pair made in advance. One write in {@code signalInterval} is signalled; completions
 * are polled only while a signalled write is outstanding.</li>
 * </ul>
 *
 * <h2>Connections are made before they are needed</h2>
 * rdma_cm connection setup (address and route resolution, then the connect handshake) takes milliseconds, while a
 * mended ring gives the new emitter 2δ to be heard, and δ can be a millisecond. So a node connects at start to the
 * {@link #preConnectCount(int) ⌊log₂ N⌋ + 1} nearest live successors (every node likely to become its observer),
 * keeps those queue pairs, and re-fills the set after every view change ({@link #onViewChange}). Each connection
 * arrives with the observer's slot descriptor, so the initial ring needs no NEW_OBSERVER and a mended ring needs no
 * round trip: NEW_OBSERVER ({@link #onNewObserver}) only confirms what the emitter already holds. A connection that
 * is not ready when it is needed is counted ({@link #mendsAwaitingConnection()}) and made on demand.
 *
 * <h2>Failures are counted, never suspected</h2>
 * A queue pair that fails (error completion, refused post, disconnect, connect error or timeout) is torn down,
 * counted and retried after a back-off while its peer is still wanted. Nothing here suspects anyone: only the
 * protocol's slot reads do. A node whose own port goes down stops hearing its emitter, and would then suspect a
 * healthy node after δ; {@link #isLocalPortActive()} reports it within {@code portCheckIntervalNs} so the runtime
 * can stop the node first (fail-stop, as for a lost media driver): its observer suspects it, it suspects nobody.
 *
 * <h2>Duty cycle and allocation</h2>
 * Everything runs on the agent thread: {@link #poll(long)} once per duty cycle, the rest when the protocol calls.
 * {@link #writeHeartbeat}, {@link #readHeartbeat} and completion reaping do not allocate. Connection setup does,
 * and so does DiSNI's connection-manager poll, which is therefore paced: every cycle while a connection is being
 * made or one is expected from a predecessor, otherwise every {@code eventPollIntervalNs}.
 */
public final class RdmaHeartbeats implements HeartbeatChannel, AutoCloseable
{
    private static final byte FREE = 0;
    private static final byte CONNECTING = 1;
    private static final byte CONNECTED = 2;
    private static final byte BACKING_OFF = 3;

    private final Context ctx;
    private final RdmaVerbs verbs;
    private final int rank;
    private final int incarnation;
    private final int clusterSize;
    private final NanoClock clock;
    private final InetSocketAddress[] endpoints;

    private final HeartbeatSlot localSlot;
    private final HeartbeatSlot source;
    private final RemoteSlot localDescriptor;
    private final VerbsListener listener = new VerbsListener();

    // connection table; the index is the connection id given to the verbs layer
    private final int capacity;
    private final int[] peer;
    private final byte[] state;
    private final long[] startedNs;
    private final long[] retryAtNs;
    private final RemoteSlot[] target;
    private final SignalPacer[] pacers;
    private final int[] signalledPending;

    private final int[] wanted;
    private int wantedCount;
    private RankSet dead;
    // before the first view nobody is known dead
    private final RankSet nobodyDead = new RankArray(1);
    private RankSet ringDead;
    private Ring ring;
    private int currentObserver = -1;

    private long nowNs;
    private boolean started;
    private boolean closed;
    private long fastEventPollUntilNs;
    private long nextEventPollNs;
    private long nextPortCheckNs;
    private int connecting;
    private int signalledOutstanding;
    private boolean localPortActive = true;
    private long localPortDownSinceNs;
    private String lastError = "";

    private long beatsPosted;
    private long beatsDroppedNotConnected;
    private long beatsDroppedQueueFull;
    private long postFailures;
    private long completionsReaped;
    private long completionErrors;
    private long connectAttempts;
    private long connectionsEstablished;
    private long connectFailures;
    private long disconnects;
    private long connectTimeTotalNs;
    private long connectTimeMaxNs;
    private long mendsOntoPreConnected;
    private long mendsAwaitingConnection;
    private long descriptorsRejected;
    private long descriptorsReplaced;
    private long inboundAccepted;
    private long inboundClosed;
    private long localPortDowns;

    /**
     * Register the slots and listen. Connections start at the first {@link #poll(long)}.
     *
     * @param ctx settings; concluded here.
     * @throws RdmaUnavailableException with the precise reason if this host cannot do RDMA or set-up fails.
     */
    public RdmaHeartbeats(final Context ctx)
    {
        this.ctx = ctx.conclude();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new RdmaUnavailableException("heartbeat slots are little-endian; this platform is not");
        }
        this.rank = ctx.rank();
        this.incarnation = ctx.incarnation();
        this.clusterSize = ctx.endpoints().length;
        this.clock = ctx.nanoClock();
        this.endpoints = ctx.resolvedEndpoints();

        final int preConnect = ctx.preConnect();
        this.capacity = preConnect + 1; // one spare for an observer outside the set (the view lags the ring)
        this.peer = new int[capacity];
        this.state = new byte[capacity];
        this.startedNs = new long[capacity];
        this.retryAtNs = new long[capacity];
        this.target = new RemoteSlot[capacity];
        this.pacers = new SignalPacer[capacity];
        this.signalledPending = new int[capacity];
        this.wanted = new int[preConnect];
        Arrays.fill(peer, -1);
        for (int i = 0; i < capacity; i++)
        {
            pacers[i] = new SignalPacer(ctx.signalInterval(), 2 * ctx.signalInterval());
        }

        final UnsafeBuffer localBuffer = HeartbeatSlot.allocateAligned();
        final UnsafeBuffer sourceBuffer = HeartbeatSlot.allocateAligned();
        this.localSlot = new HeartbeatSlot().wrap(localBuffer, 0).reset();
        this.source = new HeartbeatSlot().wrap(sourceBuffer, 0).reset();

        RdmaVerbs openedVerbs = ctx.verbs();
        if (openedVerbs == null)
        {
            final RdmaDevices.Availability availability = RdmaDevices.probe();
            if (!availability.usable())
            {
                throw new RdmaUnavailableException(availability.reason());
            }
            openedVerbs = new DisniVerbs(capacity, ctx.maxInbound(), ctx.signalInterval(),
                (int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs())));
        }
        this.verbs = openedVerbs;
        try
        {
            this.localDescriptor = verbs.open(endpoints[rank], localSlot, source);
        }
        catch (final IOException | RuntimeException | LinkageError ex)
        {
            verbs.close();
            throw new RdmaUnavailableException("RDMA set-up on " + endpoints[rank] + " failed: " + ex, ex);
        }
    }

    /**
     * How many successors a node keeps connected: ⌊log₂ N⌋ + 1, at most N − 1. More than ⌊log₂ N⌋ consecutive
     * successors dying before the ring is mended is outside what the protocol's bound covers anyway, and a
     * connection made on demand still works then, only later.
     *
     * @param clusterSize N.
     * @return the pre-connection count.
     */
    public static int preConnectCount(final int clusterSize)
    {
        return Math.min(clusterSize - 1, 31 - Integer.numberOfLeadingZeros(Math.max(1, clusterSize)) + 1);
    }

    /**
     * One duty cycle's share: start the initial connections (first call), step connection set-up, reap
     * completions while a signalled write is outstanding, retry failed connections after their back-off, and
     * check the local port every {@code portCheckIntervalNs}.
     *
     * @param nowNs the duty cycle's clock.
     * @return work done.
     */
    public int poll(final long nowNs)
    {
        this.nowNs = nowNs;
        int work = 0;
        if (!started)
        {
            started = true;
            if (dead == null)
            {
                refill();
            }
            fastEventPollUntilNs = nowNs + ctx.connectTimeoutNs();
            work++;
        }
        if (nowNs - nextPortCheckNs >= 0)
        {
            nextPortCheckNs = nowNs + ctx.portCheckIntervalNs();
            checkPort();
        }
        if (connecting > 0 || signalledOutstanding > 0)
        {
            work += verbs.pollCompletions(listener);
        }
        if (connecting > 0 || nowNs - fastEventPollUntilNs < 0 || nowNs - nextEventPollNs >= 0)
        {
            nextEventPollNs = nowNs + ctx.eventPollIntervalNs();
            work += verbs.pollEvents(listener);
        }
        return work + stepTimers();
    }

    /**
     * The view changed: drop connections to dead ranks, connect to the successors that now make up the nearest
     * ⌊log₂ N⌋ + 1 live ones, and poll connection events every cycle for a while, since predecessors are
     * re-filling their sets towards this node too. Call after every view change, before the next heartbeat.
     *
     * @param deadSet ranks known dead (the protocol's D); read now and when connections are retried, so it must be
     *                the live set the protocol keeps, not a copy that goes stale.
     * @param nowNs   the duty cycle's clock.
     */
    public void onViewChange(final RankSet deadSet, final long nowNs)
    {
        this.nowNs = nowNs;
        this.dead = deadSet;
        fastEventPollUntilNs = nowNs + ctx.connectTimeoutNs();
        refill();
    }

    /**
     * A NEW_OBSERVER frame arrived: {@code observerRank} is now this node's observer and its slot is described by
     * the frame's RDMA fields. With the observer pre-connected the next beat is written at once; otherwise a
     * connection is made now and beats are dropped (and counted) until it is up.
     *
     * @param observerRank the frame's sender.
     * @param rkey         the frame's {@code rdmaRkey}.
     * @param address      the frame's {@code rdmaAddress}.
     * @param length       the frame's {@code rdmaLength}.
     * @param nowNs        the duty cycle's clock.
     * @return false if the descriptor is invalid (counted in {@link #descriptorsRejected()}, frame to be dropped).
     */
    public boolean onNewObserver(
        final int observerRank, final int rkey, final long address, final int length, final long nowNs)
    {
        this.nowNs = nowNs;
        final String invalid = RemoteSlot.invalidReason(address, length);
        if (invalid != null || observerRank < 0 || observerRank >= clusterSize || observerRank == rank)
        {
            descriptorsRejected++;
            lastError = "NEW_OBSERVER from rank " + observerRank + ": " +
                (invalid != null ? invalid : "not a peer rank");
            return false;
        }
        currentObserver = observerRank;
        int connection = connectionOf(observerRank);
        if (connection >= 0 && state[connection] == CONNECTED)
        {
            mendsOntoPreConnected++;
            final RemoteSlot held = target[connection];
            if (held.address() != address || held.rkey() != rkey || held.length() != length)
            {
                // the frame is the observer's latest word; a stale connection will fail and bring a fresh one
                descriptorsReplaced++;
                target[connection] = new RemoteSlot(address, rkey, length);
            }
            return true;
        }
        mendsAwaitingConnection++;
        if (connection < 0 && (connection = freeConnection()) >= 0)
        {
            startConnect(connection, observerRank);
        }
        return true;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The protocol's way into {@link #onNewObserver}: it calls this for an admitted NEW_OBSERVER frame, before T4,
     * and drops the frame when the descriptor is refused.
     */
    public boolean acceptObserver(
        final int observerRank, final int rkey, final long address, final int length, final long nowNs)
    {
        return onNewObserver(observerRank, rkey, address, length, nowNs);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Posts an RDMA WRITE if the connection to {@code observerRank} is up; otherwise the beat is dropped and
     * counted, and a connection is started if none exists (the next beat carries a larger counter, which is all
     * the observer needs).
     */
    public void writeHeartbeat(final int observerRank, final long counter)
    {
        currentObserver = observerRank;
        final int connection = connectionOf(observerRank);
        if (connection < 0 || state[connection] != CONNECTED)
        {
            beatsDroppedNotConnected++;
            if (connection < 0 && observerRank >= 0 && observerRank < clusterSize && observerRank != rank)
            {
                final int free = freeConnection();
                if (free >= 0)
                {
                    startConnect(free, observerRank);
                }
            }
            return;
        }

        final SignalPacer pacer = pacers[connection];
        if (!pacer.canPost())
        {
            verbs.pollCompletions(listener);
            if (state[connection] != CONNECTED || !pacer.canPost())
            {
                beatsDroppedQueueFull++;
                return;
            }
        }
        source.encode(counter, rank, incarnation, clock.nanoTime());
        final boolean signalled = pacer.onPost();
        if (!verbs.postWrite(connection, target[connection], signalled))
        {
            postFailures++;
            queuePairFailed(connection, verbs.lastError());
            return;
        }
        beatsPosted++;
        if (signalled)
        {
            signalledPending[connection]++;
            signalledOutstanding++;
        }
    }

    /**
     * {@inheritDoc}
     */
    public long readHeartbeat(final int emitterRank)
    {
        return localSlot.heartbeatFrom(emitterRank);
    }

    /**
     * {@inheritDoc}
     */
    public int lastWriter()
    {
        return localSlot.writerRank();
    }

    /**
     * @return this node's registered slot: what NEW_OBSERVER carries ({@code rdmaRkey}, {@code rdmaAddress},
     * {@code rdmaLength}).
     */
    public RemoteSlot localSlot()
    {
        return localDescriptor;
    }

    /**
     * @return where emitters connect, with the port actually bound.
     */
    public InetSocketAddress localEndpoint()
    {
        return verbs.localEndpoint();
    }

    /**
     * @return the local slot, for diagnostics and for fencing a dead rank that still writes.
     */
    public HeartbeatSlot slot()
    {
        return localSlot;
    }

    /**
     * @return false once the local port was seen down (within {@code portCheckIntervalNs}); the runtime must then
     * stop the node before its suspicion timer can expire, since it can no longer hear its emitter.
     */
    public boolean isLocalPortActive()
    {
        return localPortActive;
    }

    /**
     * @return when the local port was last seen going down (duty-cycle clock), 0 if never.
     */
    public long localPortDownSinceNs()
    {
        return localPortDownSinceNs;
    }

    /**
     * @param peerRank a rank.
     * @return true if a queue pair to it is established with its slot descriptor.
     */
    public boolean isConnectedTo(final int peerRank)
    {
        final int connection = connectionOf(peerRank);
        return connection >= 0 && state[connection] == CONNECTED;
    }

    /**
     * @return the ranks this node keeps connected (nearest live successors), nearest first; a copy, for tests and
     * diagnostics.
     */
    public int[] preConnectSet()
    {
        return Arrays.copyOf(wanted, wantedCount);
    }

    /**
     * @return connections currently established.
     */
    public int connectedCount()
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

    private void refill()
    {
        computeWanted();
        for (int i = 0; i < capacity; i++)
        {
            final int p = peer[i];
            if (p >= 0 && (isDead(p) || (!isWanted(p) && p != currentObserver)))
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
                startConnect(free, wanted[w]);
            }
        }
    }

    private void computeWanted()
    {
        final RankSet current = dead == null ? nobodyDead : dead;
        if (ring == null || ringDead != current)
        {
            // once per dead-set instance: the protocol hands over its own live set, the same one every time
            ringDead = current;
            ring = new Ring(rank, clusterSize, current);
        }
        wantedCount = ring.liveSuccessors(wanted);
    }

    private boolean isDead(final int candidate)
    {
        return dead != null && dead.contains(candidate);
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

    private int connectionOf(final int peerRank)
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

    private void startConnect(final int connection, final int peerRank)
    {
        peer[connection] = peerRank;
        state[connection] = CONNECTING;
        startedNs[connection] = nowNs;
        target[connection] = null;
        connecting++;
        connectAttempts++;
        try
        {
            verbs.connect(connection, endpoints[peerRank]);
        }
        catch (final IOException | RuntimeException ex)
        {
            connecting--;
            connectFailures++;
            lastError = "connect to rank " + peerRank + " at " + endpoints[peerRank] + ": " + ex.getMessage();
            backOff(connection);
        }
    }

    private int stepTimers()
    {
        int work = 0;
        for (int i = 0; i < capacity; i++)
        {
            if (state[i] == CONNECTING && nowNs - startedNs[i] - ctx.connectTimeoutNs() >= 0)
            {
                verbs.disconnect(i);
                connecting--;
                connectFailures++;
                lastError = "connect to rank " + peer[i] + " timed out after " +
                    TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs()) + " ms";
                backOff(i);
                work++;
            }
            else if (state[i] == BACKING_OFF && nowNs - retryAtNs[i] >= 0)
            {
                final int p = peer[i];
                if (!isDead(p) && (isWanted(p) || p == currentObserver))
                {
                    startConnect(i, p);
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

    private void checkPort()
    {
        final boolean active = verbs.isLocalPortActive();
        if (active != localPortActive)
        {
            localPortActive = active;
            if (!active)
            {
                localPortDowns++;
                localPortDownSinceNs = nowNs;
                lastError = "local RDMA port is down";
            }
        }
    }

    private void queuePairFailed(final int connection, final String reason)
    {
        verbs.disconnect(connection);
        lastError = "queue pair to rank " + peer[connection] + ": " + reason;
        backOff(connection);
    }

    private void backOff(final int connection)
    {
        clearPending(connection);
        state[connection] = BACKING_OFF;
        retryAtNs[connection] = nowNs + ctx.reconnectBackoffNs();
    }

    private void release(final int connection)
    {
        if (state[connection] == CONNECTING)
        {
            connecting--;
        }
        verbs.disconnect(connection);
        free(connection);
    }

    private void free(final int connection)
    {
        clearPending(connection);
        peer[connection] = -1;
        state[connection] = FREE;
        target[connection] = null;
    }

    private void clearPending(final int connection)
    {
        signalledOutstanding -= signalledPending[connection];
        signalledPending[connection] = 0;
        pacers[connection].reset();
    }

    /**
     * Disconnect everything and release every verbs resource. Idempotent.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            verbs.close();
        }
    }

    /**
     * @return RDMA WRITEs posted.
     */
    public long beatsPosted()
    {
        return beatsPosted;
    }

    /**
     * @return beats not posted because the connection to the observer was not up.
     */
    public long beatsDroppedNotConnected()
    {
        return beatsDroppedNotConnected;
    }

    /**
     * @return beats not posted because the send queue was full (signalled completions not arriving).
     */
    public long beatsDroppedQueueFull()
    {
        return beatsDroppedQueueFull;
    }

    /**
     * @return posts the queue pair refused (each tears the connection down for a retry).
     */
    public long postFailures()
    {
        return postFailures;
    }

    /**
     * @return signalled writes that completed successfully.
     */
    public long completionsReaped()
    {
        return completionsReaped;
    }

    /**
     * @return writes that completed with an error status (each tears the connection down for a retry).
     */
    public long completionErrors()
    {
        return completionErrors;
    }

    /**
     * @return outbound connection attempts.
     */
    public long connectAttempts()
    {
        return connectAttempts;
    }

    /**
     * @return outbound connections established (with the observer's descriptor).
     */
    public long connectionsEstablished()
    {
        return connectionsEstablished;
    }

    /**
     * @return outbound attempts that failed or timed out.
     */
    public long connectFailures()
    {
        return connectFailures;
    }

    /**
     * @return established connections lost (peer gone, fabric or device event).
     */
    public long disconnects()
    {
        return disconnects;
    }

    /**
     * @return sum of connect times (attempt to established) over {@link #connectionsEstablished()}: what a mending
     * onto a pre-connected observer does not wait for.
     */
    public long connectTimeTotalNs()
    {
        return connectTimeTotalNs;
    }

    /**
     * @return longest connect time seen.
     */
    public long connectTimeMaxNs()
    {
        return connectTimeMaxNs;
    }

    /**
     * @return NEW_OBSERVER frames whose observer was already connected: mended without waiting for rdma_cm.
     */
    public long mendsOntoPreConnected()
    {
        return mendsOntoPreConnected;
    }

    /**
     * @return NEW_OBSERVER frames whose observer was not connected yet: beats wait for rdma_cm.
     */
    public long mendsAwaitingConnection()
    {
        return mendsAwaitingConnection;
    }

    /**
     * @return NEW_OBSERVER descriptors rejected as invalid.
     */
    public long descriptorsRejected()
    {
        return descriptorsRejected;
    }

    /**
     * @return NEW_OBSERVER descriptors that differed from the one the connection brought.
     */
    public long descriptorsReplaced()
    {
        return descriptorsReplaced;
    }

    /**
     * @return inbound connections accepted (emitters connecting to this node's slot).
     */
    public long inboundAccepted()
    {
        return inboundAccepted;
    }

    /**
     * @return inbound connections closed or dropped.
     */
    public long inboundClosed()
    {
        return inboundClosed;
    }

    /**
     * @return times the local port was seen going down.
     */
    public long localPortDowns()
    {
        return localPortDowns;
    }

    /**
     * @return the most recent failure, for logs and {@code stat}; empty if none.
     */
    public String lastError()
    {
        return lastError;
    }

    private final class VerbsListener implements RdmaVerbs.Listener
    {
        public void onEstablished(final int connection, final RemoteSlot observerSlot)
        {
            if (state[connection] != CONNECTING)
            {
                return;
            }
            connecting--;
            state[connection] = CONNECTED;
            target[connection] = observerSlot;
            pacers[connection].reset();
            connectionsEstablished++;
            final long tookNs = nowNs - startedNs[connection];
            connectTimeTotalNs += tookNs;
            connectTimeMaxNs = Math.max(connectTimeMaxNs, tookNs);
        }

        public void onConnectFailed(final int connection, final String reason)
        {
            if (state[connection] != CONNECTING)
            {
                return;
            }
            connecting--;
            connectFailures++;
            lastError = "connect to rank " + peer[connection] + ": " + reason;
            backOff(connection);
        }

        public void onDisconnected(final int connection, final String reason)
        {
            if (state[connection] == CONNECTING)
            {
                onConnectFailed(connection, reason);
            }
            else if (state[connection] == CONNECTED)
            {
                disconnects++;
                lastError = "connection to rank " + peer[connection] + " lost: " + reason;
                backOff(connection);
            }
        }

        public void onWriteCompleted(final int connection, final boolean success, final String error)
        {
            if (state[connection] != CONNECTED)
            {
                return;
            }
            if (!success)
            {
                // errors complete even unsignalled writes; the queue pair carries nothing more
                completionErrors++;
                queuePairFailed(connection, error);
                return;
            }
            if (signalledPending[connection] > 0)
            {
                signalledPending[connection]--;
                signalledOutstanding--;
                completionsReaped++;
                pacers[connection].onSignalledCompletion();
            }
        }

        public void onInbound(final boolean accepted)
        {
            if (accepted)
            {
                inboundAccepted++;
            }
            else
            {
                inboundClosed++;
            }
        }
    }

    /**
     * Settings, Aeron style: fluent setters, defaults from {@link RdmaConfiguration}, validated by
     * {@link #conclude()}.
     */
    public static final class Context
    {
        private boolean concluded;
        private int rank = -1;
        private int incarnation;
        private RdmaEndpoint[] endpoints;
        private InetSocketAddress[] resolvedEndpoints;
        private int preConnect = -1;
        private int signalInterval = RdmaConfiguration.signalInterval();
        private long connectTimeoutNs = RdmaConfiguration.connectTimeoutNs();
        private long reconnectBackoffNs = RdmaConfiguration.reconnectBackoffNs();
        private long eventPollIntervalNs = RdmaConfiguration.eventPollIntervalNs();
        private long portCheckIntervalNs = RdmaConfiguration.portCheckIntervalNs();
        private int maxInbound = RdmaConfiguration.maxInbound();
        private NanoClock nanoClock;
        private RdmaVerbs verbs;

        /**
         * Fill defaults, resolve endpoints and validate.
         *
         * @return this.
         * @throws IllegalArgumentException naming the offending value.
         */
        public Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            if (endpoints == null || endpoints.length < 2)
            {
                throw new IllegalArgumentException(
                    "endpoints must give an RDMA endpoint for each of at least 2 ranks");
            }
            if (endpoints.length - 1 > HeartbeatSlotLayout.MAX_RANK)
            {
                throw new IllegalArgumentException("at most " + (HeartbeatSlotLayout.MAX_RANK + 1) + " ranks: " +
                    endpoints.length);
            }
            if (rank < 0 || rank >= endpoints.length)
            {
                throw new IllegalArgumentException("rank must be set and in [0, " + endpoints.length + "): " + rank);
            }
            resolvedEndpoints = new InetSocketAddress[endpoints.length];
            for (int r = 0; r < endpoints.length; r++)
            {
                if (endpoints[r] == null)
                {
                    throw new IllegalArgumentException("no RDMA endpoint for rank " + r);
                }
                resolvedEndpoints[r] = endpoints[r].resolve();
            }
            if (resolvedEndpoints[rank].getAddress().isAnyLocalAddress())
            {
                throw new IllegalArgumentException("rank " + rank + "'s RDMA endpoint must be a concrete IP of an " +
                    "RDMA interface (IPoIB or RoCE), not " + endpoints[rank]);
            }
            final int defaultPreConnect = preConnectCount(endpoints.length);
            if (preConnect < 0)
            {
                preConnect = defaultPreConnect;
            }
            if (preConnect < 1 || preConnect > endpoints.length - 1)
            {
                throw new IllegalArgumentException("preConnect must be in [1, " + (endpoints.length - 1) + "]: " +
                    preConnect);
            }
            if (signalInterval < 1 || signalInterval > 1024)
            {
                throw new IllegalArgumentException(RdmaConfiguration.SIGNAL_INTERVAL_PROP_NAME +
                    " must be in [1, 1024]: " + signalInterval);
            }
            if (connectTimeoutNs < 1_000_000L)
            {
                throw new IllegalArgumentException(RdmaConfiguration.CONNECT_TIMEOUT_PROP_NAME +
                    " must be >= 1ms: " + connectTimeoutNs + "ns");
            }
            if (reconnectBackoffNs < 0)
            {
                throw new IllegalArgumentException(RdmaConfiguration.RECONNECT_BACKOFF_PROP_NAME +
                    " must be >= 0: " + reconnectBackoffNs + "ns");
            }
            if (eventPollIntervalNs <= 0)
            {
                throw new IllegalArgumentException(RdmaConfiguration.EVENT_POLL_INTERVAL_PROP_NAME +
                    " must be > 0: " + eventPollIntervalNs + "ns");
            }
            if (portCheckIntervalNs <= 0)
            {
                throw new IllegalArgumentException(RdmaConfiguration.PORT_CHECK_INTERVAL_PROP_NAME +
                    " must be > 0: " + portCheckIntervalNs + "ns");
            }
            if (maxInbound < 0)
            {
                maxInbound = preConnect + 1;
            }
            if (maxInbound < 1)
            {
                throw new IllegalArgumentException(RdmaConfiguration.MAX_INBOUND_PROP_NAME + " must be >= 1: " +
                    maxInbound);
            }
            if (nanoClock == null)
            {
                nanoClock = SystemNanoClock.INSTANCE;
            }
            concluded = true;
            return this;
        }

        private void checkMutable()
        {
            if (concluded)
            {
                throw new IllegalStateException("Context is concluded; create a new one to change settings");
            }
        }

        /**
         * @param rank this node's rank.
         * @return this.
         */
        public Context rank(final int rank)
        {
            checkMutable();
            this.rank = rank;
            return this;
        }

        /**
         * @return this node's rank.
         */
        public int rank()
        {
            return rank;
        }

        /**
         * @param incarnation restart count written into every beat.
         * @return this.
         */
        public Context incarnation(final int incarnation)
        {
            checkMutable();
            this.incarnation = incarnation;
            return this;
        }

        /**
         * @return restart count written into every beat.
         */
        public int incarnation()
        {
            return incarnation;
        }

        /**
         * @param endpoints every rank's RDMA endpoint from the cluster file, indexed by rank; this node's own is
         *                  where it listens.
         * @return this.
         */
        public Context endpoints(final RdmaEndpoint... endpoints)
        {
            checkMutable();
            this.endpoints = endpoints.clone();
            return this;
        }

        /**
         * @return every rank's RDMA endpoint.
         */
        public RdmaEndpoint[] endpoints()
        {
            return endpoints;
        }

        InetSocketAddress[] resolvedEndpoints()
        {
            return resolvedEndpoints;
        }

        /**
         * @param preConnect successors kept connected; default {@link #preConnectCount(int)}.
         * @return this.
         */
        public Context preConnect(final int preConnect)
        {
            checkMutable();
            this.preConnect = preConnect;
            return this;
        }

        /**
         * @return successors kept connected.
         */
        public int preConnect()
        {
            return preConnect;
        }

        /**
         * @param signalInterval signal one write in this many.
         * @return this.
         */
        public Context signalInterval(final int signalInterval)
        {
            checkMutable();
            this.signalInterval = signalInterval;
            return this;
        }

        /**
         * @return signal one write in this many.
         */
        public int signalInterval()
        {
            return signalInterval;
        }

        /**
         * @param connectTimeoutNs limit on one connection attempt.
         * @return this.
         */
        public Context connectTimeoutNs(final long connectTimeoutNs)
        {
            checkMutable();
            this.connectTimeoutNs = connectTimeoutNs;
            return this;
        }

        /**
         * @return limit on one connection attempt.
         */
        public long connectTimeoutNs()
        {
            return connectTimeoutNs;
        }

        /**
         * @param reconnectBackoffNs pause before retrying a failed connection.
         * @return this.
         */
        public Context reconnectBackoffNs(final long reconnectBackoffNs)
        {
            checkMutable();
            this.reconnectBackoffNs = reconnectBackoffNs;
            return this;
        }

        /**
         * @return pause before retrying a failed connection.
         */
        public long reconnectBackoffNs()
        {
            return reconnectBackoffNs;
        }

        /**
         * @param eventPollIntervalNs connection-event poll period when no connection is being made.
         * @return this.
         */
        public Context eventPollIntervalNs(final long eventPollIntervalNs)
        {
            checkMutable();
            this.eventPollIntervalNs = eventPollIntervalNs;
            return this;
        }

        /**
         * @return connection-event poll period when no connection is being made.
         */
        public long eventPollIntervalNs()
        {
            return eventPollIntervalNs;
        }

        /**
         * @param portCheckIntervalNs how often the local port state is read; keep it well below δ.
         * @return this.
         */
        public Context portCheckIntervalNs(final long portCheckIntervalNs)
        {
            checkMutable();
            this.portCheckIntervalNs = portCheckIntervalNs;
            return this;
        }

        /**
         * @return how often the local port state is read.
         */
        public long portCheckIntervalNs()
        {
            return portCheckIntervalNs;
        }

        /**
         * @param maxInbound emitter connections kept by the observer side; default pre-connection count + 1.
         * @return this.
         */
        public Context maxInbound(final int maxInbound)
        {
            checkMutable();
            this.maxInbound = maxInbound;
            return this;
        }

        /**
         * @return emitter connections kept by the observer side.
         */
        public int maxInbound()
        {
            return maxInbound;
        }

        /**
         * @param nanoClock clock for the diagnostic timestamp written into beats (the agent's cached clock).
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            checkMutable();
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * @return clock for the timestamp written into beats.
         */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }

        /**
         * @param verbs the verbs layer; {@code null} (default) probes the host and uses {@link DisniVerbs}.
         * @return this.
         */
        public Context verbs(final RdmaVerbs verbs)
        {
            checkMutable();
            this.verbs = verbs;
            return this;
        }

        /**
         * @return the verbs layer, {@code null} for DiSNI.
         */
        public RdmaVerbs verbs()
        {
            return verbs;
        }
    }
}
