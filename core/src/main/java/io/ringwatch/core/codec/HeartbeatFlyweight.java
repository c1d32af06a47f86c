package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * HEARTBEAT: the emitter's counter, carried to its observer when heartbeats travel as frames (Aeron UDP)
 * rather than as RDMA or shared-memory stores. The sender is the emitter.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 1)               |
 *  +---------------------------------------------------------------+
 *  |                            Counter                            |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Emitter Timestamp (ns)                    |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * The counter starts at 1 and grows by one per heartbeat. The timestamp is the emitter's clock, informational
 * only: clocks of different hosts are never compared by the protocol. The destination is the observer. The counter
 * says nothing about freshness to an eavesdropper's replay (a stale counter still differs from the last one seen):
 * the frame sequence does, checked by {@link ReplayGuard}.
 */
public final class HeartbeatFlyweight extends TwoWordFlyweight
{
    /** Total length of a heartbeat frame, MAC included. */
    public static final int LENGTH = TwoWordFlyweight.LENGTH;

    /**
     * A flyweight for HEARTBEAT frames; wrap or encode before use.
     */
    public HeartbeatFlyweight()
    {
        super(HEARTBEAT_TYPE);
    }

    public HeartbeatFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete heartbeat frame, unstamped: frame sequence, run id and MAC zero until {@link FrameStamper#stamp}.
     *
     * @param buffer             destination.
     * @param offset             at which the frame begins.
     * @param clusterId          cluster the frame belongs to.
     * @param senderRank         the emitter.
     * @param senderIncarnation  the emitter's incarnation.
     * @param destinationRank    the observer.
     * @param configDigest       the emitter's {@link ConfigDigest}.
     * @param counter            heartbeat counter, at least 1.
     * @param emitterTimestampNs emitter's clock at sending.
     * @return {@link #LENGTH}, or {@link #INSUFFICIENT_CAPACITY} if the frame does not fit.
     */
    public int encode(
        final MutableDirectBuffer buffer,
        final int offset,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest,
        final long counter,
        final long emitterTimestampNs)
    {
        return encodeWords(buffer, offset, clusterId, senderRank, senderIncarnation, destinationRank, configDigest,
            counter, emitterTimestampNs);
    }

    /**
     * @return counter field.
     */
    public long counter()
    {
        return first();
    }

    /**
     * @param counter field value.
     * @return this for a fluent API.
     */
    public HeartbeatFlyweight counter(final long counter)
    {
        first(counter);
        return this;
    }

    /**
     * @return emitter timestamp field, nanoseconds of the emitter's clock.
     */
    public long emitterTimestampNs()
    {
        return second();
    }

    /**
     * @param emitterTimestampNs field value.
     * @return this for a fluent API.
     */
    public HeartbeatFlyweight emitterTimestampNs(final long emitterTimestampNs)
    {
        second(emitterTimestampNs);
        return this;
    }
}
