package io.ringwatch.transport.rdma;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.ringwatch.core.slot.HeartbeatSlotLayout.HEARTBEAT_WORD_OFFSET;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.PAYLOAD_LENGTH;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.SLOT_LENGTH;
import static io.ringwatch.core.slot.HeartbeatSlotLayout.DIAGNOSTICS_OFFSET;

/**
 * A fabric in memory, for unit tests of {@link RdmaHeartbeats}' logic only: never offered to users. Writes really
 * land in the observer's registered off-heap slot (the payload's diagnostics, then the heartbeat word with a
 * release store, as a NIC's single posted write would be seen), so observers read them with the same acquire load
 * as on hardware.
 * <p>
 * It models what the handshake relies on: a connect request reaches the listener, whose node decides (at its next
 * event poll) to accept it under an inbound id or refuse it; handshake messages are delivered at the receiver's next
 * completion poll; a write is placed only if its rkey is the one granted on <em>that</em> inbound connection (a
 * protection domain per connection, as {@link DisniVerbs} makes), else it fails with a remote access error. A
 * connection request takes {@link #connectLatencyNs} of the test's clock to reach the listener. Faults: a process
 * killed (its connections break and peers get a disconnect event, as the kernel's clean-up sends one), a port down
 * (no events at all, only failed writes and failed connects), a queue pair broken. Every grant is recorded
 * ({@link #grants()}), so a test can say who was ever given an rkey.
 * <p>
 * Shipped in this module's test jar so the runtime's tests (transport-aeron) can run live nodes over it. Not thread
 * safe: one thread drives every node on it.
 */
public final class InMemoryFabric
{
    static final String RETRY_EXCEEDED = "IBV_WC_RETRY_EXC_ERR (in-memory fabric)";
    static final String REMOTE_ACCESS = "IBV_WC_REM_ACCESS_ERR (in-memory fabric)";
    static final String WR_FLUSH = "IBV_WC_WR_FLUSH_ERR (in-memory fabric)";
    static final String REJECTED = "RDMA_CM_EVENT_REJECTED (in-memory fabric)";
    static final String DISCONNECTED = "RDMA_CM_EVENT_DISCONNECTED (in-memory fabric)";
    static final int INBOUND_CAPACITY = 256;

    /**
     * One rkey handed out: {@code observer} registered its slot for {@code writer}'s connection.
     *
     * @param observer the node whose slot became writable.
     * @param writer   the node on the other end of the connection.
     * @param rkey     the key.
     */
    public record Grant(Node observer, Node writer, int rkey)
    {
    }

    private final Map<InetSocketAddress, Node> listeners = new HashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    /**
     * One handshake message as it crossed the fabric, for tests that replay it.
     *
     * @param from  the sender.
     * @param to    the receiver.
     * @param bytes its {@link RdmaVerbs#MESSAGE_LENGTH} bytes.
     */
    public record Sent(Node from, Node to, byte[] bytes)
    {
    }

    private final List<Grant> grants = new ArrayList<>();
    private final List<Sent> sent = new ArrayList<>();
    private int nextRkey = 0x100;
    /** The fabric's clock: connection requests reach listeners {@link #connectLatencyNs} after they were made. */
    public long nowNs;
    /** How long a connection request takes to reach the listener, on {@link #nowNs}. */
    public long connectLatencyNs;

    /**
     * @param connectLatencyNs how long a connection request takes to reach the listener.
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
     * @return every rkey granted so far, in order.
     */
    public List<Grant> grants()
    {
        return grants;
    }

    /**
     * @return every handshake message sent so far, in order: what an attacker on the fabric could record.
     */
    public List<Sent> sent()
    {
        return sent;
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
                if (other.remote[c] == node && other.phase[c] == Node.UP)
                {
                    other.disconnectPending[c] = true;
                }
            }
            for (int i = 0; i < INBOUND_CAPACITY; i++)
            {
                if (other.inboundConnector[i] == node)
                {
                    other.dropInbound(i, DISCONNECTED);
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

    private record Message(int id, boolean inbound, int generation, byte[] bytes)
    {
    }

    private record Request(Node connector, int connection, int generation)
    {
    }

    /**
     * One node's verbs on this fabric.
     */
    public final class Node implements RdmaVerbs
    {
        static final byte NONE = 0;
        static final byte PENDING = 1;
        static final byte REQUESTED = 2;
        static final byte UP = 3;

        final int capacity;
        boolean alive = true;
        boolean portUp = true;
        InetSocketAddress endpoint;
        long slotAddress;
        UnsafeBuffer localMemory;
        UnsafeBuffer sourceMemory;
        long writesPlaced;
        boolean closed;
        private String lastError = "";

        // outbound
        final byte[] phase;
        final boolean[] broken;
        final boolean[] pathCut;
        final boolean[] disconnectPending;
        final String[] failurePending;
        final int[] generation;
        final long[] readyAtNs;
        final Node[] remote;
        final int[] remoteInbound;
        final InetSocketAddress[] remoteEndpoint;
        final UnsafeBuffer[] remoteMemory;

        // inbound
        final Node[] inboundConnector = new Node[INBOUND_CAPACITY];
        final int[] inboundConnection = new int[INBOUND_CAPACITY];
        final int[] inboundGeneration = new int[INBOUND_CAPACITY];
        final int[] inboundRkey = new int[INBOUND_CAPACITY];
        private final ArrayDeque<Request> requests = new ArrayDeque<>();
        private final ArrayDeque<Integer> inboundClosedPending = new ArrayDeque<>();
        private final ArrayDeque<Message> messages = new ArrayDeque<>();
        private final UnsafeBuffer delivered = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);

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
            failurePending = new String[capacity];
            generation = new int[capacity];
            readyAtNs = new long[capacity];
            remote = new Node[capacity];
            remoteInbound = new int[capacity];
            remoteEndpoint = new InetSocketAddress[capacity];
            remoteMemory = new UnsafeBuffer[capacity];
            for (int c = 0; c < capacity; c++)
            {
                remoteMemory[c] = new UnsafeBuffer(0, 0);
            }
        }

        public void open(final InetSocketAddress bindAddress, final HeartbeatSlot localSlot,
            final HeartbeatSlot sourceSlot) throws IOException
        {
            if (listeners.containsKey(bindAddress))
            {
                throw new IOException("address in use: " + bindAddress);
            }
            endpoint = bindAddress;
            slotAddress = localSlot.address();
            localMemory = new UnsafeBuffer(localSlot.address(), SLOT_LENGTH);
            sourceMemory = new UnsafeBuffer(sourceSlot.address(), SLOT_LENGTH);
            listeners.put(bindAddress, this);
        }

        /**
         * For a test's rogue client: this node takes part in the fabric without listening or a slot of its own.
         *
         * @param bindAddress its address, for the record.
         */
        public void openWithoutSlot(final InetSocketAddress bindAddress)
        {
            endpoint = bindAddress;
            sourceMemory = new UnsafeBuffer(new byte[SLOT_LENGTH]);
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

        public boolean send(final int id, final boolean inbound, final DirectBuffer message)
        {
            final Node to;
            final int toId;
            final int toGeneration;
            if (inbound)
            {
                to = inboundConnector[id];
                toId = to == null ? -1 : inboundConnection[id];
                toGeneration = to == null ? -1 : to.generation[toId];
            }
            else
            {
                to = phase[id] == UP ? remote[id] : null;
                toId = to == null ? -1 : remoteInbound[id];
                toGeneration = to == null ? -1 : to.inboundGeneration[toId];
            }
            if (to == null || !to.alive || !portUp || !to.portUp)
            {
                lastError = "send on connection " + id + " that is not up";
                return false;
            }
            final byte[] bytes = new byte[MESSAGE_LENGTH];
            message.getBytes(0, bytes);
            to.messages.add(new Message(toId, !inbound, toGeneration, bytes));
            sent.add(new Sent(this, to, bytes));
            return true;
        }

        public RemoteSlot grant(final int inbound) throws IOException
        {
            if (inboundConnector[inbound] == null)
            {
                throw new IOException("grant on inbound connection " + inbound + " that is not up");
            }
            final int rkey = nextRkey++;
            inboundRkey[inbound] = rkey;
            grants.add(new Grant(this, inboundConnector[inbound], rkey));
            return new RemoteSlot(slotAddress, rkey, SLOT_LENGTH);
        }

        public void closeInbound(final int inbound)
        {
            final Node connector = inboundConnector[inbound];
            if (connector != null)
            {
                final int c = inboundConnection[inbound];
                if (connector.remote[c] == this && connector.remoteInbound[c] == inbound && connector.phase[c] == UP)
                {
                    connector.disconnectPending[c] = true;
                }
            }
            clearInbound(inbound);
        }

        private void clearInbound(final int inbound)
        {
            inboundConnector[inbound] = null;
            inboundRkey[inbound] = 0;
            inboundGeneration[inbound]++;
        }

        void dropInbound(final int inbound, final String reason)
        {
            if (inboundConnector[inbound] != null)
            {
                clearInbound(inbound);
                inboundClosedPending.add(inbound);
            }
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
            final int inbound = remoteInbound[connection];
            // the responder checks the rkey against the registrations of this queue pair's protection domain only
            final int granted = peer.inboundConnector[inbound] == this ? peer.inboundRkey[inbound] : 0;
            if (granted == 0 || target.rkey() != granted || target.address() != peer.slotAddress ||
                target.length() > SLOT_LENGTH)
            {
                complete(connection, (byte)2);
                broken[connection] = true;
                return true;
            }
            final UnsafeBuffer to = remoteMemory[connection];
            to.wrap(peer.slotAddress, SLOT_LENGTH);
            to.putBytes(DIAGNOSTICS_OFFSET, sourceMemory, DIAGNOSTICS_OFFSET, PAYLOAD_LENGTH - DIAGNOSTICS_OFFSET);
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
            for (int n = messages.size(); n > 0 && alive && portUp; n--)
            {
                final Message message = messages.poll();
                final boolean current = message.inbound() ?
                    inboundConnector[message.id()] != null && inboundGeneration[message.id()] == message.generation() :
                    phase[message.id()] == UP && generation[message.id()] == message.generation();
                if (current)
                {
                    polled++;
                    delivered.putBytes(0, message.bytes());
                    listener.onMessage(message.id(), message.inbound(), delivered, 0);
                }
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
                        listener.onConnectFailed(c, REJECTED);
                    }
                    else if (!portUp || !peer.portUp)
                    {
                        phase[c] = NONE;
                        listener.onConnectFailed(c, "RDMA_CM_EVENT_UNREACHABLE (in-memory fabric)");
                    }
                    else
                    {
                        phase[c] = REQUESTED;
                        peer.requests.add(new Request(this, c, generation[c]));
                    }
                }
                else if (failurePending[c] != null)
                {
                    events++;
                    final String reason = failurePending[c];
                    failurePending[c] = null;
                    listener.onConnectFailed(c, reason);
                }
                else if (phase[c] == UP && disconnectPending[c])
                {
                    events++;
                    release(c);
                    listener.onDisconnected(c, DISCONNECTED);
                }
            }
            for (Request request; (request = requests.poll()) != null; events++)
            {
                final Node connector = request.connector();
                final int c = request.connection();
                if (!connector.alive || connector.phase[c] != REQUESTED || connector.generation[c] != request.generation())
                {
                    continue; // the connector gave up meanwhile
                }
                final int inbound = listener.onConnectRequest();
                if (inbound < 0)
                {
                    connector.phase[c] = NONE;
                    connector.failurePending[c] = REJECTED;
                    continue;
                }
                if (inboundConnector[inbound] != null)
                {
                    throw new IllegalStateException("inbound id " + inbound + " given while still in use");
                }
                inboundConnector[inbound] = connector;
                inboundConnection[inbound] = c;
                inboundGeneration[inbound]++;
                connector.phase[c] = UP;
                connector.broken[c] = false;
                connector.remote[c] = this;
                connector.remoteInbound[c] = inbound;
                listener.onInboundConnected(inbound);
            }
            for (Integer inbound; (inbound = inboundClosedPending.poll()) != null; events++)
            {
                listener.onInboundClosed(inbound, DISCONNECTED);
            }
            return events;
        }

        public void disconnect(final int connection)
        {
            release(connection);
        }

        private void release(final int connection)
        {
            final Node peer = remote[connection];
            if (phase[connection] == UP && peer != null && peer.alive)
            {
                final int inbound = remoteInbound[connection];
                if (peer.inboundConnector[inbound] == this && peer.inboundConnection[inbound] == connection)
                {
                    peer.dropInbound(inbound, DISCONNECTED);
                }
            }
            phase[connection] = NONE;
            broken[connection] = false;
            pathCut[connection] = false;
            disconnectPending[connection] = false;
            failurePending[connection] = null;
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

        /**
         * @return inbound connections open at this node, handshaking or granted.
         */
        int inboundOpen()
        {
            int open = 0;
            for (int i = 0; i < INBOUND_CAPACITY; i++)
            {
                if (inboundConnector[i] != null)
                {
                    open++;
                }
            }
            return open;
        }

        /**
         * @param connector a node.
         * @return whether it holds an inbound connection here with a granted rkey.
         */
        boolean grantedTo(final Node connector)
        {
            for (int i = 0; i < INBOUND_CAPACITY; i++)
            {
                if (inboundConnector[i] == connector && inboundRkey[i] != 0)
                {
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
                for (int i = 0; i < INBOUND_CAPACITY; i++)
                {
                    if (inboundConnector[i] != null)
                    {
                        closeInbound(i);
                    }
                }
                listeners.remove(endpoint);
            }
        }
    }
}
