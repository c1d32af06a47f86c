package io.ringwatch.transport.rdma;

import org.agrona.DirectBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The verbs operations heartbeats need, and nothing more: register the two slots and listen, connect to an
 * observer, exchange the handshake's fixed-size messages, grant an authenticated emitter its own registration of
 * the slot, post an RDMA WRITE, reap completions, learn of connection events, watch the local port.
 * {@link RdmaHeartbeats} holds the logic (which peers to connect to and accept, the handshake, signalling,
 * reconnecting, counting); an implementation only moves bytes and reports what the hardware said.
 * <p>
 * Nothing is remotely writable until {@link #grant}: {@link #open} registers the slot for local access only, and
 * every inbound connection has a protection domain of its own, so an rkey granted on one connection is refused on
 * every other queue pair, and dies with its connection.
 * <p>
 * {@link DisniVerbs} is the implementation for real hardware. Tests drive the same logic over an in-memory
 * fabric. Connections are named by small integers: outbound ones by the caller (its table index), inbound ones by
 * the caller's answer to {@link Listener#onConnectRequest()}, so the data path passes no objects around. All
 * methods are called from one thread, the node's agent; none blocks.
 */
public interface RdmaVerbs extends AutoCloseable
{
    /** Length of every handshake message ({@link RdmaHello}). */
    int MESSAGE_LENGTH = RdmaHello.LENGTH;

    /**
     * What the verbs layer reports back; the caller passes one instance, kept in a field, to every poll.
     */
    interface Listener
    {
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
         * Someone asks to connect to this node's listener. Nothing is known of them yet: the handshake will say.
         *
         * @return the inbound id to accept the request under, in [0, inbound capacity), free or freed by
         * {@link #closeInbound} before returning; -1 to refuse it.
         */
        int onConnectRequest();

        /**
         * An accepted inbound connection is established: handshake messages can flow.
         *
         * @param inbound the id given by {@link #onConnectRequest()}.
         */
        void onInboundConnected(int inbound);

        /**
         * An inbound connection closed or failed, from the other side or the fabric; its id is free again. Not
         * called for {@link #closeInbound}.
         *
         * @param inbound the id.
         * @param reason  what the connection manager said.
         */
        void onInboundClosed(int inbound, String reason);

        /**
         * A handshake message arrived.
         *
         * @param id      the connection's id, outbound or inbound.
         * @param inbound which of the two {@code id} names.
         * @param buffer  holds the message; valid during the call only.
         * @param offset  where its {@link #MESSAGE_LENGTH} bytes begin.
         */
        void onMessage(int id, boolean inbound, DirectBuffer buffer, int offset);
    }

    /**
     * Register the heartbeat slot and the source slot for local access (once each, for the life of the node) and
     * start listening for emitters. The slot becomes remotely writable only through {@link #grant}.
     *
     * @param bindAddress address of the RDMA interface (IPoIB or RoCE) and port to listen on, 0 for any.
     * @param localSlot   the 64-byte slot observers' emitters write into.
     * @param sourceSlot  the 64-byte slot this node's writes are copied from.
     * @throws IOException if the device, registration or listener cannot be set up.
     */
    void open(InetSocketAddress bindAddress, HeartbeatSlot localSlot, HeartbeatSlot sourceSlot) throws IOException;

    /**
     * @return the address emitters connect to, with the port actually bound; valid after {@link #open}.
     */
    InetSocketAddress localEndpoint();

    /**
     * Start connecting to an observer; failure arrives through {@link #pollEvents} as
     * {@link Listener#onConnectFailed}, the observer's first handshake message as {@link Listener#onMessage}.
     *
     * @param connection a free id in [0, capacity).
     * @param observer   the observer's RDMA endpoint.
     * @throws IOException if the attempt cannot even start; the id stays free.
     */
    void connect(int connection, InetSocketAddress observer) throws IOException;

    /**
     * Send one handshake message on a connection.
     *
     * @param id      outbound or inbound id.
     * @param inbound which of the two {@code id} names.
     * @param message {@link #MESSAGE_LENGTH} bytes from 0, copied before this returns.
     * @return false if it could not be posted; {@link #lastError()} says why.
     */
    boolean send(int id, boolean inbound, DirectBuffer message);

    /**
     * Register the heartbeat slot for remote write on this inbound connection only: a registration (and rkey) of
     * its own, valid on no other queue pair, released with the connection.
     *
     * @param inbound an established inbound connection whose peer proved itself.
     * @return the descriptor to send that peer.
     * @throws IOException if the registration fails.
     */
    RemoteSlot grant(int inbound) throws IOException;

    /**
     * Close an inbound connection, handshaking or granted, and release its registration. No listener call follows.
     *
     * @param inbound the id.
     */
    void closeInbound(int inbound);

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
     * Reap write completions and handshake messages.
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
     * Tear down an outbound connection, established or not, and free its id. No listener call follows for it.
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
