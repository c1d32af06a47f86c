package io.ringwatch.core.protocol;

import java.util.Arrays;

/**
 * Remembers the most recent broadcast ids (source, incarnation, sequence) so each broadcast is forwarded
 * once. Forwarding is per broadcast, not per dead rank: a second observer re-announcing the same death
 * (paper 002, Lemma 2) starts a new broadcast whose disjoint paths must all be walked.
 * <p>
 * Bounded: the oldest id is overwritten once the capacity is reached. Notices are rare, so a linear scan is cheap.
 * Ids are held as (origin, sequence) pairs in one array, so a scan reads one cache line per four ids; the array
 * grows by doubling up to the capacity as ids come, so a node that hears few broadcasts holds few (a
 * million-node simulation could not hold the full capacity for every node). After that, no allocation.
 */
public final class BroadcastIdSet
{
    private static final int INITIAL_IDS = 4;

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
        ids = new long[2 * Math.min(capacity, INITIAL_IDS)];
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
        final long[] ids = this.ids;
        for (int i = 0, end = 2 * size; i < end; i += 2)
        {
            if (ids[i + 1] == sequence && ids[i] == origin)
            {
                return false;
            }
        }
        if (2 * next == ids.length)
        {
            // not yet full: until then next == size, so growing keeps every id where it is
            this.ids = Arrays.copyOf(ids, 2 * Math.min(capacity, 2 * next));
        }
        this.ids[2 * next] = origin;
        this.ids[2 * next + 1] = sequence;
        next = (next + 1) % capacity;
        size = Math.min(size + 1, capacity);
        return true;
    }
}
