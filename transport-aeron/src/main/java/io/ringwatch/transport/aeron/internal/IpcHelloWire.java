package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringwatch.core.codec.HelloFlyweight;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * Hellos over IPC: a stream per rank on the host's media driver, {@link #STREAM_ID_BASE} + rank, fixed and independent
 * of the key (a frame signed with another key fails every MAC on the control streams and is only counted there).
 * Clusters that share a driver share these streams: the exchange ignores hellos of another cluster id over IPC.
 * <p>
 * The hello thread never touches Aeron: a publication or image reads counters in the driver's CnC file, which the
 * client unmaps when it loses its driver, and a thread reading there then crashes the JVM. It trades hellos with the
 * thread that runs the node's Aeron client (the launch while it listens or holds, then the agent) through two
 * single-producer rings; that thread moves them by {@link #pump}, a few per call, without allocating. Publications
 * are added asynchronously, so the agent never waits on the driver: to the peers this node says hello to when it is
 * built ({@link #prepare}), to others when first answered. A hello to a peer whose publication is not ready yet is
 * dropped, and the next round (a second later) says it again.
 */
public final class IpcHelloWire implements HelloWire
{
    /** Hello streams: this plus the rank. */
    public static final int STREAM_ID_BASE = 0x52480000;

    // the least term Aeron takes: hellos are 64 bytes, one a second per peer
    private static final String CHANNEL = "aeron:ipc?term-length=64k";
    private static final int RING_BYTES = 4096;
    private static final int PUMP_LIMIT = 4;

    private final Aeron aeron;
    private final Subscription subscription;
    private final Publication[] publications;
    private final long[] pendingPublications;
    private final OneToOneRingBuffer inbound = ring();
    private final OneToOneRingBuffer outbound = ring();
    private final UnsafeBuffer received = new UnsafeBuffer(new byte[HelloFlyweight.LENGTH]);
    private final FragmentHandler fromDriver = this::onFragment;
    private final MessageHandler toDriver = this::onOutbound;
    private final MessageHandler toExchange = this::onInbound;
    private Sink sink;

    /**
     * @param aeron       the node's client.
     * @param rank        this node: its stream is subscribed here, on the building thread.
     * @param clusterSize N.
     */
    public IpcHelloWire(final Aeron aeron, final int rank, final int clusterSize)
    {
        this.aeron = aeron;
        this.publications = new Publication[clusterSize];
        this.pendingPublications = new long[clusterSize];
        this.subscription = aeron.addSubscription(CHANNEL, STREAM_ID_BASE + rank);
    }

    private static OneToOneRingBuffer ring()
    {
        return new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * {@inheritDoc}
     */
    public void prepare(final int rank)
    {
        publication(rank);
    }

    /**
     * {@inheritDoc}
     */
    public void send(final int rank, final UnsafeBuffer hello)
    {
        // the message type carries the destination (types start at 1); a full ring drops it
        outbound.write(rank + 1, hello, 0, HelloFlyweight.LENGTH);
    }

    /**
     * {@inheritDoc}
     */
    public void receive(final Sink sink, final int limit)
    {
        this.sink = sink;
        inbound.read(toExchange, limit);
    }

    private void onInbound(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        received.putBytes(0, buffer, index, HelloFlyweight.LENGTH);
        sink.onHello(received, 0);
    }

    /**
     * {@inheritDoc}
     */
    public int pump()
    {
        return subscription.poll(fromDriver, PUMP_LIMIT) + outbound.read(toDriver, PUMP_LIMIT);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (HelloFlyweight.isHello(buffer, offset, length))
        {
            inbound.write(1, buffer, offset, HelloFlyweight.LENGTH);
        }
    }

    private void onOutbound(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final int rank = msgTypeId - 1;
        Publication publication = publications[rank];
        if (publication == null)
        {
            publication = publication(rank);
        }
        if (publication != null)
        {
            // not connected (the peer is not up) or back pressure: the next round says it again
            publication.offer(buffer, index, length);
        }
    }

    private Publication publication(final int rank)
    {
        try
        {
            if (pendingPublications[rank] == 0)
            {
                pendingPublications[rank] = aeron.asyncAddPublication(CHANNEL, STREAM_ID_BASE + rank);
                return null;
            }
            final Publication publication = aeron.getPublication(pendingPublications[rank]);
            publications[rank] = publication;
            return publication;
        }
        catch (final RuntimeException ex)
        {
            // refused by the driver: ask again next time
            pendingPublications[rank] = 0;
            return null;
        }
    }

    /**
     * {@inheritDoc}
     */
    public String describe(final int rank)
    {
        return "over ipc";
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        CloseHelper.quietCloseAll(publications);
        CloseHelper.quietClose(subscription);
    }
}
