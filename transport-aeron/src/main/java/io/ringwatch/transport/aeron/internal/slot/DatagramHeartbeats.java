package io.ringwatch.transport.aeron.internal.slot;

import io.aeron.logbuffer.FragmentHandler;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.transport.aeron.ClusterConfig;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * UDP heartbeats as plain datagrams, one frame each, on the node's heartbeat port: no Aeron stream, so nothing to
 * retransmit and nothing to wait for. A lost heartbeat is simply superseded by the next one, where a reliable,
 * in-order stream held every later heartbeat back until the lost one was re-sent. Whatever else arrives on the port
 * (random bytes, Aeron-shaped DATA or SETUP frames) costs one {@code recv} and the decoder's length and MAC checks:
 * no image, no log buffer, no driver conductor work.
 * <p>
 * The agent drains the socket every duty cycle, up to {@link #DRAIN_LIMIT} datagrams, so a flood between two cycles
 * waits in the socket's receive buffer ({@code SO_RCVBUF}, asked for at {@link #receiveBufferRequested()}; the kernel
 * caps it at {@code net.core.rmem_max}) instead of displacing the heartbeats.
 * <p>
 * Peers' addresses are resolved once, at start: an unresolvable host fails the start with its name. Steady state
 * allocates nothing: direct buffers, one socket, addresses resolved up front (the JDK caches the sender address of
 * consecutive datagrams from the same peer). Agent thread only.
 */
public final class DatagramHeartbeats implements HeartbeatSender, AutoCloseable
{
    /**
     * Most datagrams read in one duty cycle: a cycle that read any runs again at once (idle strategies sleep only
     * after a cycle without work), so a backlog is drained over several short cycles, each of which still sends this
     * node's heartbeat when due; 256 junk datagrams cost about a millisecond (a {@code recv} and a MAC each).
     */
    public static final int DRAIN_LIMIT = 256;

    private final DatagramChannel channel;
    private final InetSocketAddress[] peers;
    private final int clusterId;
    private final int rank;
    private final int incarnation;
    private final int configDigest;
    private final FrameStamper stamper;
    private final int receiveBufferRequested;
    private final int receiveBufferGranted;
    private final HeartbeatFlyweight frame = new HeartbeatFlyweight();
    private final ByteBuffer sendBytes = BufferUtil.allocateDirectAligned(HeartbeatFlyweight.LENGTH, 64);
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(sendBytes);
    // a full UDP payload, so an oversized datagram is read whole (and rejected by length), not truncated to a frame
    private final ByteBuffer receiveBytes = BufferUtil.allocateDirectAligned(64 * 1024, 64);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveBytes);

    /**
     * Bind the node's heartbeat port and resolve every peer's.
     *
     * @param cluster              members' hosts and heartbeat ports.
     * @param rank                 this node.
     * @param incarnation          this node's incarnation.
     * @param configDigest         this node's config digest.
     * @param stamper              the node's frame stamper (one sequence per destination across all streams).
     * @param receiveBufferBytes   {@code SO_RCVBUF} to ask for.
     * @throws IllegalStateException naming the host or port when a peer cannot be resolved or the port is taken.
     */
    public DatagramHeartbeats(
        final ClusterConfig cluster,
        final int rank,
        final int incarnation,
        final int configDigest,
        final FrameStamper stamper,
        final int receiveBufferBytes)
    {
        this.clusterId = cluster.clusterId();
        this.rank = rank;
        this.incarnation = incarnation;
        this.configDigest = configDigest;
        this.stamper = stamper;
        this.receiveBufferRequested = receiveBufferBytes;
        this.peers = resolve(cluster);

        final InetSocketAddress local = peers[rank];
        DatagramChannel opened = null;
        try
        {
            opened = DatagramChannel.open(local.getAddress() instanceof Inet4Address ?
                StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
            opened.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            opened.bind(local);
            opened.configureBlocking(false);
            receiveBufferGranted = opened.getOption(StandardSocketOptions.SO_RCVBUF);
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(opened);
            throw new IllegalStateException("cannot bind the heartbeat port " + local + " of rank " + rank + " (" +
                ex.getMessage() + "); fix the cluster file or stop the process holding it", ex);
        }
        this.channel = opened;
    }

    private static InetSocketAddress[] resolve(final ClusterConfig cluster)
    {
        final InetSocketAddress[] addresses = new InetSocketAddress[cluster.size()];
        for (int r = 0; r < addresses.length; r++)
        {
            final ClusterConfig.Member m = cluster.member(r);
            final String host = m.host().startsWith("[") && m.host().endsWith("]") ?
                m.host().substring(1, m.host().length() - 1) : m.host();
            try
            {
                addresses[r] = new InetSocketAddress(InetAddress.getByName(host), m.heartbeatPort());
            }
            catch (final UnknownHostException ex)
            {
                throw new IllegalStateException("cannot resolve host '" + m.host() + "' of rank " + r +
                    " in the cluster file: " + ex.getMessage() + " (every member's host must resolve at start)", ex);
            }
        }
        return addresses;
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(final int observerRank, final long counter, final long timestampNs)
    {
        final int length = stamper.stamp(sendBuffer, 0, frame.encode(
            sendBuffer, 0, clusterId, rank, incarnation, observerRank, configDigest, counter, timestampNs));
        if (length < 0)
        {
            return false;
        }
        sendBytes.clear().limit(length);
        try
        {
            return channel.send(sendBytes, peers[observerRank]) > 0;
        }
        catch (final IOException ex)
        {
            // e.g. ECONNREFUSED from an earlier datagram to a closed port: the heartbeat is lost, like any other
            return false;
        }
    }

    /**
     * Hand every datagram waiting on the heartbeat port to {@code handler}, up to
     * {@code max(fragmentLimit, DRAIN_LIMIT)}; the {@code Header} argument is null.
     *
     * @param handler       the agent's frame handler.
     * @param fragmentLimit the agent's per-poll limit.
     * @return datagrams read.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        final int limit = Math.max(fragmentLimit, DRAIN_LIMIT);
        int count = 0;
        try
        {
            while (count < limit)
            {
                receiveBytes.clear();
                if (channel.receive(receiveBytes) == null)
                {
                    break;
                }
                count++;
                handler.onFragment(receiveBuffer, 0, receiveBytes.position(), null);
            }
        }
        catch (final IOException ex)
        {
            // an unconnected UDP socket reports no peer errors: nothing to do but read again next cycle
        }
        return count;
    }

    /**
     * @return the {@code SO_RCVBUF} asked for.
     */
    public int receiveBufferRequested()
    {
        return receiveBufferRequested;
    }

    /**
     * @return the {@code SO_RCVBUF} the kernel reports (Linux doubles what it grants, capped by {@code rmem_max}).
     */
    public int receiveBufferGranted()
    {
        return receiveBufferGranted;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.quietClose(channel);
    }
}
