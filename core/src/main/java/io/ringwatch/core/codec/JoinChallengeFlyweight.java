package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

/**
 * JOIN_CHALLENGE: a contact's answer to a JOIN_REQUEST it will not act on yet. It carries the contact's fresh nonce,
 * which the joiner must return in a JOIN_PROOF, and the joiner's own nonce from the request, returned so the joiner
 * can tell a challenge to its own ask from one replayed from another run. The header's run id is the contact's run:
 * the joiner binds itself to it only when the joiner's nonce is its own.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Frame Header (44 bytes, type 22)              |
 *  +---------------------------------------------------------------+
 *  |                         Contact Nonce                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                         Joiner Nonce                          |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        MAC (16 bytes)                         |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class JoinChallengeFlyweight extends TwoWordFlyweight
{
    /** Total length of a join challenge, MAC included. */
    public static final int LENGTH = TwoWordFlyweight.LENGTH;

    /**
     * A flyweight for JOIN_CHALLENGE frames; wrap or encode before use.
     */
    public JoinChallengeFlyweight()
    {
        super(JOIN_CHALLENGE_TYPE);
    }

    public JoinChallengeFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        super.wrap(buffer, offset);
        return this;
    }

    /**
     * Write a complete join challenge, unstamped: frame sequence, run id and MAC zero until
     * {@link FrameStamper#stamp}.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        the contact.
     * @param senderIncarnation its incarnation.
     * @param destinationRank   the joiner.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @param nonce             the contact's nonce, never 0.
     * @param joinerNonce       the nonce the joiner's request carried.
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
        final long nonce,
        final long joinerNonce)
    {
        return encodeWords(buffer, offset, clusterId, senderRank, senderIncarnation, destinationRank, configDigest,
            nonce, joinerNonce);
    }

    /**
     * @return the contact's nonce.
     */
    public long nonce()
    {
        return first();
    }

    /**
     * @return the joiner's nonce, as its request carried it.
     */
    public long joinerNonce()
    {
        return second();
    }
}
