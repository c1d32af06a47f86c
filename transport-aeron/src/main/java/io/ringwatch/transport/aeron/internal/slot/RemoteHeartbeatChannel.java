package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.CachedNanoClock;

/**
 * Cross-host heartbeats: the emitter sends a frame, and this node's receiver deposits frames from its emitters
 * into its own slot, so the protocol reads progress exactly as it does for shared memory.
 * <p>
 * Depositing into the slot (rather than watching an Aeron image position) keeps one reading path for every
 * transport and lets the slot carry the writer rank, which an image position cannot.
 */
public final class RemoteHeartbeatChannel implements HeartbeatChannel
{
    private final HeartbeatSlots slots;
    private final int rank;
    private final HeartbeatSender sender;
    private final CachedNanoClock clock;
    private long dropped;

    /**
     * @param slots  slots holding at least this node's own slot.
     * @param rank   this node.
     * @param sender sends frames to observers.
     * @param clock  the duty cycle's time.
     */
    public RemoteHeartbeatChannel(
        final HeartbeatSlots slots, final int rank, final HeartbeatSender sender, final CachedNanoClock clock)
    {
        this.slots = slots;
        this.rank = rank;
        this.sender = sender;
        this.clock = clock;
    }

    /**
     * {@inheritDoc}
     */
    public void writeHeartbeat(final int observerRank, final long counter)
    {
        if (!sender.send(observerRank, counter, clock.nanoTime()))
        {
            dropped++;
        }
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

    /**
     * {@inheritDoc}
     */
    public boolean deposit(final int writerRank, final long incarnation, final long counter, final long timestampNs)
    {
        slots.write(rank, writerRank, incarnation, counter, timestampNs);
        return true;
    }

    /**
     * @return heartbeat frames the transport could not take.
     */
    public long dropped()
    {
        return dropped;
    }
}
