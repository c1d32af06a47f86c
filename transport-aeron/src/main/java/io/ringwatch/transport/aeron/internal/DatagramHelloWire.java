package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.codec.HelloFlyweight;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * Hellos over UDP: sent to the peers' heartbeat ports (an address that does not depend on the key), read from the
 * heartbeat port's socket that nobody else reads. Until the node starts, also from the socket connected to its
 * emitter, where the agent finds its emitter's hellos once it runs: the launch that listens before it builds the rest
 * of the node would otherwise miss its predecessor's answer. The sockets are the heartbeat transport's: not closed
 * here.
 */
public final class DatagramHelloWire implements HelloWire
{
    private final DatagramChannel socket;
    private final DatagramChannel emitterSocket;
    private final InetSocketAddress[] peers;
    private volatile boolean started;
    private final ByteBuffer receiveBytes = BufferUtil.allocateDirectAligned(HelloFlyweight.LENGTH + 1, 64);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveBytes);

    /**
     * @param socket        the heartbeat port's socket that takes every datagram but the watched emitter's, and sends.
     * @param emitterSocket the heartbeat port's socket connected to the watched emitter, the agent's once it runs.
     * @param peers         every member's heartbeat address, by rank.
     */
    public DatagramHelloWire(
        final DatagramChannel socket, final DatagramChannel emitterSocket, final InetSocketAddress[] peers)
    {
        this.socket = socket;
        this.emitterSocket = emitterSocket;
        this.peers = peers;
    }

    /**
     * {@inheritDoc}
     */
    public void started()
    {
        started = true;
    }

    /**
     * {@inheritDoc}
     */
    public void send(final int rank, final UnsafeBuffer hello)
    {
        final ByteBuffer bytes = hello.byteBuffer();
        bytes.clear().limit(HelloFlyweight.LENGTH);
        try
        {
            socket.send(bytes, peers[rank]);
        }
        catch (final IOException ex)
        {
            // a peer not up yet: the next round tries again
        }
    }

    /**
     * {@inheritDoc}
     */
    public void receive(final Sink sink, final int limit)
    {
        receive(socket, sink, limit);
        if (!started)
        {
            // heartbeats read here are lost, but the node does not watch anyone yet
            receive(emitterSocket, sink, limit);
        }
    }

    private void receive(final DatagramChannel from, final Sink sink, final int limit)
    {
        for (int i = 0; i < limit; i++)
        {
            receiveBytes.clear();
            try
            {
                if (from.receive(receiveBytes) == null)
                {
                    return;
                }
            }
            catch (final IOException ex)
            {
                // ICMP unreachable from an earlier send, or the socket closing: nothing to read now
                return;
            }
            if (HelloFlyweight.isHello(receiveBuffer, 0, receiveBytes.position()))
            {
                sink.onHello(receiveBuffer, 0);
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    public String describe(final int rank)
    {
        return peers[rank].toString();
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
    }
}
