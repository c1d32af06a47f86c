package io.ringwatch.core.spi;

/**
 * Heartbeats as shared memory: the emitter deposits a counter in its observer's slot (RDMA WRITE, a
 * shared-memory store, or a UDP frame the receiver copies in) and the observer reads the slot each duty cycle.
 * There is no callback on arrival; that is what lets every transport share the same core.
 */
public interface HeartbeatChannel
{
    /**
     * Value {@link #readHeartbeat(int)} returns when the slot holds nothing from that emitter.
     */
    long NO_HEARTBEAT = -1L;

    /**
     * Deposit a heartbeat counter into the slot of {@code observerRank}. Must not block.
     *
     * @param observerRank whose slot to write.
     * @param counter      monotonically increasing per emitter, starting at 1.
     */
    void writeHeartbeat(int observerRank, long counter);

    /**
     * Read this node's own slot.
     *
     * @param emitterRank the emitter this node currently watches.
     * @return the latest counter written by {@code emitterRank}, or {@link #NO_HEARTBEAT} if the slot was last
     * written by someone else or never.
     */
    long readHeartbeat(int emitterRank);
}
