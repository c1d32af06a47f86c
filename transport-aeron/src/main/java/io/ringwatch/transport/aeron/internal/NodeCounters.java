package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Counter;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounters;
import io.ringwatch.transport.aeron.NodeCounter;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.agrona.BitUtil.SIZE_OF_INT;

/**
 * A node's counters, allocated in the media driver's counters file at start (never on the duty cycle) and updated
 * with release stores, which cost a plain store on x86.
 */
public final class NodeCounters implements AutoCloseable
{
    /** Key: cluster id at 0, rank at 4, detail (reject reason ordinal) at 8. */
    public static final int KEY_LENGTH = 3 * SIZE_OF_INT;

    private static final NodeCounter[] PROTOCOL_COUNTERS = Arrays.stream(NodeCounter.values())
        .filter(c -> c.protocolCounter() != null).toArray(NodeCounter[]::new);

    private final Counter[] counters = new Counter[NodeCounter.values().length];
    // what was last published, for readers on other threads: the counters themselves live in the Aeron client's
    // mapping of the driver's CnC file, which is unmapped when the client closes on losing its driver, and a read
    // there then crashes the JVM (the node command's main thread did, logging a stop after a driver loss)
    private final AtomicLongArray published = new AtomicLongArray(NodeCounter.values().length);
    private final Counter[] rejectsByReason = new Counter[RejectReason.values().length];
    private final long[] rejectCounts = new long[RejectReason.values().length];
    private long rejectedTotal;
    private long dutyCycleMaxNs;

    /**
     * @param aeron     client connected to the driver.
     * @param clusterId cluster.
     * @param rank      node.
     */
    public NodeCounters(final Aeron aeron, final int clusterId, final int rank)
    {
        this(aeron, clusterId, rank, false);
    }

    /**
     * @param aeron     client connected to the driver.
     * @param clusterId cluster.
     * @param rank      node.
     * @param rdma      true to allocate the {@link NodeCounter#rdmaOnly() RDMA counters} too.
     */
    public NodeCounters(final Aeron aeron, final int clusterId, final int rank, final boolean rdma)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[KEY_LENGTH]);
        key.putInt(0, clusterId, LITTLE_ENDIAN);
        key.putInt(SIZE_OF_INT, rank, LITTLE_ENDIAN);
        try
        {
            for (final NodeCounter c : NodeCounter.values())
            {
                if (c == NodeCounter.FRAMES_REJECTED_BY_REASON || (c.rdmaOnly() && !rdma))
                {
                    continue;
                }
                key.putInt(2 * SIZE_OF_INT, -1, LITTLE_ENDIAN);
                counters[c.ordinal()] = add(aeron, c, key, "ringwatch " + c.label() + ": cluster=" + clusterId +
                    " rank=" + rank);
            }
            for (final RejectReason reason : RejectReason.values())
            {
                if (reason == RejectReason.NONE)
                {
                    continue;
                }
                key.putInt(2 * SIZE_OF_INT, reason.ordinal(), LITTLE_ENDIAN);
                rejectsByReason[reason.ordinal()] = add(aeron, NodeCounter.FRAMES_REJECTED_BY_REASON, key,
                    "ringwatch frames rejected " + reason.name() + ": cluster=" + clusterId + " rank=" + rank);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private static Counter add(final Aeron aeron, final NodeCounter c, final UnsafeBuffer key, final String label)
    {
        final byte[] labelBytes = label.getBytes(StandardCharsets.US_ASCII);
        return aeron.addCounter(c.typeId(), key, 0, KEY_LENGTH, new UnsafeBuffer(labelBytes), 0, labelBytes.length);
    }

    /**
     * Count a rejected frame.
     *
     * @param reason why.
     */
    public void onRejected(final RejectReason reason)
    {
        final int i = reason.ordinal();
        rejectCounts[i]++;
        rejectedTotal++;
        rejectsByReason[i].setRelease(rejectCounts[i]);
        set(NodeCounter.FRAMES_REJECTED, rejectedTotal);
    }

    /**
     * @param reason a reason.
     * @return frames rejected for it so far.
     */
    public long rejected(final RejectReason reason)
    {
        return rejectCounts[reason.ordinal()];
    }

    /**
     * @return frames rejected for any reason.
     */
    public long rejectedTotal()
    {
        return rejectedTotal;
    }

    /**
     * @param durationNs one duty cycle's length.
     */
    public void onDutyCycle(final long durationNs)
    {
        if (durationNs > dutyCycleMaxNs)
        {
            dutyCycleMaxNs = durationNs;
            set(NodeCounter.DUTY_CYCLE_MAX_NS, durationNs);
        }
    }

    /**
     * Publish the protocol's own counts and the transport's.
     *
     * @param node         the protocol.
     * @param sendsDropped frames dropped on send.
     * @param sendsRetried frames sent after queueing.
     * @param heartbeatsDropped UDP heartbeat frames not sent.
     */
    public void publish(
        final DetectorNode node,
        final long sendsDropped,
        final long sendsRetried,
        final long heartbeatsDropped)
    {
        final ProtocolCounters protocol = node.counters();
        for (final NodeCounter c : PROTOCOL_COUNTERS)
        {
            set(c, protocol.get(c.protocolCounter()));
        }
        set(NodeCounter.DEAD_COUNT, node.deadSet().size());
        set(NodeCounter.VIEW_EPOCH, node.viewEpoch());
        set(NodeCounter.NODE_STATE, node.state().code());
        set(NodeCounter.SENDS_DROPPED, sendsDropped);
        set(NodeCounter.SENDS_RETRIED, sendsRetried);
        set(NodeCounter.HEARTBEATS_DROPPED, heartbeatsDropped);
    }

    /**
     * Publish one counter's value; a transport publishes its own this way.
     *
     * @param c     the counter; an {@link NodeCounter#rdmaOnly() RDMA counter} only if allocated.
     * @param value its value.
     */
    public void set(final NodeCounter c, final long value)
    {
        counters[c.ordinal()].setRelease(value);
        published.lazySet(c.ordinal(), value);
    }

    /**
     * @param c a counter that is allocated.
     * @return its last published value; safe from any thread.
     */
    public long get(final NodeCounter c)
    {
        return published.get(c.ordinal());
    }

    /**
     * Free the counters in the driver.
     */
    public void close()
    {
        CloseHelper.closeAll(counters);
        CloseHelper.closeAll(rejectsByReason);
    }
}
