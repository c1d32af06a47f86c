package io.ringwatch.core.protocol;

import java.util.Arrays;

/**
 * Remembers the most recent broadcast ids (source, incarnation, sequence) so each broadcast is forwarded
 * once. Forwarding is per broadcast, not per dead rank: a second observer re-announcing the same death
 * (paper 002, Lemma 2) starts a new broadcast whose disjoint paths must all be walked.
 * <p>
 * Bounded: the oldest id is overwritten once the capacity is reached. Notices are rare, so a linear scan is cheap.
 * Ids are held as (rank, incarnation, sequence) triples in one array, so a scan reads a cache line per two or three
 * ids; the array grows by doubling up to the capacity as ids come, so a node that hears few broadcasts holds few (a
 * million-node simulation could not hold the full capacity for every node). After that, no allocation.
 */
public final class BroadcastIdSet
{
    private static final int INITIAL_IDS = 4;
    private static final int STRIDE = 3;

    private final int capacity;
    private long[] ids;
    private int next;
    private int size;

    /**
     * @param capacity broadcast ids remembered; the oldest is forgotten first.
     */
    public BroadcastIdSet(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        this.capacity = capacity;
        ids = new long[STRIDE * Math.min(capacity, INITIAL_IDS)];
    }

    /**
     * @param sourceRank        the broadcast's source.
     * @param sourceIncarnation its incarnation.
     * @param sequence          its per-source sequence.
     * @return true if the id was not remembered (and now is).
     */
    public boolean addIfAbsent(final int sourceRank, final long sourceIncarnation, final long sequence)
    {
        final long[] ids = this.ids;
        for (int i = 0, end = STRIDE * size; i < end; i += STRIDE)
        {
            if (ids[i + 2] == sequence && ids[i + 1] == sourceIncarnation && ids[i] == sourceRank)
            {
                return false;
            }
        }
        if (STRIDE * next == ids.length)
        {
            // not yet full: until then next == size, so growing keeps every id where it is
            this.ids = Arrays.copyOf(ids, STRIDE * Math.min(capacity, 2 * next));
        }
        final int at = STRIDE * next;
        this.ids[at] = sourceRank;
        this.ids[at + 1] = sourceIncarnation;
        this.ids[at + 2] = sequence;
        next = (next + 1) % capacity;
        size = Math.min(size + 1, capacity);
        return true;
    }
}
