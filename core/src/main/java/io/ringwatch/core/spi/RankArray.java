package io.ringwatch.core.spi;

import java.util.Arrays;

/**
 * A mutable {@link RankSet} over a sorted {@code int[]}: lookups are a binary search, storage is sized by the
 * members, not by N. The array grows only when a set larger than any before is stored, and never past
 * {@link #maxCapacity()}, so a node's D or a decoder's reused notice allocate nothing in steady state.
 */
public final class RankArray implements RankSet
{
    private static final int TO_STRING_LIMIT = 32;

    private final int maxCapacity;
    private int[] ranks;
    private int size;

    /**
     * @param initialCapacity ranks held before the first growth.
     */
    public RankArray(final int initialCapacity)
    {
        this(initialCapacity, Integer.MAX_VALUE);
    }

    /**
     * @param initialCapacity ranks held before the first growth; clamped to {@code [1, maxCapacity]}.
     * @param maxCapacity     most ranks the set may ever hold, e.g. the cluster size.
     */
    public RankArray(final int initialCapacity, final int maxCapacity)
    {
        if (maxCapacity < 1)
        {
            throw new IllegalArgumentException("maxCapacity must be positive: " + maxCapacity);
        }
        this.maxCapacity = maxCapacity;
        this.ranks = new int[Math.max(1, Math.min(initialCapacity, maxCapacity))];
    }

    /**
     * @param ranks members, any order, no duplicates.
     * @return a set holding exactly {@code ranks}, with no spare capacity.
     * @throws IllegalArgumentException if a rank repeats.
     */
    public static RankArray of(final int... ranks)
    {
        final RankArray set = new RankArray(ranks.length);
        for (final int rank : ranks)
        {
            if (!set.add(rank))
            {
                throw new IllegalArgumentException("duplicate rank " + rank);
            }
        }
        return set;
    }

    /**
     * @param source set to copy.
     * @return a set holding the members of {@code source}, with no spare capacity.
     */
    public static RankArray copyOf(final RankSet source)
    {
        final RankArray set = new RankArray(source.size());
        set.copyFrom(source);
        return set;
    }

    public int size()
    {
        return size;
    }

    public int rankAt(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " not in [0, " + size + ")");
        }
        return ranks[index];
    }

    public boolean contains(final int rank)
    {
        return Arrays.binarySearch(ranks, 0, size, rank) >= 0;
    }

    public int countBelow(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        return i >= 0 ? i : -(i + 1);
    }

    /**
     * @return ranks the set can hold without growing.
     */
    public int capacity()
    {
        return ranks.length;
    }

    /**
     * @return most ranks the set may ever hold.
     */
    public int maxCapacity()
    {
        return maxCapacity;
    }

    /**
     * @param rank to add, kept in order.
     * @return true if it was not already present.
     * @throws IllegalStateException if the set is full at {@link #maxCapacity()}.
     */
    public boolean add(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        if (i >= 0)
        {
            return false;
        }
        final int at = -(i + 1);
        ensureCapacity(size + 1);
        System.arraycopy(ranks, at, ranks, at + 1, size - at);
        ranks[at] = rank;
        size++;
        return true;
    }

    /**
     * @param rank to remove.
     * @return true if it was present.
     */
    public boolean remove(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        if (i < 0)
        {
            return false;
        }
        System.arraycopy(ranks, i + 1, ranks, i, size - i - 1);
        size--;
        return true;
    }

    /**
     * Empty the set, keeping its storage.
     */
    public void clear()
    {
        size = 0;
    }

    /**
     * Grow, if needed, so that {@code capacity} ranks fit without further allocation. Decoders call this once
     * per message before appending, so the appends themselves never allocate.
     *
     * @param capacity ranks that must fit.
     * @throws IllegalStateException if {@code capacity} exceeds {@link #maxCapacity()}.
     */
    public void ensureCapacity(final int capacity)
    {
        if (capacity > ranks.length)
        {
            if (capacity > maxCapacity)
            {
                throw new IllegalStateException("set of " + capacity + " exceeds the maximum " + maxCapacity);
            }
            final int newLength = (int)Math.min(maxCapacity, Math.max(capacity, 2L * ranks.length));
            ranks = size == 0 ? new int[newLength] : Arrays.copyOf(ranks, newLength);
        }
    }

    /**
     * Append {@code first, first + 1, ..., first + length - 1}. Runs must come in ascending order, each above
     * the current largest member, as a validated run-length decode delivers them.
     *
     * @param first  lowest rank of the run.
     * @param length ranks in the run, at least 0.
     * @throws IllegalArgumentException if the run does not lie above every member.
     */
    public void appendRun(final int first, final int length)
    {
        if (size > 0 && first <= ranks[size - 1])
        {
            throw new IllegalArgumentException("run at " + first + " not above largest rank " + ranks[size - 1]);
        }
        ensureCapacity(size + length);
        final int[] ranks = this.ranks;
        int size = this.size;
        for (int i = 0; i < length; i++)
        {
            ranks[size++] = first + i;
        }
        this.size = size;
    }

    /**
     * Replace the members with the ranks of {@code runs}, growing once, before the appends, so that they never
     * allocate. The runs must be validated first: ascending, each non-empty, disjoint and inside the set's maximum, as
     * a decoder establishes before it believes a frame.
     *
     * @param runs validated runs, ascending.
     * @throws IllegalArgumentException if a run does not lie above the previous one.
     * @throws IllegalStateException    if the runs hold more than {@link #maxCapacity()} ranks.
     */
    public void setRuns(final RankRuns runs)
    {
        final int rangeCount = runs.rangeCount();
        long total = 0;
        for (int i = 0; i < rangeCount; i++)
        {
            total += runs.rangeLength(i);
        }
        clear();
        ensureCapacity((int)Math.min(Integer.MAX_VALUE, total));
        for (int i = 0; i < rangeCount; i++)
        {
            appendRun(runs.rangeFirstRank(i), runs.rangeLength(i));
        }
    }

    /**
     * Replace the members with those of {@code source}.
     *
     * @param source set to copy; its ranks are ascending by contract.
     */
    public void copyFrom(final RankSet source)
    {
        final int count = source.size();
        clear();
        ensureCapacity(count);
        for (int i = 0; i < count; i++)
        {
            ranks[i] = source.rankAt(i);
        }
        size = count;
    }

    public String toString()
    {
        final StringBuilder sb = new StringBuilder().append('[');
        final int shown = Math.min(size, TO_STRING_LIMIT);
        for (int i = 0; i < shown; i++)
        {
            sb.append(i == 0 ? "" : ", ").append(ranks[i]);
        }
        if (shown < size)
        {
            sb.append(", ... ").append(size).append(" ranks");
        }
        return sb.append(']').toString();
    }
}
