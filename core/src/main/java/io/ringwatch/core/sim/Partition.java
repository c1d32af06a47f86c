package io.ringwatch.core.sim;

import java.util.Arrays;

/**
 * A network partition: for a while the cluster splits into groups that cannot reach each other, then heals.
 * <p>
 * Groups are given by size. Placed contiguously on the ring (group 0 holds ranks 0..s₀−1 shifted by a random
 * offset, and so on), they model a cut between racks or switches; placed at random, hosts scattered over the
 * ring. One-way partitions model a receive-side fault: group 0 can still send to the others, but hears nothing
 * from them (the others hear group 0 and cannot reach it).
 *
 * @param startNs         when the cut starts.
 * @param durationNs      how long it lasts; the network heals at {@code startNs + durationNs}.
 * @param groupSizes      sizes of the groups, summing to the cluster size.
 * @param randomPlacement true to scatter the groups over the ring, false for contiguous segments.
 * @param oneWay          true if only messages into group 0 are lost.
 */
public record Partition(long startNs, long durationNs, int[] groupSizes, boolean randomPlacement, boolean oneWay)
{
    /**
     * Validates what does not depend on the cluster.
     */
    public Partition
    {
        if (startNs < 0 || durationNs <= 0)
        {
            throw new IllegalArgumentException(
                "a partition needs start >= 0 and duration > 0: start=" + startNs + "ns duration=" + durationNs + "ns");
        }
        if (groupSizes == null || groupSizes.length < 2)
        {
            throw new IllegalArgumentException("a partition needs at least two groups");
        }
        for (final int size : groupSizes)
        {
            if (size < 1)
            {
                throw new IllegalArgumentException("every group needs a node: " + Arrays.toString(groupSizes));
            }
        }
        groupSizes = groupSizes.clone();
    }

    /**
     * @param k          nodes isolated, each alone.
     * @param n          cluster size.
     * @param startNs    when.
     * @param durationNs for how long.
     * @return k singleton groups at random places and the rest together.
     */
    public static Partition isolate(final int k, final int n, final long startNs, final long durationNs)
    {
        if (k < 1 || k >= n)
        {
            throw new IllegalArgumentException("isolate needs 1 <= k < nodes: k=" + k + " nodes=" + n);
        }
        final int[] sizes = new int[k + 1];
        Arrays.fill(sizes, 1);
        sizes[k] = n - k;
        return new Partition(startNs, durationNs, sizes, true, false);
    }

    /**
     * @return the sum of the group sizes.
     */
    public int nodes()
    {
        int sum = 0;
        for (final int size : groupSizes)
        {
            sum += size;
        }
        return sum;
    }

    /**
     * @return the index of the largest group; the lowest index on a tie.
     */
    public int largestGroup()
    {
        int best = 0;
        for (int g = 1; g < groupSizes.length; g++)
        {
            if (groupSizes[g] > groupSizes[best])
            {
                best = g;
            }
        }
        return best;
    }

    /**
     * @return when the network heals.
     */
    public long endNs()
    {
        return startNs + durationNs;
    }

    /**
     * @return the groups as text, e.g. {@code 40:24}.
     */
    public String describe()
    {
        final StringBuilder sb = new StringBuilder();
        for (int g = 0; g < groupSizes.length; g++)
        {
            sb.append(g == 0 ? "" : ":").append(groupSizes[g]);
        }
        return sb.toString();
    }

    public boolean equals(final Object o)
    {
        return o instanceof Partition p && p.startNs == startNs && p.durationNs == durationNs &&
            Arrays.equals(p.groupSizes, groupSizes) && p.randomPlacement == randomPlacement && p.oneWay == oneWay;
    }

    public int hashCode()
    {
        return Long.hashCode(startNs) * 31 + Arrays.hashCode(groupSizes);
    }

    public String toString()
    {
        return "Partition{" + describe() + (randomPlacement ? " random" : " contiguous") + (oneWay ? " one-way" : "") +
            " at " + startNs + "ns for " + durationNs + "ns}";
    }
}
