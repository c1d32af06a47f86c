package io.ringwatch.core.protocol;

/**
 * Remembers the most recent broadcast ids (source, incarnation, sequence) so each broadcast is forwarded
 * once. Forwarding is per broadcast, not per dead rank: a second observer re-announcing the same death
 * (paper 002, Lemma 2) starts a new broadcast whose disjoint paths must all be walked.
 * <p>
 * Bounded and allocation-free: the oldest id is overwritten. Notices are rare, so a linear scan is cheap.
 */
public final class BroadcastIdSet
{
    private final long[] origins;
    private final long[] sequences;
    private int next;
    private int size;

    /**
     * @param capacity broadcast ids remembered; the oldest is forgotten first.
     */
    public BroadcastIdSet(final int capacity)
    {
        origins = new long[capacity];
        sequences = new long[capacity];
    }

    /**
     * @param sourceRank        the broadcast's source.
     * @param sourceIncarnation its incarnation.
     * @param sequence          its per-source sequence.
     * @return true if the id was not remembered (and now is).
     */
    public boolean addIfAbsent(final int sourceRank, final int sourceIncarnation, final long sequence)
    {
        final long origin = ((long)sourceRank << 32) | (sourceIncarnation & 0xFFFF_FFFFL);
        for (int i = 0; i < size; i++)
        {
            if (sequences[i] == sequence && origins[i] == origin)
            {
                return false;
            }
        }
        origins[next] = origin;
        sequences[next] = sequence;
        next = (next + 1) % origins.length;
        size = Math.min(size + 1, origins.length);
        return true;
    }
}
