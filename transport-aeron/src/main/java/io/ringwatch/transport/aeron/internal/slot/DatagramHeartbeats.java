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
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.function.IntSupplier;

/**
 * UDP heartbeats as plain datagrams, one frame each, on the node's heartbeat port: no Aeron stream, so nothing to
 * retransmit and nothing to wait for. A lost heartbeat is simply superseded by the next one, where a reliable,
 * in-order stream held every later heartbeat back until the lost one was re-sent.
 * <p>
 * <b>Two sockets on the port.</b> Both are bound to the node's heartbeat address with {@code SO_REUSEPORT}. The
 * sending socket is unconnected and sends every heartbeat, so they leave from the heartbeat address the cluster
 * file gives for this rank. The receiving socket is connected to the heartbeat address of the emitter this node
 * watches, re-connected when the ring mends and the emitter changes ({@link #watch(IntSupplier)}). The kernel
 * delivers a datagram to the connected socket only when its source is that address (a connected socket matches
 * the 4-tuple, which outranks the unconnected one; connected sockets are never picked by the reuseport hash), and
 * everything else to the sending socket, which is never read: its small receive buffer fills and the kernel drops
 * the rest. So datagrams from anyone but the emitter (random bytes, Aeron DATA or SETUP frames, forged heartbeats
 * from other addresses) cost a kernel lookup and never reach Java, and {@code read} on the connected socket returns
 * no sender address, so a flood from many addresses allocates nothing (an unconnected {@code receive} allocates an
 * {@code InetSocketAddress} whenever the sender changes). A datagram that does come from the emitter's address,
 * forged or not, is still read and must pass the decoder's checks: a heartbeat's type and length first
 * ({@code FrameDecoder#decodeHeartbeat}; a datagram longer than a heartbeat is truncated on receipt), then MAC and
 * freshness.
 * <p>
 * What the filter costs the protocol: a heartbeat from a rank other than the current emitter no longer reaches the
 * slot, so a zombie (a node held dead that resumes from a pause) is fenced when its first control frame (the probe
 * or notice it sends once its own emitter has fallen silent) reaches a node, not by its first heartbeat.
 * <p>
 * The agent drains the receiving socket every duty cycle, up to {@link #DRAIN_LIMIT} datagrams, so a burst from the
 * emitter's address between two cycles waits in the socket's receive buffer ({@code SO_RCVBUF}, asked for at
 * {@link #receiveBufferRequested()}; the kernel caps it at {@code net.core.rmem_max}).
 * <p>
 * Peers' addresses are resolved once, at start: an unresolvable host fails the start with its name. Steady state
 * allocates nothing: direct buffers, addresses resolved up front, and a connected receiving socket. Agent thread
 * only.
 */
public final class DatagramHeartbeats implements HeartbeatSender, AutoCloseable
{
    /**
     * Most datagrams read in one duty cycle: a cycle that read any runs again at once (idle strategies sleep only
     * after a cycle without work), so a backlog is drained over several short cycles, each of which still sends this
     * node's heartbeat when due. Each junk datagram costs a {@code recv} of at most {@link #RECEIVE_BUFFER_LENGTH}
     * bytes, and a MAC only if it is shaped as a heartbeat ({@code ringwatch-perf.jar flood} prints the costs).
     */
    public static final int DRAIN_LIMIT = 256;

    /** Longest datagram read whole: one byte past a heartbeat, so a longer one shows its wrong length. */
    public static final int RECEIVE_BUFFER_LENGTH = HeartbeatFlyweight.LENGTH + 1;

    /** The sending socket's receive buffer: it only ever holds foreign datagrams, which nobody reads. */
    private static final int FOREIGN_RECEIVE_BUFFER_BYTES = 4096;

    private final DatagramChannel channel;
    private final DatagramChannel receiver;
    private final InetSocketAddress[] peers;
    private final int clusterId;
    private final int rank;
    private long incarnation;
    private final int configDigest;
    private final FrameStamper stamper;
    private final int receiveBufferRequested;
    private final int receiveBufferGranted;
    private final HeartbeatFlyweight frame = new HeartbeatFlyweight();
    private final ByteBuffer sendBytes = BufferUtil.allocateDirectAligned(HeartbeatFlyweight.LENGTH, 64);
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(sendBytes);
    // one byte more than a heartbeat: a longer datagram is truncated by the kernel and refused by its length, so junk
    // costs a copy of 65 bytes whatever its size
    private final ByteBuffer receiveBytes = BufferUtil.allocateDirectAligned(RECEIVE_BUFFER_LENGTH, 64);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveBytes);
    private IntSupplier emitter;
    private int connectedTo = -1;
    private long emitterChanges;
    private long peerErrors;

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
        final long incarnation,
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
        DatagramChannel sending = null;
        DatagramChannel receiving = null;
        try
        {
            // one plain bind first: a port some other socket holds (with or without SO_REUSEPORT) fails here, as
            // before, rather than being shared
            try (DatagramChannel probe = DatagramChannel.open(family(local)))
            {
                probe.bind(local);
            }
            sending = DatagramChannel.open(family(local));
            sending.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            sending.setOption(StandardSocketOptions.SO_RCVBUF, FOREIGN_RECEIVE_BUFFER_BYTES);
            sending.bind(local);
            sending.configureBlocking(false);

            receiving = DatagramChannel.open(family(local));
            receiving.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            receiving.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            receiving.bind(local);
            receiving.configureBlocking(false);
            receiveBufferGranted = receiving.getOption(StandardSocketOptions.SO_RCVBUF);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            CloseHelper.quietCloseAll(sending, receiving);
            throw new IllegalStateException("cannot bind the heartbeat port " + local + " of rank " + rank + " (" +
                ex.getMessage() + "); fix the cluster file or stop the process holding it", ex);
        }
        this.channel = sending;
        this.receiver = receiving;
        // until the protocol says otherwise, the emitter is the predecessor, as the ring starts
        connect(Math.floorMod(rank - 1, peers.length));
    }

    private static StandardProtocolFamily family(final InetSocketAddress address)
    {
        return address.getAddress() instanceof Inet4Address ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    /**
     * Follow the protocol's emitter: before each {@link #poll}, the receiving socket is re-connected if it changed.
     * Set once, before the agent runs.
     *
     * @param emitter the rank this node watches (itself while it has no emitter).
     */
    public void watch(final IntSupplier emitter)
    {
        this.emitter = emitter;
    }

    private void connect(final int emitterRank)
    {
        try
        {
            if (receiver.isConnected())
            {
                receiver.disconnect();
            }
            // to itself while alone or joining: no datagram comes from there, the sending socket never sends to it
            receiver.connect(peers[emitterRank]);
            connectedTo = emitterRank;
        }
        catch (final IOException ex)
        {
            // left unconnected: poll reads nothing until the next attempt, one per duty cycle
            connectedTo = -1;
            peerErrors++;
        }
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
     * Hand every datagram from the watched emitter's address to {@code handler}, up to
     * {@code max(fragmentLimit, DRAIN_LIMIT)}; the {@code Header} argument is null. Re-connects first if the emitter
     * changed.
     *
     * @param handler       the agent's frame handler.
     * @param fragmentLimit the agent's per-poll limit.
     * @return datagrams read.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        if (emitter != null)
        {
            final int current = emitter.getAsInt();
            if (current != connectedTo && current >= 0 && current < peers.length)
            {
                emitterChanges++;
                connect(current);
            }
        }
        if (connectedTo < 0)
        {
            return 0;
        }
        final int limit = Math.max(fragmentLimit, DRAIN_LIMIT);
        int count = 0;
        int errors = 0;
        while (count < limit)
        {
            try
            {
                receiveBytes.clear();
                if (receiver.read(receiveBytes) <= 0)
                {
                    break;
                }
                count++;
                handler.onFragment(receiveBuffer, 0, receiveBytes.position(), null);
            }
            catch (final PortUnreachableException ex)
            {
                // ICMP port unreachable for the connected address (it dies; with two live nodes it is also the
                // observer this node sends to): one error per read, reported and cleared; read on
                peerErrors++;
                if (++errors > 1)
                {
                    break;
                }
            }
            catch (final IOException ex)
            {
                peerErrors++;
                break;
            }
        }
        return count;
    }

    /**
     * @return the socket that sends, and takes every datagram but the watched emitter's: nobody reads it but a
     * {@code HelloExchange}.
     */
    public DatagramChannel foreignSocket()
    {
        return channel;
    }

    /**
     * @param incarnation the node's incarnation, when it changed before its first heartbeat: a seed without a record
     *                    that heard its cluster up, while it listened on this port, joins under a new one.
     */
    public void incarnation(final long incarnation)
    {
        this.incarnation = incarnation;
    }

    /**
     * @return the heartbeat port's socket connected to the watched emitter: the agent's, which the node's launch may
     * read only before the agent starts.
     */
    public DatagramChannel emitterSocket()
    {
        return receiver;
    }

    /**
     * @return every member's heartbeat address, by rank.
     */
    public InetSocketAddress[] peerAddresses()
    {
        return peers.clone();
    }

    /**
     * @return the rank the receiving socket is connected to, or -1 if it is not connected.
     */
    public int connectedEmitter()
    {
        return connectedTo;
    }

    /**
     * @return times the receiving socket was re-connected to a new emitter.
     */
    public long emitterChanges()
    {
        return emitterChanges;
    }

    /**
     * @return socket errors seen on the receiving socket (ICMP port unreachable from the emitter's address, failed
     * re-connects).
     */
    public long peerErrors()
    {
        return peerErrors;
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
        CloseHelper.quietCloseAll(receiver, channel);
    }
}
