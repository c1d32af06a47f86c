package io.ringwatch.transport.rdma;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.ringwatch.core.slot.HeartbeatSlotLayout.HEARTBEAT_WORD_OFFSET;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.PAYLOAD_LENGTH;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.SLOT_LENGTH;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.WRITER_RANK_OFFSET;

/**
 * A fabric in memory, for unit tests of {@link RdmaHeartbeats}' logic only: never offered to users. Writes really
 * land in the observer's registered off-heap slot (the payload's diagnostics, then the heartbeat word with a
 * release store, as a NIC's single posted write would be seen), so observers read them with the same acquire load
 * as on hardware. Connection set-up takes {@link #connectLatencyNs} of the test's clock. Faults: a process killed
 * (its connections break and peers get a disconnect event, as the kernel's clean-up sends one), a port down (no
 * events at all, only failed writes and failed connects), a queue pair broken.
 * <p>
 * Shipped in this module's test jar so the runtime's tests (transport-aeron) can run live nodes over it. Not thread
 * safe: one thread drives every node on it.
 */
public final class InMemoryFabric
{
    static final String RETRY_EXCEEDED = "IBV_WC_RETRY_EXC_ERR (in-memory fabric)";
    static final String REMOTE_ACCESS = "IBV_WC_REM_ACCESS_ERR (in-memory fabric)";
    static final String WR_FLUSH = "IBV_WC_WR_FLUSH_ERR (in-memory fabric)";

    private final Map<InetSocketAddress, Node> listeners = new HashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    private int nextRkey = 0x100;
    /** The fabric's clock: connections become ready {@link #connectLatencyNs} after they were asked for. */
    public long nowNs;
    /** How long a connection takes to set up, on {@link #nowNs}. */
    public long connectLatencyNs;

    /**
     * @param connectLatencyNs how long a connection takes to set up.
     */
    public InMemoryFabric(final long connectLatencyNs)
    {
        this.connectLatencyNs = connectLatencyNs;
    }

    /**
     * @param capacity outbound connection ids the node may use.
     * @return a new node's verbs.
     */
    public Node node(final int capacity)
    {
        final Node node = new Node(capacity);
        nodes.add(node);
        return node;
    }

    /**
     * @param index creation order.
     * @return the node made {@code index}-th.
     */
    public Node nodeOf(final int index)
    {
        return nodes.get(index);
    }

    /**
     * The process of {@code node} dies: its queue pairs are gone, peers connected to it get DISCONNECTED.
     */
    public void kill(final Node node)
    {
        node.alive = false;
        listeners.remove(node.endpoint);
        for (final Node other : nodes)
        {
            for (int c = 0; c < other.capacity; c++)
            {
                if (other.remote[c] == node && other.phase[c] != Node.NONE)
                {
                    other.disconnectPending[c] = true;
                }
            }
        }
    }

    /**
     * {@code node}'s HCA port goes down (or up): while down nothing reaches it or leaves it, and no connection
     * event says so; queue pairs that tried to carry a write stay broken after the port returns.
     */
    public void portActive(final Node node, final boolean active)
    {
        node.portUp = active;
    }

    /**
     * One node's verbs on this fabric.
     */
    public final class Node implements RdmaVerbs
    {
        static final byte NONE = 0;
        static final byte PENDING = 1;
        static final byte UP = 2;

        final int capacity;
        boolean alive = true;
        boolean portUp = true;
        InetSocketAddress endpoint;
        RemoteSlot descriptor;
        UnsafeBuffer localMemory;
        UnsafeBuffer sourceMemory;
        int inboundAcceptedPending;
        int inboundClosedPending;
        int inboundOpen;
        long writesPlaced;
        boolean closed;
        private String lastError = "";

        final byte[] phase;
        final boolean[] broken;
        final boolean[] pathCut;
        final boolean[] disconnectPending;
        final int[] generation;
        final long[] readyAtNs;
        final Node[] remote;
        final InetSocketAddress[] remoteEndpoint;
        final UnsafeBuffer[] remoteMemory;

        // completion ring: connection, generation, status (0 ok, 1 retry exceeded, 2 remote access, 3 flush)
        private final int[] ringConnection = new int[4096];
        private final int[] ringGeneration = new int[4096];
        private final byte[] ringStatus = new byte[4096];
        private int head;
        private int tail;

        Node(final int capacity)
        {
            this.capacity = capacity;
            phase = new byte[capacity];
            broken = new boolean[capacity];
            pathCut = new boolean[capacity];
            disconnectPending = new boolean[capacity];
            generation = new int[capacity];
            readyAtNs = new long[capacity];
            remote = new Node[capacity];
            remoteEndpoint = new InetSocketAddress[capacity];
            remoteMemory = new UnsafeBuffer[capacity];
            for (int c = 0; c < capacity; c++)
            {
                remoteMemory[c] = new UnsafeBuffer(0, 0);
            }
        }

        public RemoteSlot open(final InetSocketAddress bindAddress, final HeartbeatSlot localSlot,
            final HeartbeatSlot sourceSlot) throws IOException
        {
            if (listeners.containsKey(bindAddress))
            {
                throw new IOException("address in use: " + bindAddress);
            }
            endpoint = bindAddress;
            localMemory = new UnsafeBuffer(localSlot.address(), SLOT_LENGTH);
            sourceMemory = new UnsafeBuffer(sourceSlot.address(), SLOT_LENGTH);
            descriptor = new RemoteSlot(localSlot.address(), nextRkey++, SLOT_LENGTH);
            listeners.put(bindAddress, this);
            return descriptor;
        }

        public InetSocketAddress localEndpoint()
        {
            return endpoint;
        }

        public void connect(final int connection, final InetSocketAddress observer) throws IOException
        {
            if (!alive)
            {
                throw new IOException("process is dead");
            }
            disconnect(connection);
            generation[connection]++;
            phase[connection] = PENDING;
            readyAtNs[connection] = nowNs + connectLatencyNs;
            remoteEndpoint[connection] = observer;
        }

        public boolean postWrite(final int connection, final RemoteSlot target, final boolean signalled)
        {
            if (phase[connection] != UP)
            {
                lastError = "post on connection " + connection + " that is not established";
                return false;
            }
            final Node peer = remote[connection];
            if (broken[connection])
            {
                complete(connection, (byte)3); // the queue pair is in error: every later write is flushed
                return true;
            }
            if (pathCut[connection] || !portUp || !peer.portUp || !peer.alive)
            {
                complete(connection, (byte)1); // the transport's retries ran out
                broken[connection] = true;
                return true;
            }
            if (target.address() != peer.descriptor.address() || target.rkey() != peer.descriptor.rkey())
            {
                complete(connection, (byte)2);
                broken[connection] = true;
                return true;
            }
            final UnsafeBuffer to = remoteMemory[connection];
            to.putBytes(WRITER_RANK_OFFSET, sourceMemory, WRITER_RANK_OFFSET, PAYLOAD_LENGTH - WRITER_RANK_OFFSET);
            to.putLongRelease(HEARTBEAT_WORD_OFFSET, sourceMemory.getLong(HEARTBEAT_WORD_OFFSET));
            peer.writesPlaced++;
            if (signalled)
            {
                complete(connection, (byte)0);
            }
            return true;
        }

        private void complete(final int connection, final byte status)
        {
            final int slot = tail++ & (ringStatus.length - 1);
            ringConnection[slot] = connection;
            ringGeneration[slot] = generation[connection];
            ringStatus[slot] = status;
        }

        public int pollCompletions(final Listener listener)
        {
            int polled = 0;
            while (head != tail)
            {
                final int slot = head++ & (ringStatus.length - 1);
                final int connection = ringConnection[slot];
                if (ringGeneration[slot] != generation[connection] || phase[connection] != UP)
                {
                    continue;
                }
                polled++;
                final byte status = ringStatus[slot];
                listener.onWriteCompleted(connection, status == 0,
                    status == 0 ? null : status == 1 ? RETRY_EXCEEDED : status == 2 ? REMOTE_ACCESS : WR_FLUSH);
            }
            return polled;
        }

        public int pollEvents(final Listener listener)
        {
            int events = 0;
            for (int c = 0; c < capacity; c++)
            {
                if (phase[c] == PENDING && nowNs - readyAtNs[c] >= 0)
                {
                    events++;
                    final Node peer = listeners.get(remoteEndpoint[c]);
                    if (peer == null || !peer.alive)
                    {
                        phase[c] = NONE;
                        listener.onConnectFailed(c, "RDMA_CM_EVENT_REJECTED (in-memory fabric)");
                    }
                    else if (!portUp || !peer.portUp)
                    {
                        phase[c] = NONE;
                        listener.onConnectFailed(c, "RDMA_CM_EVENT_UNREACHABLE (in-memory fabric)");
                    }
                    else
                    {
                        phase[c] = UP;
                        broken[c] = false;
                        remote[c] = peer;
                        remoteMemory[c].wrap(peer.descriptor.address(), SLOT_LENGTH);
                        peer.inboundAcceptedPending++;
                        peer.inboundOpen++;
                        listener.onEstablished(c, peer.descriptor);
                    }
                }
                else if (phase[c] == UP && disconnectPending[c])
                {
                    events++;
                    release(c);
                    listener.onDisconnected(c, "RDMA_CM_EVENT_DISCONNECTED (in-memory fabric)");
                }
            }
            for (; inboundAcceptedPending > 0; inboundAcceptedPending--, events++)
            {
                listener.onInbound(true);
            }
            for (; inboundClosedPending > 0; inboundClosedPending--, events++)
            {
                listener.onInbound(false);
            }
            return events;
        }

        public void disconnect(final int connection)
        {
            release(connection);
        }

        private void release(final int connection)
        {
            if (phase[connection] == UP && remote[connection].alive)
            {
                remote[connection].inboundOpen--;
                remote[connection].inboundClosedPending++;
            }
            phase[connection] = NONE;
            broken[connection] = false;
            pathCut[connection] = false;
            disconnectPending[connection] = false;
            remote[connection] = null;
        }

        /**
         * Break the queue pair this node holds to {@code observer}: its next write completes in error.
         *
         * @return true if there was one.
         */
        boolean breakConnectionTo(final Node observer)
        {
            for (int c = 0; c < capacity; c++)
            {
                if (phase[c] == UP && remote[c] == observer)
                {
                    pathCut[c] = true;
                    return true;
                }
            }
            return false;
        }

        public boolean isLocalPortActive()
        {
            return portUp;
        }

        public String lastError()
        {
            return lastError;
        }

        public void close()
        {
            if (!closed)
            {
                closed = true;
                for (int c = 0; c < capacity; c++)
                {
                    release(c);
                }
                listeners.remove(endpoint);
            }
        }
    }
}
