package io.ringwatch.core.sim;

/**
 * What the majority rule must make of a partition, from its groups alone: which nodes are on a side without a
 * majority (and must stop), and which nodes cannot hear beyond their group while it lasts (and must accuse nobody
 * there).
 */
final class PartitionOutcome
{
    private PartitionOutcome()
    {
    }

    /**
     * Two-way: every group but the one holding a strict majority, or exactly half with rank 0, loses; with no such
     * group all lose. One-way: group 0 (which hears nobody) loses unless it is itself such a majority, the others
     * hear each other and group 0.
     *
     * @param partition the partition.
     * @param groups    group of each rank.
     * @return per rank, whether it is on a losing side.
     */
    static boolean[] losingNodes(final Partition partition, final int[] groups)
    {
        final int n = groups.length;
        final int[] sizes = partition.groupSizes();
        final boolean[] losing = new boolean[n];
        if (partition.oneWay())
        {
            final boolean groupZeroWins = wins(sizes[0], n, groups[0] == 0);
            for (int rank = 0; rank < n; rank++)
            {
                losing[rank] = groups[rank] == 0 && !groupZeroWins;
            }
            return losing;
        }
        for (int rank = 0; rank < n; rank++)
        {
            final int g = groups[rank];
            losing[rank] = !wins(sizes[g], n, groups[0] == g);
        }
        return losing;
    }

    private static boolean wins(final int size, final int n, final boolean holdsRankZero)
    {
        return 2L * size > n || (2L * size == n && holdsRankZero);
    }

    /**
     * @param partition the partition.
     * @param groups    group of each rank.
     * @param accuser   the node that declared a death on its own.
     * @param accused   the rank it declared.
     * @param timeNs    when.
     * @return true if the accuser could hear nobody outside its group at that time (it is the one-way partition's
     * group 0, or alone in its group) and accused a rank outside it.
     */
    static boolean accusesWhileDeaf(
        final Partition partition, final int[] groups, final int accuser, final int accused, final long timeNs)
    {
        if (timeNs < partition.startNs() || timeNs >= partition.endNs() || groups[accuser] == groups[accused])
        {
            return false;
        }
        final int g = groups[accuser];
        return partition.oneWay() ? g == 0 : partition.groupSizes()[g] == 1;
    }

    /**
     * @param losing    per rank, whether it must stop.
     * @param stoppedNs per rank, when it stopped, or -1.
     * @param startNs   when the partition started.
     * @return from the start to the last losing node stopping, or -1 if none loses or one is still running.
     */
    static long lastStopNs(final boolean[] losing, final long[] stoppedNs, final long startNs)
    {
        long last = -1;
        for (int rank = 0; rank < losing.length; rank++)
        {
            if (losing[rank])
            {
                if (stoppedNs[rank] < 0)
                {
                    return -1;
                }
                last = Math.max(last, stoppedNs[rank] - startNs);
            }
        }
        return last;
    }
}
