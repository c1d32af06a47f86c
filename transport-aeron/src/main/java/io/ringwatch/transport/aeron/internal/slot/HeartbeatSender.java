package io.ringwatch.transport.aeron.internal.slot;



/**
 * Sends one heartbeat frame towards an observer on another host. Must not block; a frame that cannot go now is
 * dropped and counted, since the next one is at most η away.
 */
@FunctionalInterface
public interface HeartbeatSender
{
    /**
     * @param observerRank destination.
     * @param counter      heartbeat counter.
     * @param timestampNs  emitter's clock.
     * @return true if the frame was handed to the transport.
     */
    boolean send(int observerRank, long counter, long timestampNs);
}
