package io.ringwatch.core.protocol;

/**
 * The last few changes of a rank's life one node broadcast (a death it detected, a JOIN it admitted as a contact) or
 * learned (a JOIN: rank, incarnation, when, and the contact with the incarnation it had), so that they can be told
 * again once a cut heals: the far side may have missed them. Fixed capacity, overwriting the oldest; allocation free
 * after the first change (made then, so a node that never changes anything holds nothing: a million-node simulation
 * could not hold them for every node).
 */
final class RecentChanges
{
    private final int capacity;
    private int[] ranks;
    private long[] incarnations;
    private long[] admittedNs;
    private long[] toldNs;
    private int[] contacts;
    private long[] contactIncarnations;
    private boolean[] joins;
    private int next;
    private int size;

    RecentChanges(final int capacity)
    {
        this.capacity = capacity;
    }

    private void allocate()
    {
        joins = new boolean[capacity];
        ranks = new int[capacity];
        incarnations = new long[capacity];
        admittedNs = new long[capacity];
        toldNs = new long[capacity];
        contacts = new int[capacity];
        contactIncarnations = new long[capacity];
    }

    /**
     * @param join               true for a JOIN, false for a death.
     * @param rank               the rank that joined or died.
     * @param incarnation        the incarnation concerned.
     * @param nowNs              when this node broadcast or learned it.
     * @param contact            the rank that broadcast it.
     * @param contactIncarnation that rank's incarnation in this node's view then.
     */
    void record(
        final boolean join,
        final int rank,
        final long incarnation,
        final long nowNs,
        final int contact,
        final long contactIncarnation)
    {
        if (joins == null)
        {
            allocate();
        }
        joins[next] = join;
        contacts[next] = contact;
        contactIncarnations[next] = contactIncarnation;
        size = Math.min(size + 1, capacity);
        ranks[next] = rank;
        incarnations[next] = incarnation;
        admittedNs[next] = nowNs;
        toldNs[next] = nowNs;
        next = next + 1 == capacity ? 0 : next + 1;
    }

    int size()
    {
        return size;
    }

    /**
     * @param i 0 for the oldest entry held.
     */
    int rankAt(final int i)
    {
        return ranks[index(i)];
    }

    long incarnationAt(final int i)
    {
        return incarnations[index(i)];
    }

    boolean isJoinAt(final int i)
    {
        return joins[index(i)];
    }

    int contactAt(final int i)
    {
        return contacts[index(i)];
    }

    long contactIncarnationAt(final int i)
    {
        return contactIncarnations[index(i)];
    }

    long admittedNsAt(final int i)
    {
        return admittedNs[index(i)];
    }

    /**
     * @return when the change was last told: first broadcast, or told again.
     */
    long toldNsAt(final int i)
    {
        return toldNs[index(i)];
    }

    void told(final int i, final long nowNs)
    {
        toldNs[index(i)] = nowNs;
    }

    private int index(final int i)
    {
        final int start = size == capacity ? next : 0;
        final int k = start + i;
        return k >= capacity ? k - capacity : k;
    }
}
