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

    /**
     * Value {@link #lastWriter()} returns when nobody has written this node's slot.
     */
    int NO_WRITER = -1;

    /**
     * @return the rank that last wrote this node's own slot, or {@link #NO_WRITER}: lets the protocol fence a rank it
     * holds dead that still beats into the slot, as a node does when it resumes from a long pause.
     */
    int lastWriter();

    /**
     * A heartbeat frame from {@code writerRank} reached this node, on a transport that carries heartbeats as
     * messages: copy it into this node's slot, playing the part of the remote store. The protocol calls this only
     * after checking that the writer is alive in its view.
     *
     * @param writerRank  the emitter that sent the frame.
     * @param incarnation its incarnation.
     * @param counter     its heartbeat counter.
     * @param timestampNs its clock when it sent the frame.
     * @return false if this transport's slot is written remotely (shared memory, RDMA) and takes no frames.
     */
    default boolean deposit(final int writerRank, final long incarnation, final long counter, final long timestampNs)
    {
        return false;
    }

    /**
     * A NEW_OBSERVER frame from {@code observerRank} carries where that observer's slot is to be written (RDMA: the
     * registered slot's remote key, address and length; zeros on transports that need none). The protocol calls this
     * after it has admitted the frame (sender alive in its view, addressed to this node) and before it adopts the new
     * observer, so a transport can refuse a descriptor it cannot write to and the node keeps its current observer.
     *
     * @param observerRank the frame's sender, about to become this node's observer.
     * @param rkey         remote key of the observer's slot.
     * @param address      address of the observer's slot.
     * @param length       registered length of the observer's slot.
     * @param nowNs        protocol time.
     * @return false to have the frame dropped (counted by the protocol); true by default.
     */
    default boolean acceptObserver(
        final int observerRank, final int rkey, final long address, final int length, final long nowNs)
    {
        return true;
    }
}
