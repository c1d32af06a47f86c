package io.ringwatch.transport.rdma;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * Heartbeats by one-sided RDMA WRITE, as the live runtime uses them. Each node is both sides at once:
 * <ul>
 * <li><b>Observer</b>: one 64-byte {@link HeartbeatSlotLayout heartbeat slot}; {@link #readHeartbeat(int)} is the
 * same acquire load of the same layout every transport uses. It becomes writable only to emitters that passed the
 * handshake, each through a registration of its own connection ({@link InboundConnections}).</li>
 * <li><b>Emitter</b>: {@link #writeHeartbeat(int, long)} posts one inline RDMA WRITE of the 28-byte payload into the
 * observer's slot over a queue pair made in advance ({@link OutboundConnections}). One write in
 * {@code signalInterval} is signalled; completions are polled only while a signalled write is outstanding
 * ({@link BeatWriter}).</li>
 * </ul>
 *
 * <h2>Connections are authenticated before the slot is writable</h2>
 * On every new queue pair the observer sends a challenge, the emitter answers with a hello and the observer with a
 * grant, each MAC'd under the cluster keyring with fresh nonces ({@link RdmaHello}). The observer grants only ranks
 * it expects (its nearest live predecessors, the emitter first), and only after the emitter answered this
 * connection's nonce, so neither a connector without the key nor a recorded hello gets an rkey.
 *
 * <h2>Connections are made before they are needed</h2>
 * rdma_cm connection setup (address and route resolution, the connect handshake, then this node's own) takes
 * milliseconds, while a mended ring gives the new emitter 2δ to be heard, and δ can be a millisecond. So a node
 * connects at start to the {@link #preConnectCount(int) ⌊log₂ N⌋ + 1} nearest live successors (every node likely to
 * become its observer), keeps those queue pairs, and re-fills the set after every view change
 * ({@link #onViewChange}). Each connection arrives with the observer's grant, so the initial ring needs no
 * NEW_OBSERVER and a mended ring needs no round trip: NEW_OBSERVER ({@link #onNewObserver}) only confirms the slot.
 * A connection that is not ready when it is needed is counted and made on demand.
 *
 * <h2>Failures are counted, never suspected</h2>
 * A queue pair that fails (error completion, refused post, disconnect, connect error, refused handshake or timeout)
 * is torn down, counted and retried after a back-off while its peer is still wanted. Nothing here suspects anyone:
 * only the protocol's slot reads do. A node whose own port goes down stops hearing its emitter, and would then
 * suspect a healthy node after δ; {@link #isLocalPortActive()} reports it within {@code portCheckIntervalNs} so the
 * runtime can stop the node first (fail-stop, as for a lost media driver): its observer suspects it, it suspects
 * nobody.
 *
 * <h2>Duty cycle and allocation</h2>
 * Everything runs on the agent thread: {@link #poll(long)} once per duty cycle, the rest when the protocol calls.
 * {@link #writeHeartbeat}, {@link #readHeartbeat} and completion reaping do not allocate. Connection setup and the
 * handshake do, and so does DiSNI's connection-manager poll, which is therefore paced: every cycle while a
 * connection is being made or a handshake is under way, or one is expected from a predecessor, otherwise every
 * {@code eventPollIntervalNs}.
 */
public final class RdmaHeartbeats implements HeartbeatChannel, AutoCloseable
{
    private final Context ctx;
    private final RdmaVerbs verbs;
    private final int rank;
    private final long incarnation;
    private final int clusterSize;
    private final NanoClock clock;

    private final HeartbeatSlot localSlot;
    private final HeartbeatSlot source;
    private final RemoteSlot localDescriptor;
    private final VerbsListener listener = new VerbsListener();
    private final RdmaCounters counters = new RdmaCounters();
    private final BeatWriter writer;
    private final OutboundConnections outbound;
    private final InboundConnections inbound;

    private RankSet dead;
    // before the first view nobody is known dead
    private final RankSet nobodyDead = new RankArray(1);
    private RankSet ringDead;
    private Ring ring;

    private long nowNs;
    private boolean started;
    private boolean closed;
    private long fastEventPollUntilNs;
    private long nextEventPollNs;
    private long nextPortCheckNs;
    private boolean localPortActive = true;
    private long localPortDownSinceNs;

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

        final UnsafeBuffer localBuffer = HeartbeatSlot.allocateAligned();
        final UnsafeBuffer sourceBuffer = HeartbeatSlot.allocateAligned();
        this.localSlot = new HeartbeatSlot().wrap(localBuffer, 0).reset();
        this.source = new HeartbeatSlot().wrap(sourceBuffer, 0).reset();
        // NEW_OBSERVER names the slot, never an rkey: rkeys are granted per connection by the handshake
        this.localDescriptor = new RemoteSlot(localSlot.address(), 0, HeartbeatSlotLayout.SLOT_LENGTH);

        final int outboundCapacity = ctx.preConnect() + 1;
        RdmaVerbs openedVerbs = ctx.verbs();
        if (openedVerbs == null)
        {
            final RdmaDevices.Availability availability = RdmaDevices.probe();
            if (!availability.usable())
            {
                throw new RdmaUnavailableException(availability.reason());
            }
            openedVerbs = new DisniVerbs(outboundCapacity, 2 * ctx.maxInbound(), ctx.signalInterval(),
                (int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs())));
        }
        this.verbs = openedVerbs;
        final RdmaHello hello = new RdmaHello(ctx.authenticator(), ctx.clusterId(), ctx.configDigest(), ctx.runId());
        final SecureRandom nonces = new SecureRandom();
        this.writer = new BeatWriter(verbs, counters, outboundCapacity, ctx.signalInterval());
        this.outbound = new OutboundConnections(ctx, verbs, counters, writer, hello, nonces);
        this.inbound = new InboundConnections(ctx, verbs, counters, hello, nonces);
        try
        {
            verbs.open(ctx.resolvedEndpoints()[rank], localSlot, source);
        }
        catch (final IOException | RuntimeException | LinkageError ex)
        {
            verbs.close();
            throw new RdmaUnavailableException(
                "RDMA set-up on " + ctx.resolvedEndpoints()[rank] + " failed: " + ex, ex);
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
     * One duty cycle's share: start the initial connections (first call), step connection set-up and handshakes,
     * reap completions while a signalled write or a handshake is outstanding, retry failed connections after their
     * back-off, and check the local port every {@code portCheckIntervalNs}.
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
                viewChanged();
            }
            fastEventPollUntilNs = nowNs + ctx.connectTimeoutNs();
            work++;
        }
        if (nowNs - nextPortCheckNs >= 0)
        {
            nextPortCheckNs = nowNs + ctx.portCheckIntervalNs();
            checkPort();
        }
        final boolean handshaking = outbound.settingUp() > 0 || inbound.handshaking() > 0;
        if (handshaking || writer.outstanding() > 0)
        {
            work += verbs.pollCompletions(listener);
        }
        if (handshaking || nowNs - fastEventPollUntilNs < 0 || nowNs - nextEventPollNs >= 0)
        {
            nextEventPollNs = nowNs + ctx.eventPollIntervalNs();
            work += verbs.pollEvents(listener);
        }
        return work + outbound.stepTimers(deadSet(), nowNs) + inbound.stepTimers(nowNs);
    }

    /**
     * The view changed: drop connections to dead ranks, connect to the successors that now make up the nearest
     * ⌊log₂ N⌋ + 1 live ones, revoke the grants of writers no longer expected, and poll connection events every
     * cycle for a while, since predecessors are re-filling their sets towards this node too. Call after every view
     * change, before the next heartbeat.
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
        viewChanged();
    }

    /**
     * A NEW_OBSERVER frame arrived: {@code observerRank} is now this node's observer and its slot is at the frame's
     * RDMA address. With the observer pre-connected the next beat is written at once, under the rkey its grant gave
     * (the frame's rkey is not used: frames carry none); otherwise a connection is made now and beats are dropped
     * (and counted) until its handshake is done.
     *
     * @param observerRank the frame's sender.
     * @param rkey         the frame's {@code rdmaRkey}; ignored.
     * @param address      the frame's {@code rdmaAddress}.
     * @param length       the frame's {@code rdmaLength}.
     * @param nowNs        the duty cycle's clock.
     * @return false if the descriptor is invalid (counted in {@link RdmaCounters#descriptorsRejected()}, frame to be
     * dropped).
     */
    public boolean onNewObserver(
        final int observerRank, final int rkey, final long address, final int length, final long nowNs)
    {
        this.nowNs = nowNs;
        final String invalid = RemoteSlot.invalidReason(address, length);
        if (invalid != null || observerRank < 0 || observerRank >= clusterSize || observerRank == rank)
        {
            counters.descriptorsRejected++;
            counters.error("NEW_OBSERVER from rank " + observerRank + ": " +
                (invalid != null ? invalid : "not a peer rank"));
            return false;
        }
        final int connection = outbound.observe(observerRank, nowNs);
        if (outbound.isConnected(connection))
        {
            counters.mendsOntoPreConnected++;
            outbound.confirmSlot(connection, address, length, nowNs);
        }
        else
        {
            counters.mendsAwaitingConnection++;
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
        final int connection = outbound.observe(observerRank, nowNs);
        if (!outbound.isConnected(connection))
        {
            counters.beatsDroppedNotConnected++;
            return;
        }
        if (!writer.canPost(connection))
        {
            verbs.pollCompletions(listener);
            if (!outbound.isConnected(connection))
            {
                counters.beatsDroppedQueueFull++;
                return;
            }
        }
        source.encode(counter, rank, incarnation, clock.nanoTime());
        if (writer.post(connection, outbound.target(connection)) == BeatWriter.REFUSED)
        {
            outbound.queuePairFailed(connection, verbs.lastError(), nowNs);
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
     * @return this node's slot as NEW_OBSERVER carries it ({@code rdmaAddress}, {@code rdmaLength}; the rkey is 0:
     * each emitter's comes from its own handshake).
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
     * @return what this node counted.
     */
    public RdmaCounters counters()
    {
        return counters;
    }

    /**
     * @return the most recent failure, for logs and {@code stat}; empty if none.
     */
    public String lastError()
    {
        return counters.lastError();
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
     * @return true if a queue pair to it is established with its observer's grant.
     */
    public boolean isConnectedTo(final int peerRank)
    {
        return outbound.isConnected(outbound.connectionOf(peerRank));
    }

    /**
     * @param writerRank a rank.
     * @return true if it holds a granted connection to this node's slot.
     */
    public boolean isGrantedTo(final int writerRank)
    {
        return inbound.isGranted(writerRank);
    }

    /**
     * @return the ranks this node keeps connected (nearest live successors), nearest first; a copy, for tests and
     * diagnostics.
     */
    public int[] preConnectSet()
    {
        return outbound.wanted();
    }

    /**
     * @return the ranks this node lets write its slot (nearest live predecessors), nearest first; a copy.
     */
    public int[] expectedWriters()
    {
        return inbound.expected();
    }

    /**
     * @return connections currently established.
     */
    public int connectedCount()
    {
        return outbound.connectedCount();
    }

    private RankSet deadSet()
    {
        return dead == null ? nobodyDead : dead;
    }

    private void viewChanged()
    {
        final RankSet current = deadSet();
        if (ring == null || ringDead != current)
        {
            // once per dead-set instance: the protocol hands over its own live set, the same one every time
            ringDead = current;
            ring = new Ring(rank, clusterSize, current);
        }
        inbound.expect(ring);
        outbound.refill(ring, current, nowNs);
    }

    private void checkPort()
    {
        final boolean active = verbs.isLocalPortActive();
        if (active != localPortActive)
        {
            localPortActive = active;
            if (!active)
            {
                counters.localPortDowns++;
                localPortDownSinceNs = nowNs;
                counters.error("local RDMA port is down");
            }
        }
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

    private final class VerbsListener implements RdmaVerbs.Listener
    {
        public void onConnectFailed(final int connection, final String reason)
        {
            outbound.onConnectFailed(connection, reason, nowNs);
        }

        public void onDisconnected(final int connection, final String reason)
        {
            outbound.onDisconnected(connection, reason, nowNs);
        }

        public void onWriteCompleted(final int connection, final boolean success, final String error)
        {
            outbound.onWriteCompleted(connection, success, error, nowNs);
        }

        public int onConnectRequest()
        {
            return inbound.onConnectRequest(nowNs);
        }

        public void onInboundConnected(final int id)
        {
            inbound.onConnected(id);
        }

        public void onInboundClosed(final int id, final String reason)
        {
            inbound.onClosed(id);
        }

        public void onMessage(final int id, final boolean isInbound, final DirectBuffer buffer, final int offset)
        {
            if (isInbound)
            {
                inbound.onMessage(id, buffer, offset);
            }
            else
            {
                outbound.onMessage(id, buffer, offset, nowNs);
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
        private long incarnation;
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
        private FrameAuthenticator authenticator;
        private int clusterId;
        private int configDigest;
        private long runId;

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
            if (authenticator == null)
            {
                throw new IllegalArgumentException("authenticator must be set: the node's keyring, which signs the " +
                    "RDMA connection handshake, or FrameAuthenticator.NONE to run it unauthenticated");
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
        public Context incarnation(final long incarnation)
        {
            checkMutable();
            this.incarnation = incarnation;
            return this;
        }

        /**
         * @return restart count written into every beat.
         */
        public long incarnation()
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
         * @param maxInbound emitter connections the observer side grants its slot to (and how many handshakes it
         *                   keeps at once beside them), and how many nearest live predecessors it lets write: one
         *                   more than they pre-connect to it, for views that lag; default pre-connection count + 1.
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
         * @param authenticator the node's keyring (the instance its agent thread signs frames with, so a key rotation
         *                      reaches the handshake too); {@link FrameAuthenticator#NONE} leaves connections
         *                      unauthenticated. Required.
         * @return this.
         */
        public Context authenticator(final FrameAuthenticator authenticator)
        {
            checkMutable();
            this.authenticator = authenticator;
            return this;
        }

        /**
         * @return the keyring the handshake is signed with.
         */
        public FrameAuthenticator authenticator()
        {
            return authenticator;
        }

        /**
         * @param clusterId the cluster file's id, named in every handshake message.
         * @return this.
         */
        public Context clusterId(final int clusterId)
        {
            checkMutable();
            this.clusterId = clusterId;
            return this;
        }

        /**
         * @return the cluster id named in handshakes.
         */
        public int clusterId()
        {
            return clusterId;
        }

        /**
         * @param configDigest the digest of what the cluster agrees on (as frames carry it), named in handshakes.
         * @return this.
         */
        public Context configDigest(final int configDigest)
        {
            checkMutable();
            this.configDigest = configDigest;
            return this;
        }

        /**
         * @return the config digest named in handshakes.
         */
        public int configDigest()
        {
            return configDigest;
        }

        /**
         * @param runId the run this node belongs to, named in handshakes so one recorded in another run is refused;
         *              0 (default) until the runtime names runs.
         * @return this.
         */
        public Context runId(final long runId)
        {
            checkMutable();
            this.runId = runId;
            return this;
        }

        /**
         * @return the run id named in handshakes.
         */
        public long runId()
        {
            return runId;
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
