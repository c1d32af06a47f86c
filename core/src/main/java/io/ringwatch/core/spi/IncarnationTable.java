package io.ringwatch.core.spi;


import java.util.Arrays;

/**
 * A mutable {@link RankIncarnations}: two parallel sorted arrays holding only ranks whose incarnation is above the
 * boot incarnation 0. Storage is sized by the ranks that ever rejoined, never by N, and grows only when more ranks
 * have rejoined than ever before, so updates in steady state allocate nothing.
 */
public final class IncarnationTable implements RankIncarnations
{
    private int[] ranks;
    private long[] incarnations;
    private int size;

    /**
     * @param initialCapacity entries held before the first growth.
     */
    public IncarnationTable(final int initialCapacity)
    {
        ranks = new int[Math.max(1, initialCapacity)];
        incarnations = new long[ranks.length];
    }

    /**
     * @param source entries to copy.
     * @return a table holding exactly them.
     */
    public static IncarnationTable copyOf(final RankIncarnations source)
    {
        final IncarnationTable table = new IncarnationTable(source.size());
        table.copyFrom(source);
        return table;
    }

    public int size()
    {
        return size;
    }

    public int rankAt(final int index)
    {
        checkIndex(index);
        return ranks[index];
    }

    public long incarnationAt(final int index)
    {
        checkIndex(index);
        return incarnations[index];
    }

    public long incarnationOf(final int rank)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        return i >= 0 ? incarnations[i] : 0;
    }

    /**
     * Record {@code incarnation} for {@code rank} if it is newer than the one held: incarnations only grow.
     *
     * @param rank        a rank.
     * @param incarnation its incarnation.
     * @return true if the table changed.
     */
    public boolean raise(final int rank, final long incarnation)
    {
        final int i = Arrays.binarySearch(ranks, 0, size, rank);
        if (i >= 0)
        {
            if (incarnation <= incarnations[i])
            {
                return false;
            }
            incarnations[i] = incarnation;
            return true;
        }
        if (incarnation <= 0)
        {
            return false;
        }
        final int at = -(i + 1);
        if (size == ranks.length)
        {
            ranks = Arrays.copyOf(ranks, 2 * size);
            incarnations = Arrays.copyOf(incarnations, 2 * size);
        }
        System.arraycopy(ranks, at, ranks, at + 1, size - at);
        System.arraycopy(incarnations, at, incarnations, at + 1, size - at);
        ranks[at] = rank;
        incarnations[at] = incarnation;
        size++;
        return true;
    }

    /**
     * Empty the table, keeping its storage.
     */
    public void clear()
    {
        size = 0;
    }

    /**
     * Replace the entries with those of {@code source}.
     *
     * @param source entries, ranks ascending by contract.
     */
    public void copyFrom(final RankIncarnations source)
    {
        final int count = source.size();
        if (count > ranks.length)
        {
            ranks = new int[count];
            incarnations = new long[count];
        }
        for (int i = 0; i < count; i++)
        {
            ranks[i] = source.rankAt(i);
            incarnations[i] = source.incarnationAt(i);
        }
        size = count;
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " not in [0, " + size + ")");
        }
    }

    public String toString()
    {
        final StringBuilder sb = new StringBuilder().append('{');
        for (int i = 0; i < size; i++)
        {
            sb.append(i == 0 ? "" : ", ").append(ranks[i]).append('=').append(incarnations[i]);
        }
        return sb.append('}').toString();
    }
}
