/**
 * Wire frames as little-endian flyweights over Agrona buffers: HEARTBEAT, NEW_OBSERVER, FAILURE_NOTICE, LEAVE, each
 * ending with a MAC.
 * <p>
 * Senders use the {@code encode} helper of each flyweight, which checks capacity and returns the frame length or a
 * negative code, then hand the frame to their node's {@link io.ringwatch.core.codec.FrameStamper} just before it
 * goes out: it writes the frame sequence for the destination and the MAC ({@link
 * io.ringwatch.core.codec.FrameAuthenticator}). Receivers hand every frame to a {@link
 * io.ringwatch.core.codec.FrameDecoder}, which checks the MAC before reading anything, then every field, the
 * {@link io.ringwatch.core.codec.ConfigDigest} and freshness ({@link io.ringwatch.core.codec.ReplayGuard}), and
 * returns a {@link io.ringwatch.core.codec.RejectReason} to count when the frame is dropped. Neither side allocates
 * once warm.
 */
package io.ringwatch.core.codec;
