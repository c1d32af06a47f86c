package io.ringwatch.transport.rdma;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The verbs operations heartbeats need, and nothing more: register the two slots and listen, connect to an
 * observer, post an RDMA WRITE, reap completions, learn of connection events, watch the local port.
 * {@link RdmaHeartbeats} holds the logic (which peers to connect to, signalling, reconnecting, counting); an
 * implementation only moves bytes and reports what the hardware said.
 * <p>
 * {@link DisniVerbs} is the implementation for real hardware. Tests drive the same logic over an in-memory
 * fabric. Connections are named by small integers the caller chooses (its table index), so the data path
 * passes no objects around. All methods are called from one thread, the node's agent; none blocks.
 */
public interface RdmaVerbs extends AutoCloseable
{
    /**
     * What the verbs layer reports back; the caller passes one instance, kept in a field, to every poll.
     */
    interface Listener
    {
        /**
         * A connection started by {@link #connect} can carry writes: the observer's slot descriptor came with it.
         *
         * @param connection   caller's id.
         * @param observerSlot the observer's registered slot, as the observer advertised it on this connection.
         */
        void onEstablished(int connection, RemoteSlot observerSlot);

        /**
         * A connection attempt failed before it was established (address or route error, rejected, unreachable).
         * The connection is released; the id is free again.
         *
         * @param connection caller's id.
         * @param reason     what the connection manager said.
         */
        void onConnectFailed(int connection, String reason);

        /**
         * An established connection was closed by the other side or the fabric (the peer process exited, its
         * device went away). The connection is released; the id is free again.
         *
         * @param connection caller's id.
         * @param reason     what the connection manager said.
         */
        void onDisconnected(int connection, String reason);

        /**
         * A signalled write completed. On a reliable connection, success also retires every unsignalled write
         * posted before it; failure means the queue pair is in error and carries nothing more.
         *
         * @param connection caller's id.
         * @param success    true if the write was placed in the observer's memory.
         * @param error      the work completion status when {@code success} is false, else {@code null}.
         */
        void onWriteCompleted(int connection, boolean success, String error);

        /**
         * An emitter connected to this node's slot, or such a connection closed.
         *
         * @param accepted true for a new inbound connection, false for one that closed.
         */
        void onInbound(boolean accepted);
    }

    /**
     * Register this node's heartbeat slot for remote write and the source slot for local read (once each, for the
     * life of the node) and start listening for emitters.
     *
     * @param bindAddress address of the RDMA interface (IPoIB or RoCE) and port to listen on, 0 for any.
     * @param localSlot   the 64-byte slot observers' emitters write into.
     * @param sourceSlot  the 64-byte slot this node's writes are copied from.
     * @return the descriptor of {@code localSlot}: what NEW_OBSERVER and new connections advertise.
     * @throws IOException if the device, registration or listener cannot be set up.
     */
    RemoteSlot open(InetSocketAddress bindAddress, HeartbeatSlot localSlot, HeartbeatSlot sourceSlot)
        throws IOException;

    /**
     * @return the address emitters connect to, with the port actually bound; valid after {@link #open}.
     */
    InetSocketAddress localEndpoint();

    /**
     * Start connecting to an observer; the outcome arrives through {@link #pollEvents} or
     * {@link #pollCompletions} as {@link Listener#onEstablished} or {@link Listener#onConnectFailed}.
     *
     * @param connection a free id in [0, capacity).
     * @param observer   the observer's RDMA endpoint.
     * @throws IOException if the attempt cannot even start; the id stays free.
     */
    void connect(int connection, InetSocketAddress observer) throws IOException;

    /**
     * Post one RDMA WRITE of the source slot's payload into {@code target} over an established connection.
     *
     * @param connection an established connection.
     * @param target     where to write; the same object every beat unless the descriptor changed.
     * @param signalled  whether this write produces a completion.
     * @return false if the post itself was refused (the queue pair is broken); {@link #lastError()} says why.
     */
    boolean postWrite(int connection, RemoteSlot target, boolean signalled);

    /**
     * Reap write completions (and whatever else the implementation needs to finish setting up connections).
     *
     * @param listener receives the outcomes.
     * @return completions handled.
     */
    int pollCompletions(Listener listener);

    /**
     * Handle pending connection-manager events, inbound and outbound. May allocate (DiSNI does), so the caller
     * paces it.
     *
     * @param listener receives the outcomes.
     * @return events handled.
     */
    int pollEvents(Listener listener);

    /**
     * Tear down a connection, established or not, and free its id. No listener call follows for it.
     *
     * @param connection the id.
     */
    void disconnect(int connection);

    /**
     * @return whether the local port this node listens on can carry traffic now.
     */
    boolean isLocalPortActive();

    /**
     * @return the most recent failure text (post refused, setup error), empty if none.
     */
    String lastError();

    /**
     * Release every verbs resource. Idempotent.
     */
    void close();
}
