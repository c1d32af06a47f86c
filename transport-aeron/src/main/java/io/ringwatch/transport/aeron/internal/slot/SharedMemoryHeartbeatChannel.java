package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Same-host heartbeats: the emitter stores straight into its observer's slot of the shared file, the observer
 * loads its own slot. Nothing is sent and nothing wakes the observer.
 */
public final class SharedMemoryHeartbeatChannel implements HeartbeatChannel
{
    private final HeartbeatSlots slots;
    private final int rank;
    private final long incarnation;
    private final CachedNanoClock clock;

    /**
     * @param slots       the cluster's slot file.
     * @param rank        this node.
     * @param incarnation this node's incarnation.
     * @param clock       the duty cycle's time, stamped into slots for diagnostics.
     */
    public SharedMemoryHeartbeatChannel(
        final HeartbeatSlots slots, final int rank, final long incarnation, final CachedNanoClock clock)
    {
        this.slots = slots;
        this.rank = rank;
        this.incarnation = incarnation;
        this.clock = clock;
    }

    /**
     * {@inheritDoc}
     */
    public void writeHeartbeat(final int observerRank, final long counter)
    {
        slots.write(observerRank, rank, incarnation, counter, clock.nanoTime());
    }

    /**
     * {@inheritDoc}
     */
    public long readHeartbeat(final int emitterRank)
    {
        return slots.read(rank, emitterRank);
    }

    /**
     * {@inheritDoc}
     */
    public int lastWriter()
    {
        return slots.lastWriter(rank);
    }
}
