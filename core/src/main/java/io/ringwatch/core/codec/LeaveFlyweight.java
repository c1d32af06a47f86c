package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * LEAVE: a graceful departure, sent by the leaving node to its observer, which then announces it without waiting
 * for a timeout. The frame is the header and the MAC; the sender is the leaving node, the destination its observer.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 4)               |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * Encoded by {@link #encode}: sender the leaving node with its incarnation, destination its observer.
 */
public final class LeaveFlyweight extends HeaderOnlyFlyweight
{
    /** Total length of a leave frame, MAC included. */
    public static final int LENGTH = HeaderOnlyFlyweight.LENGTH;

    /**
     * A flyweight for LEAVE frames; wrap or encode before use.
     */
    public LeaveFlyweight()
    {
        super(LEAVE_TYPE);
    }

    /**
     * {@inheritDoc}
     */
    public LeaveFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }
}
