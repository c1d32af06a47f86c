package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.RankSet;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.internal.NodeCounters;
import io.ringwatch.transport.rdma.RdmaCounters;
import io.ringwatch.transport.rdma.RdmaHeartbeats;
import io.ringwatch.transport.rdma.RemoteSlot;

import java.util.concurrent.TimeUnit;

/**
 * {@link RdmaHeartbeats} in the agent's duty cycle. The protocol itself talks to {@link RdmaHeartbeats} as its
 * {@link io.ringwatch.core.spi.HeartbeatChannel} (writes, reads, and NEW_OBSERVER descriptors through
 * {@code acceptObserver}); this adapter carries the rest: connection stepping, the local port, view changes,
 * counters and this node's slot descriptor.
 */
public final class RdmaHeartbeatTransport implements HeartbeatTransport
{
    private final RdmaHeartbeats rdma;
    private final RemoteSlot slot;
    private volatile String lastError = "";

    /**
     * @param rdma the node's RDMA heartbeats; closed with this adapter.
     */
    public RdmaHeartbeatTransport(final RdmaHeartbeats rdma)
    {
        this.rdma = rdma;
        this.slot = rdma.localSlot();
    }

    /**
     * {@inheritDoc}
     */
    public int poll(final long nowNs)
    {
        return rdma.poll(nowNs);
    }

    /**
     * {@inheritDoc}
     */
    public boolean localPortActive()
    {
        return rdma.isLocalPortActive();
    }

    /**
     * {@inheritDoc}
     */
    public String describeLocalFault()
    {
        if (rdma.isLocalPortActive())
        {
            return null;
        }
        return "HCA port down: " + rdma.lastError() + " (seen at " +
            TimeUnit.NANOSECONDS.toMillis(rdma.localPortDownSinceNs()) + " ms on the node's clock, local endpoint " +
            rdma.localEndpoint() + "); this node can no longer hear its emitter, so it stops and its observer " +
            "reports it";
    }

    /**
     * {@inheritDoc}
     */
    public void onViewChange(final RankSet dead, final long nowNs)
    {
        rdma.onViewChange(dead, nowNs);
    }

    /**
     * {@inheritDoc}
     */
    public void publish(final NodeCounters counters)
    {
        final RdmaCounters rdmaCounters = rdma.counters();
        counters.set(NodeCounter.RDMA_BEATS_POSTED, rdmaCounters.beatsPosted());
        counters.set(NodeCounter.RDMA_BEATS_DROPPED_NOT_CONNECTED, rdmaCounters.beatsDroppedNotConnected());
        counters.set(NodeCounter.RDMA_COMPLETION_ERRORS, rdmaCounters.completionErrors());
        counters.set(NodeCounter.RDMA_CONNECT_FAILURES, rdmaCounters.connectFailures());
        counters.set(NodeCounter.RDMA_DISCONNECTS, rdmaCounters.disconnects());
        counters.set(NodeCounter.RDMA_LOCAL_PORT_DOWNS, rdmaCounters.localPortDowns());
        counters.set(NodeCounter.RDMA_CONNECT_TIME_MAX_NS, rdmaCounters.connectTimeMaxNs());
        counters.set(NodeCounter.RDMA_MENDS_ONTO_PRE_CONNECTED, rdmaCounters.mendsOntoPreConnected());
        counters.set(NodeCounter.RDMA_MENDS_AWAITING_CONNECTION, rdmaCounters.mendsAwaitingConnection());
        // the same String object until the next error: a reference check, no volatile store per cycle
        final String error = rdma.lastError();
        if (error != lastError)
        {
            lastError = error;
        }
    }

    /**
     * {@inheritDoc}
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * {@inheritDoc}
     */
    public int slotRkey()
    {
        return slot.rkey();
    }

    /**
     * {@inheritDoc}
     */
    public long slotAddress()
    {
        return slot.address();
    }

    /**
     * {@inheritDoc}
     */
    public int slotLength()
    {
        return slot.length();
    }

    /**
     * @return the RDMA heartbeats, for diagnostics and tests.
     */
    public RdmaHeartbeats rdma()
    {
        return rdma;
    }

    /**
     * {@inheritDoc}
     */
    public void close()
    {
        rdma.close();
    }
}
