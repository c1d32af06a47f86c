package io.ringwatch.core.protocol;

/**
 * The contact's nonces for a challenge–response join. A JOIN_REQUEST carries a valid MAC whenever a key holder made
 * it, in this run of the cluster or an earlier one with the same key, and a newer incarnation than the contact holds
 * is no proof that the life it holds alive has ended: a recording replayed later would get a live rank declared dead.
 * So before it acts on such a request the contact sends the joiner a nonce ({@code JOIN_CHALLENGE}) and acts only on a
 * {@code JOIN_PROOF} that returns it under the same rank and incarnation: only a process running now, holding the
 * key, can sign that. A replayed request's challenge goes to the live process of the rank, which did not ask and
 * ignores it.
 * <p>
 * No table: a nonce is a keyed hash of the joiner's rank and incarnation and the current slot of time (δ long) under
 * a 64-bit secret of this node's, so any number of joiners may be challenged at once and a flood of requests evicts
 * nothing. A proof is taken in the slot of its challenge and the next, between δ and 2δ after it. The secret comes
 * from the driver (random per process live, {@link #secret(long)}; derived from rank and incarnation otherwise, as
 * the simulator needs nothing more): core draws no random numbers. Under a secret drawn at random the nonce of any
 * (rank, incarnation, slot) is uniform over 2⁶⁴, so a proof recorded in another run, or under another life of this
 * node, matches with chance 2⁻⁶⁴. The hash need not be cryptographic: knowing a nonce in advance gains nothing
 * without the key that signs the proof.
 */
final class JoinChallenge
{
    private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;

    private final long slotNs;
    private final int rank;
    private final long incarnation;
    private long secret;

    /**
     * @param slotNs      how long a nonce is drawn the same: δ.
     * @param rank        this node's rank, for the default secret.
     * @param incarnation this node's incarnation, for the default secret.
     */
    JoinChallenge(final long slotNs, final int rank, final long incarnation)
    {
        this.slotNs = slotNs;
        this.rank = rank;
        this.incarnation = incarnation;
        this.secret = SplitMix.mix(SplitMix.mix(rank * GOLDEN_GAMMA) ^ incarnation);
    }

    /**
     * @param secret this process's secret, drawn at random by its driver.
     */
    void secret(final long secret)
    {
        this.secret = secret;
    }

    /**
     * @return the nonce for a joiner's challenge now; never 0, which a request without a proof carries.
     */
    long nonce(final int joiner, final long joinerIncarnation, final long nowNs)
    {
        return nonceIn(joiner, joinerIncarnation, Math.floorDiv(nowNs, slotNs));
    }

    /**
     * @return true if {@code token} is the nonce this node drew for that joiner's rank and incarnation in this slot or
     * the one before.
     */
    boolean proves(final int joiner, final long joinerIncarnation, final long token, final long nowNs)
    {
        if (token == 0)
        {
            return false;
        }
        final long slot = Math.floorDiv(nowNs, slotNs);
        return token == nonceIn(joiner, joinerIncarnation, slot) ||
            token == nonceIn(joiner, joinerIncarnation, slot - 1);
    }

    /**
     * This node's own nonce as a joiner, for its JOIN_REQUEST (and, low bit aside, its re-form poll's token): drawn as
     * a contact's nonce for this node's own rank and incarnation, which no contact of this process ever challenges.
     *
     * @return the nonce for an ask now.
     */
    long ownNonce(final long nowNs)
    {
        return nonce(rank, incarnation, nowNs);
    }

    /**
     * @return true if a challenge returned {@code echoed}, this node's own nonce of this slot or the one before (its
     * low bit aside, which a re-form poll's token uses): a challenge to this node's own ask, not one replayed from
     * another run.
     */
    boolean returnsOwn(final long echoed, final long nowNs)
    {
        final long slot = Math.floorDiv(nowNs, slotNs);
        return (echoed | 1) == (nonceIn(rank, incarnation, slot) | 1) ||
            (echoed | 1) == (nonceIn(rank, incarnation, slot - 1) | 1);
    }

    private long nonceIn(final int joiner, final long joinerIncarnation, final long slot)
    {
        // each step a bijection of the one before: for fixed inputs, a uniform secret gives a uniform nonce
        final long perJoiner = SplitMix.mix(SplitMix.mix(secret ^ joiner) + joinerIncarnation);
        final long nonce = SplitMix.mix(perJoiner + slot * GOLDEN_GAMMA);
        return nonce == 0 ? 1 : nonce;
    }
}
