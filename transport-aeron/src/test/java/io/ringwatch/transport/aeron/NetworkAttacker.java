package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.launch.ClusterDirectory;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Someone on the network without the cluster key, using nothing but the public Aeron client API and a media driver
 * of its own: it knows the cluster file (ranks, ports, η, δ: hence the config digest) and can watch the wire, so it
 * builds well-formed frames with the right header, digest, destination and a fresh frame sequence, and either leaves
 * the MAC zero or signs with a key of its own. Frames go to a node's UDP ports over loopback: as Aeron messages to the
 * control port, as plain datagrams to the heartbeat port.
 */
final class NetworkAttacker implements AutoCloseable
{
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    private final File dir = new File(ClusterDirectory.defaultParent(), "ringwatch-attacker-" +
        ProcessHandle.current().pid() + "-" + System.nanoTime());
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Map<String, Publication> publications = new HashMap<>();
    private final FrameAuthenticator ownKey = FrameAuthenticator.withKey(KeyFile.generate(new SecureRandom()));
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final int clusterId;
    private final int configDigest;
    private long frameSequence = 1L << 32;
    private DatagramChannel datagrams;
    private final Map<InetSocketAddress, DatagramChannel> spoofed = new HashMap<>();

    /**
     * @param clusterId    from the cluster file.
     * @param configDigest what the cluster file implies.
     */
    NetworkAttacker(final int clusterId, final int configDigest)
    {
        this.clusterId = clusterId;
        this.configDigest = configDigest;
        driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.getAbsolutePath()));
    }

    /**
     * How the attacker seals a frame.
     */
    enum Seal
    {
        /** MAC left zero, as a node with authentication off sends. */
        UNSIGNED,
        /** MAC under a key that is not the cluster's. */
        OWN_KEY
    }

    /**
     * A FAILURE_NOTICE from {@code sender} (also the notice's source) naming {@code dead}.
     *
     * @return the frame's length in {@link #frame()}.
     */
    int notice(final int sender, final long incarnation, final int destination, final int dead, final Seal seal)
    {
        final int length = FailureNoticeFlyweight.lengthOf(1);
        new FailureNoticeFlyweight().wrap(buffer, 0)
            .deadRank(dead)
            .sourceRank(sender)
            .sourceIncarnation(incarnation)
            .rangeCount(1)
            .sequence(frameSequence)
            .range(0, dead, 1)
            .header(FrameHeaderFlyweight.FAILURE_NOTICE_TYPE, clusterId, sender, incarnation, destination,
                configDigest);
        return seal(length, seal);
    }

    /**
     * @return length of a LEAVE from {@code sender} to its observer {@code destination}.
     */
    int leave(final int sender, final long incarnation, final int destination, final Seal seal)
    {
        return seal(new LeaveFlyweight().encode(buffer, 0, clusterId, sender, incarnation, destination, configDigest),
            seal);
    }

    /**
     * @return length of a NEW_OBSERVER in which {@code sender} claims to be {@code emitter}'s observer.
     */
    int newObserver(final int sender, final long incarnation, final int emitter, final Seal seal)
    {
        return seal(new NewObserverFlyweight().encode(buffer, 0, clusterId, sender, incarnation, configDigest, emitter),
            seal);
    }

    /**
     * @return length of a HEARTBEAT from {@code sender} to its observer {@code destination}.
     */
    int heartbeat(final int sender, final long incarnation, final int destination, final long counter, final Seal seal)
    {
        return seal(new HeartbeatFlyweight().encode(buffer, 0, clusterId, sender, incarnation, destination,
            configDigest, counter, System.nanoTime()), seal);
    }

    private int seal(final int length, final Seal seal)
    {
        // a fresh sequence, so that only the MAC stands between the frame and the protocol
        new FrameHeaderFlyweight().wrap(buffer, 0).frameSequence(++frameSequence);
        if (seal == Seal.OWN_KEY)
        {
            ownKey.sign(buffer, 0, length);
        }
        else
        {
            buffer.setMemory(length - FrameHeaderFlyweight.MAC_LENGTH, FrameHeaderFlyweight.MAC_LENGTH, (byte)0);
        }
        return length;
    }

    /**
     * @return the buffer the frame builders write into, at offset 0.
     */
    UnsafeBuffer frame()
    {
        return buffer;
    }

    /**
     * Send the frame last built.
     */
    void send(final String host, final int port, final int streamId, final int length)
    {
        send(host, port, streamId, buffer, length);
    }

    /**
     * Send {@code length} bytes at offset 0 of {@code bytes} as one Aeron message to {@code host:port}, stream
     * {@code streamId}, waiting (bounded) for the node's driver to connect the first time.
     */
    void send(final String host, final int port, final int streamId, final UnsafeBuffer bytes, final int length)
    {
        final String channel = "aeron:udp?endpoint=" + host + ":" + port;
        final Publication publication = publications.computeIfAbsent(channel + "#" + streamId,
            (k) -> aeron.addPublication(channel, streamId));
        final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
        while (publication.offer(bytes, 0, length) < 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("could not send to " + channel + " stream " + streamId);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Send the frame last built as one plain UDP datagram (heartbeat ports are not Aeron streams).
     */
    void sendDatagram(final String host, final int port, final int length)
    {
        sendDatagram(host, port, buffer, length);
    }

    /**
     * Send {@code length} bytes at offset 0 of {@code bytes} as one plain UDP datagram to {@code host:port}.
     */
    void sendDatagram(final String host, final int port, final UnsafeBuffer bytes, final int length)
    {
        try
        {
            if (datagrams == null)
            {
                datagrams = DatagramChannel.open();
            }
            datagrams.send(ByteBuffer.wrap(bytes.byteArray(), 0, length), new InetSocketAddress(host, port));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot send to " + host + ":" + port, ex);
        }
    }

    /**
     * Send {@code length} bytes at offset 0 of {@code bytes} as one UDP datagram to {@code host:port} from the
     * spoofed source {@code from}. A node's heartbeat socket takes datagrams from its emitter's address only (the
     * kernel drops the rest), so frames meant to reach its decoder must look as if they came from there: an attacker
     * on the path forges the source with a raw socket; on loopback, binding the emitter's address with
     * {@code SO_REUSEPORT} (allowed to a process of the node's own user) has the same effect.
     */
    void sendDatagramFrom(
        final InetSocketAddress from, final String host, final int port, final UnsafeBuffer bytes, final int length)
    {
        try
        {
            spoofedSource(from).send(ByteBuffer.wrap(bytes.byteArray(), 0, length), new InetSocketAddress(host, port));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot send to " + host + ":" + port + " from " + from, ex);
        }
    }

    void sendDatagramFrom(final InetSocketAddress from, final String host, final int port, final int length)
    {
        sendDatagramFrom(from, host, port, buffer, length);
    }

    private DatagramChannel spoofedSource(final InetSocketAddress from) throws IOException
    {
        DatagramChannel channel = spoofed.get(from);
        if (channel == null)
        {
            channel = bindSpoofed(from);
            spoofed.put(from, channel);
        }
        return channel;
    }

    /**
     * @param from a node's heartbeat address.
     * @return a channel sending from it (SO_REUSEPORT next to the node's own sockets).
     * @throws IOException if it cannot be bound.
     */
    static DatagramChannel bindSpoofed(final InetSocketAddress from) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open();
        try
        {
            channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            // it is never read: keep what the kernel may hash to it small
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            channel.bind(from);
            return channel;
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.quietCloseAll(spoofed.values());
        CloseHelper.quietClose(datagrams);
        CloseHelper.quietCloseAll(publications.values());
        CloseHelper.quietClose(aeron);
        CloseHelper.quietClose(driver);
        IoUtil.delete(dir, true);
    }
}
