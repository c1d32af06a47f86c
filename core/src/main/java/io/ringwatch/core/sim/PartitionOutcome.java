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
     * group all lose. One-way: the deaf group 0 against the rest, which hear everyone: the side that is such a
     * majority wins and the other loses. A deaf group that wins declares the ranks it cannot hear, and they stop on
     * its notice though they hear it: from the deaf side a deaf ear and a cut look the same, and the cut both ways
     * must be won by that side (docs/partitions.md, "A deaf side").
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
                losing[rank] = (groups[rank] == 0) != groupZeroWins;
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
     * @param running   per rank, whether it was running when the partition began (the membership its sides count).
     * @param accuser   the node that declared a death on its own.
     * @param accused   the rank it declared.
     * @param timeNs    when.
     * @return true if the accuser could hear nobody outside its group at that time (it is the one-way partition's
     * group 0, or alone in its group), accused a rank outside it, and its side held no majority of the ranks running
     * at the cut, counted either over the whole cluster or over those running (a crash shortly before the cut may
     * not be in every view yet): a deaf side that holds the majority must declare what it cannot hear.
     */
    static boolean accusesWhileDeaf(
        final Partition partition,
        final int[] groups,
        final boolean[] running,
        final int accuser,
        final int accused,
        final long timeNs)
    {
        if (timeNs < partition.startNs() || timeNs >= partition.endNs() || groups[accuser] == groups[accused])
        {
            return false;
        }
        final int g = groups[accuser];
        if (partition.oneWay() ? g != 0 : partition.groupSizes()[g] != 1)
        {
            return false;
        }
        return !sideMayWin(groups, g, null) && !sideMayWin(groups, g, running);
    }

    private static boolean sideMayWin(final int[] groups, final int group, final boolean[] counted)
    {
        int size = 0;
        int total = 0;
        int lowest = -1;
        for (int rank = 0; rank < groups.length; rank++)
        {
            if (counted == null || counted[rank])
            {
                total++;
                size += groups[rank] == group ? 1 : 0;
                lowest = lowest < 0 ? rank : lowest;
            }
        }
        return lowest >= 0 && wins(size, total, groups[lowest] == group);
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
