/**
 * Wire frames as little-endian flyweights over Agrona buffers: HEARTBEAT, NEW_OBSERVER, FAILURE_NOTICE, LEAVE.
 * <p>
 * Senders use the {@code encode} helper of each flyweight, which checks capacity and returns the frame length or a
 * negative code. Receivers hand every frame to a {@link io.ringwatch.core.codec.FrameDecoder}, which validates
 * every field and returns a {@link io.ringwatch.core.codec.RejectReason} to count when the frame is dropped.
 * Neither side allocates once warm.
 */
package io.ringwatch.core.codec;
