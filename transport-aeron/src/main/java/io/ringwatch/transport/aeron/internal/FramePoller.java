package io.ringwatch.transport.aeron.internal;

import io.aeron.logbuffer.FragmentHandler;

/**
 * Where the agent polls frames from: an Aeron {@code Subscription} ({@code subscription::poll}) or the UDP heartbeat
 * socket ({@link io.ringwatch.transport.aeron.internal.slot.DatagramHeartbeats#poll}).
 */
@FunctionalInterface
public interface FramePoller
{
    /**
     * @param handler       called once per frame, on this thread.
     * @param fragmentLimit most frames to hand over, as the source counts them.
     * @return frames handed over.
     */
    int poll(FragmentHandler handler, int fragmentLimit);
}
