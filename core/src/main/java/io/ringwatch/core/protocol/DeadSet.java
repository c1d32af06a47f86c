package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * A node's D: dead ranks as a sorted int array. Sized by failures, not by N, so a simulator can hold 256k
 * of them; lookups are O(log f). It only grows when a failure is learned, never in steady state.
 */
public final class DeadSet implements RankSet
{
    private int[] ranks;
    private int size;

    /**
     * @param initialCapacity slots before the first growth.
     */
    public DeadSet(final int initialCapacity)
    {
        ranks = new int[Math.max(1, initialCapacity)];
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
     * @param rank to add.
     * @return true if it was not already present.
     */
    public boolean add(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        if (i >= 0)
        {
            return false;
        }
        final int at = -(i + 1);
        if (size == ranks.length)
        {
            ranks = Arrays.copyOf(ranks, ranks.length * 2);
        }
        System.arraycopy(ranks, at, ranks, at + 1, size - at);
        ranks[at] = rank;
        size++;
        return true;
    }

    public String toString()
    {
        return Arrays.toString(Arrays.copyOf(ranks, size));
    }
}
