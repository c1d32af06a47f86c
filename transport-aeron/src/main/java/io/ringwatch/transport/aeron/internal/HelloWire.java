package io.ringwatch.transport.aeron.internal;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Where a node's hellos travel ({@link HelloExchange}): over UDP to the peers' heartbeat ports, over IPC on a stream
 * per rank of the host's media driver. Neither depends on the cluster key, so a node with another key is still heard.
 * Used by the hello thread, but for {@link #pump}.
 */
public interface HelloWire extends AutoCloseable
{
    /**
     * Takes one hello that arrived.
     */
    @FunctionalInterface
    interface Sink
    {
        /**
         * @param buffer holds a hello ({@link io.ringwatch.core.codec.HelloFlyweight#isHello} checked).
         * @param offset where it starts.
         */
        void onHello(UnsafeBuffer buffer, int offset);
    }

    /**
     * Best effort: a peer not up yet misses it, the next round tries again.
     *
     * @param rank  the peer.
     * @param hello a whole hello over a direct buffer, from its start.
     */
    void send(int rank, UnsafeBuffer hello);

    /**
     * @param sink  takes each hello.
     * @param limit most datagrams or fragments to read.
     */
    void receive(Sink sink, int limit);

    /**
     * Get ready to send to a peer this node says hello to, so that its first hellos are not lost to set-up; on the
     * building thread.
     *
     * @param rank the peer.
     */
    default void prepare(final int rank)
    {
    }

    /**
     * The hello thread takes over from the launching thread, and the node's agent is about to run.
     */
    default void started()
    {
    }

    /**
     * Move hellos between this wire and its medium, on the thread that runs the node's Aeron client, where the
     * medium is Aeron's ({@link IpcHelloWire}); nothing to do for a socket.
     *
     * @return hellos moved.
     */
    default int pump()
    {
        return 0;
    }

    /**
     * @param rank a peer.
     * @return where its hellos come from, for a log line.
     */
    String describe(int rank);

    /**
     * {@inheritDoc}
     */
    void close();
}
