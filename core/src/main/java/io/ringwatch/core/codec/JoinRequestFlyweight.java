package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * JOIN_REQUEST: a restarted node asks a contact to admit it. The frame is the header and the MAC; the sender is the
 * joiner, its incarnation in the header is the new one it asks to be admitted under, the destination the contact.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (32 bytes, type 17)              |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * Encoded by {@link #encode}: sender the joiner with the incarnation it asks for, destination the contact.
 */
public final class JoinRequestFlyweight extends HeaderOnlyFlyweight
{
    /** Total length of a join request, MAC included. */
    public static final int LENGTH = HeaderOnlyFlyweight.LENGTH;

    /**
     * A flyweight for JOIN_REQUEST frames; wrap or encode before use.
     */
    public JoinRequestFlyweight()
    {
        super(JOIN_REQUEST_TYPE);
    }

    /**
     * {@inheritDoc}
     */
    public JoinRequestFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }
}
