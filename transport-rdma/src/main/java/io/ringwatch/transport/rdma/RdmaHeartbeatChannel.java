package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

/**
 * Heartbeats by one-sided RDMA WRITE (DiSNI verbs). Each node is both sides at once:
 * <ul>
 * <li><b>Observer</b>: a 64-byte, cache-line aligned off-heap {@link HeartbeatSlot} registered as a memory
 * region with remote-write access. {@link #localSlot()} (address, rkey, length) goes into this node's
 * NEW_OBSERVER; {@link #localEndpoint()} is where emitters connect (the RDMA CM listener, on the IPoIB or RoCE
 * interface's address). {@link #readHeartbeat(int)} is an acquire load of the local slot.</li>
 * <li><b>Emitter</b>: when it learns its observer's endpoint and slot ({@link #connectObserver}), it connects a
 * reliable-connected queue pair to it and {@link #writeHeartbeat(int, long)} posts a pre-built inline RDMA
 * WRITE of counter, rank, incarnation and timestamp: one 24-byte put, unsignalled except every
 * {@code signalInterval}-th, whose completion is reaped to recycle send-queue entries.</li>
 * </ul>
 * All methods are called from the node's agent thread. {@link #doWork(long)} steps connection setup and
 * completion reaping; it must be part of the duty cycle.
 *
 * <h2>Why the heartbeat word is read whole</h2>
 * The counter and the writer's rank travel in one 8-byte word ({@link HeartbeatSlotLayout}). The slot is
 * 64-byte aligned, so the 24-byte payload sits in one cache line and the word is naturally aligned. The HCA
 * delivers an RDMA WRITE this small as a single PCIe posted write (one TLP, far below any max payload size),
 * and on x86 the root complex commits an inbound DMA write to write-back memory coherently per cache line, so
 * a CPU load of an aligned 8-byte word inside it sees either the old or the new value, never a mix. That is a
 * property of x86 + PCIe platforms in practice (collective libraries' low-latency protocols rely on the same
 * 8-byte guarantee for NIC writes), not a promise of the InfiniBand specification, which says nothing about the
 * order or granularity in which the bytes of one message are placed in memory.
 * <p>
 * If a platform broke that guarantee, the reader would still be safe in the case that matters. The detector
 * only asks whether the word changed since its last look: a dead emitter writes nothing, so its slot is stable
 * and every read returns the same value. A torn read can only happen while a write is landing, and with one
 * writer it at worst reports progress one duty cycle early (or shows a foreign rank, read as
 * {@link HeartbeatChannel#NO_HEARTBEAT}); the next read returns the real value. Only with two writers at once
 * (an emitter wrongly declared dead still writing after the ring was mended) could a torn word pair the new
 * emitter's rank with the old one's counter bits, and that emitter fences itself as soon as it learns it was
 * declared dead. The diagnostic fields after the word are never used for decisions.
 *
 * <h2>Allocation</h2>
 * {@link #writeHeartbeat}, {@link #readHeartbeat} and completion reaping do not allocate. Connection setup
 * does, and so does each DiSNI connection-manager poll: the observer therefore polls for connection requests
 * every duty cycle only while one is expected ({@link #expectInbound(long)}, e.g. after sending NEW_OBSERVER)
 * and otherwise every {@code idleAcceptPollIntervalNs}.
 */
public final class RdmaHeartbeatChannel implements HeartbeatChannel, AutoCloseable
{
    private final Context ctx;
    private final SlotListener listener;
    private final SlotWriter writer;
    private final HeartbeatSlot localSlot;
    private final NanoClock nanoClock;
    private final int rank;
    private final int incarnation;

    private long acceptWindowEndNs;
    private long nextIdleAcceptPollNs;
    private long beatsDroppedNotConnected;
    private long beatsForOtherObserver;

    /**
     * Open the listener and register the slot.
     *
     * @param ctx settings; concluded here.
     * @throws RdmaUnavailableException with the precise reason if this host cannot do RDMA, or if the verbs
     *                                  setup fails.
     */
    public RdmaHeartbeatChannel(final Context ctx)
    {
        this.ctx = ctx.conclude();
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new RdmaUnavailableException("heartbeat slots are little-endian; this platform is not");
        }
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        if (!availability.usable())
        {
            throw new RdmaUnavailableException(availability.reason());
        }

        this.rank = ctx.rank();
        this.incarnation = ctx.incarnation();
        this.nanoClock = ctx.nanoClock();

        SlotListener openedListener = null;
        try
        {
            openedListener = new SlotListener(ctx.bindAddress(), ctx.maxInbound());
            this.writer = new SlotWriter(ctx.signalInterval(), ctx.connectTimeoutNs(), ctx.reconnectBackoffNs());
        }
        catch (final IOException | RuntimeException | LinkageError ex)
        {
            if (openedListener != null)
            {
                openedListener.close();
            }
            throw new RdmaUnavailableException("RDMA setup on " + ctx.bindAddress() + " failed: " + ex, ex);
        }
        this.listener = openedListener;
        this.localSlot = listener.slot();
    }

    /**
     * @return the registered slot to advertise in NEW_OBSERVER.
     */
    public RemoteSlot localSlot()
    {
        return listener.localSlot();
    }

    /**
     * @return the RDMA CM address emitters connect to (with the port actually bound).
     */
    public InetSocketAddress localEndpoint()
    {
        return listener.localEndpoint();
    }

    /**
     * This node's observer changed (initial ring, or mending after a failure): connect to it. Heartbeats to it
     * are dropped and counted until the connection is established (usually well under δ on a healthy fabric);
     * {@link #isConnectedTo(int)} tells the runtime when it may rely on this path.
     *
     * @param observerRank the observer.
     * @param endpoint     its RDMA CM endpoint.
     * @param slot         its slot, from its NEW_OBSERVER.
     * @param nowNs        the duty cycle's clock.
     */
    public void connectObserver(
        final int observerRank, final InetSocketAddress endpoint, final RemoteSlot slot, final long nowNs)
    {
        writer.connect(observerRank, endpoint, slot, nowNs);
    }

    /**
     * Poll for connection requests every duty cycle for the next connect timeout, e.g. right after sending
     * NEW_OBSERVER to a new emitter, which will connect here.
     *
     * @param nowNs the duty cycle's clock.
     */
    public void expectInbound(final long nowNs)
    {
        acceptWindowEndNs = nowNs + ctx.connectTimeoutNs();
    }

    /**
     * @param observerRank a rank.
     * @return true if heartbeats to it are being written now.
     */
    public boolean isConnectedTo(final int observerRank)
    {
        return writer.isConnected() && writer.observerRank() == observerRank;
    }

    /**
     * Step connection setup on both sides and reap write completions.
     *
     * @param nowNs the duty cycle's clock.
     * @return work done.
     */
    public int doWork(final long nowNs)
    {
        int work = writer.doWork(nowNs);
        if (nowNs - acceptWindowEndNs < 0 || nowNs - nextIdleAcceptPollNs >= 0)
        {
            nextIdleAcceptPollNs = nowNs + ctx.idleAcceptPollIntervalNs();
            work += listener.pollConnectionEvents();
        }
        return work;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Posts an RDMA WRITE if connected to {@code observerRank}; otherwise counts the beat as dropped.
     */
    public void writeHeartbeat(final int observerRank, final long counter)
    {
        if (writer.observerRank() != observerRank)
        {
            beatsForOtherObserver++;
            return;
        }
        if (!writer.write(counter, rank, incarnation, nanoClock.nanoTime()) && !writer.isConnected())
        {
            beatsDroppedNotConnected++;
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
     * @return the local slot, for diagnostics (incarnation, timestamp of the last writer).
     */
    public HeartbeatSlot slot()
    {
        return localSlot;
    }

    /**
     * @return RDMA WRITEs posted.
     */
    public long beatsPosted()
    {
        return writer.posted();
    }

    /**
     * @return beats not posted because no connection to the observer was established.
     */
    public long beatsDroppedNotConnected()
    {
        return beatsDroppedNotConnected;
    }

    /**
     * @return beats not posted because the send queue was full (completions not arriving).
     */
    public long beatsDroppedQueueFull()
    {
        return writer.droppedQueueFull();
    }

    /**
     * @return beats addressed to a rank other than the observer last given to {@link #connectObserver}.
     */
    public long beatsForOtherObserver()
    {
        return beatsForOtherObserver;
    }

    /**
     * @return signalled completions reaped successfully.
     */
    public long completionsReaped()
    {
        return writer.completionsReaped();
    }

    /**
     * @return completions with an error status (each tears the connection down for a retry).
     */
    public long completionErrors()
    {
        return writer.completionErrors();
    }

    /**
     * @return outbound connection attempts.
     */
    public long connectAttempts()
    {
        return writer.connectAttempts();
    }

    /**
     * @return outbound connections established.
     */
    public long connectionsEstablished()
    {
        return writer.connectionsEstablished();
    }

    /**
     * @return outbound failures (setup or data path).
     */
    public long connectFailures()
    {
        return writer.connectFailures();
    }

    /**
     * @return inbound connections accepted.
     */
    public long inboundAccepted()
    {
        return listener.accepted();
    }

    /**
     * @return inbound connections currently held.
     */
    public int inboundConnections()
    {
        return listener.inboundConnections();
    }

    /**
     * @return the most recent failure on either side, for logs and {@code stat}.
     */
    public String lastFailure()
    {
        final String writerFailure = writer.lastFailure();
        return writerFailure.isEmpty() ? listener.lastFailure() : writerFailure;
    }

    /**
     * Disconnect and release every verbs resource.
     */
    public void close()
    {
        writer.close();
        listener.close();
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
        private InetSocketAddress bindAddress;
        private int signalInterval = RdmaConfiguration.signalInterval();
        private long connectTimeoutNs = RdmaConfiguration.connectTimeoutNs();
        private long reconnectBackoffNs = RdmaConfiguration.reconnectBackoffNs();
        private long idleAcceptPollIntervalNs = RdmaConfiguration.idleAcceptPollIntervalNs();
        private int maxInbound = RdmaConfiguration.maxInbound();
        private NanoClock nanoClock;

        /**
         * Fill defaults and validate.
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
            if (rank < 0 || rank > HeartbeatSlotLayout.MAX_RANK)
            {
                throw new IllegalArgumentException("rank must be set and in [0, " + HeartbeatSlotLayout.MAX_RANK +
                    "]: " + rank);
            }
            if (bindAddress == null || bindAddress.isUnresolved() || bindAddress.getAddress().isAnyLocalAddress())
            {
                throw new IllegalArgumentException("bindAddress must be a concrete IP of an RDMA interface " +
                    "(IPoIB or RoCE), not " + bindAddress);
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
            if (idleAcceptPollIntervalNs <= 0)
            {
                throw new IllegalArgumentException(RdmaConfiguration.IDLE_ACCEPT_POLL_INTERVAL_PROP_NAME +
                    " must be > 0: " + idleAcceptPollIntervalNs + "ns");
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
         * @param bindAddress IP of the local RDMA interface and port for the listener (0 for any free port).
         * @return this.
         */
        public Context bindAddress(final InetSocketAddress bindAddress)
        {
            checkMutable();
            this.bindAddress = bindAddress;
            return this;
        }

        /**
         * @return listener address.
         */
        public InetSocketAddress bindAddress()
        {
            return bindAddress;
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
         * @param idleAcceptPollIntervalNs listener poll period when no connection is expected.
         * @return this.
         */
        public Context idleAcceptPollIntervalNs(final long idleAcceptPollIntervalNs)
        {
            checkMutable();
            this.idleAcceptPollIntervalNs = idleAcceptPollIntervalNs;
            return this;
        }

        /**
         * @return listener poll period when no connection is expected.
         */
        public long idleAcceptPollIntervalNs()
        {
            return idleAcceptPollIntervalNs;
        }

        /**
         * @param maxInbound emitter connections kept by the observer side.
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
         * @param nanoClock clock for the timestamp written into beats.
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
    }
}
