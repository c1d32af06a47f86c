package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.RankSet;
import io.ringwatch.transport.aeron.internal.NodeCounters;

/**
 * What the agent's duty cycle owes a heartbeat transport that has a life of its own beyond the core's
 * {@link io.ringwatch.core.spi.HeartbeatChannel}: RDMA connections to step, a local port that can fail, a view change
 * to follow, counters to publish and a slot descriptor for NEW_OBSERVER. {@link #NONE} for IPC and UDP, whose
 * heartbeats need nothing of the sort; {@link RdmaHeartbeatTransport} for RDMA. The agent stays free of
 * transport-specific branches, and no protocol decision is taken here.
 */
public interface HeartbeatTransport extends AutoCloseable
{
    /**
     * The transport of IPC and UDP nodes: nothing to poll, never a local fault, no slot descriptor.
     */
    HeartbeatTransport NONE = new HeartbeatTransport()
    {
        public int poll(final long nowNs)
        {
            return 0;
        }

        public boolean localPortActive()
        {
            return true;
        }

        public String describeLocalFault()
        {
            return null;
        }

        public void onViewChange(final RankSet dead, final long nowNs)
        {
        }

        public void publish(final NodeCounters counters)
        {
        }

        public String lastError()
        {
            return "";
        }

        public int slotRkey()
        {
            return 0;
        }

        public long slotAddress()
        {
            return 0L;
        }

        public int slotLength()
        {
            return 0;
        }

        public void close()
        {
        }
    };

    /**
     * The transport's share of one duty cycle, before the protocol's.
     *
     * @param nowNs the duty cycle's clock.
     * @return work done.
     */
    int poll(long nowNs);

    /**
     * @return false once this node can no longer hear its emitter through the transport (RDMA: its HCA port is
     * down). The agent then stops the node before the protocol runs, as on the loss of its media driver: a node that
     * cannot hear must not go on suspecting healthy peers.
     */
    boolean localPortActive();

    /**
     * @return why {@link #localPortActive()} is false, for the log and the exit message; null while it is true.
     * Allocates: call it on the fault path only.
     */
    String describeLocalFault();

    /**
     * The protocol's view changed.
     *
     * @param dead  the protocol's dead set, the live object (the transport may keep it).
     * @param nowNs the duty cycle's clock.
     */
    void onViewChange(RankSet dead, long nowNs);

    /**
     * Publish the transport's counters; once per duty cycle, without allocating.
     *
     * @param counters the node's counters.
     */
    void publish(NodeCounters counters);

    /**
     * @return the transport's most recent error as of the last {@link #publish}, "" if none; readable from any
     * thread, for the node's log.
     */
    String lastError();

    /**
     * @return remote key of this node's slot, for the NEW_OBSERVER frames it sends; 0 if the transport needs none.
     */
    int slotRkey();

    /**
     * @return address of this node's slot, for NEW_OBSERVER; 0 if the transport needs none.
     */
    long slotAddress();

    /**
     * @return registered length of this node's slot, for NEW_OBSERVER; 0 if the transport needs none.
     */
    int slotLength();

    /**
     * Release the transport's resources. Idempotent.
     */
    void close();
}
