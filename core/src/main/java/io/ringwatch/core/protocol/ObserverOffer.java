package io.ringwatch.core.protocol;

/**
 * A NEW_OBSERVER from a farther successor than the one this node's view names, held until the view agrees.
 * <p>
 * The observer of a dead rank learns the death first (it declared it) and adopts the dead rank's predecessor at once,
 * so its NEW_OBSERVER may overtake the notice. Taking it then would be right; taking it whenever it comes would let a
 * NEW_OBSERVER recorded in an earlier life of the ring (replayed, or merely late) steer this node's heartbeats away
 * from its real observer, which would then find this node silent. So the node takes a NEW_OBSERVER only from its
 * nearest live successor, and keeps one offer from a farther rank (the latest, with its slot descriptor) until the
 * deaths between reach its view; an offer whose sender's life the view has since replaced or buried is dropped.
 * Allocation free.
 */
final class ObserverOffer
{
    private static final int NONE = -1;

    private int rank = NONE;
    private long incarnation;
    private int rkey;
    private long address;
    private int length;

    /**
     * Keep an offer, replacing any earlier one.
     */
    void hold(final int rank, final long incarnation, final int rkey, final long address, final int length)
    {
        this.rank = rank;
        this.incarnation = incarnation;
        this.rkey = rkey;
        this.address = address;
        this.length = length;
    }

    /**
     * @param successor this node's nearest live successor in its view now.
     * @return true if the offer held comes from it.
     */
    boolean isFrom(final int successor)
    {
        return rank != NONE && rank == successor;
    }

    /**
     * @return the offering rank, -1 if none.
     */
    int rank()
    {
        return rank;
    }

    long incarnation()
    {
        return incarnation;
    }

    int rkey()
    {
        return rkey;
    }

    long address()
    {
        return address;
    }

    int length()
    {
        return length;
    }

    void clear()
    {
        rank = NONE;
    }
}
