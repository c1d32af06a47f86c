package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * The majority rule of {@link PartitionPolicy#MAJORITY}: who counts as the membership M, and whether a dead set
 * leaves a strict majority of M alive.
 * <p>
 * M is the live set as of the last time this node's view had been unchanged for the settle period, the whole
 * cluster at start. A minority learns it is one well within that period, so M does not shrink under it while it
 * is still finding out; in exchange, more than half of M crashing within one settle period leaves the survivors
 * without a majority, and they stop. Exactly half is a majority iff it holds the lowest rank of M still alive,
 * which every node computes alike from the same M.
 * <p>
 * A rank that rejoins leaves the dead set, so the view no longer only grows: a rank outside M that is alive in the
 * view (a joiner admitted since M settled) is not counted until M settles again with it.
 */
final class Quorum
{
    private final int clusterSize;
    private final long settlePeriodNs;
    private final RankArray settledDead = new RankArray(8);
    private int lowestMember;
    private long lastChangeNs;
    private boolean changedSinceSettled;

    Quorum(final int clusterSize, final long settlePeriodNs, final long startNs)
    {
        this.clusterSize = clusterSize;
        this.settlePeriodNs = settlePeriodNs;
        lastChangeNs = startNs;
    }

    /**
     * The view changed at {@code nowNs}: M stays as it is for at least a settle period from now.
     */
    void viewChanged(final long nowNs)
    {
        lastChangeNs = nowNs;
        changedSinceSettled = true;
    }

    /**
     * Take the view as M if it has been unchanged for the settle period. A join and a death may leave the dead set
     * as large as before, so what tells whether M is behind is a change since it last settled, not a size.
     *
     * @param dead  this node's dead set.
     * @param nowNs protocol time.
     */
    void settleIfDue(final RankSet dead, final long nowNs)
    {
        if (changedSinceSettled && nowNs - lastChangeNs >= settlePeriodNs)
        {
            adopt(dead);
        }
    }

    /**
     * Take the view as M early if, since M settled, ranks only joined (every rank dead now was dead then) and the
     * view has been unchanged for {@code quietNs}: M then only grows, by ranks whose JOIN has had time to reach every
     * member. The caller must not call this while it judges a silence (probing, or checking a minority notice).
     *
     * @param dead    this node's dead set.
     * @param nowNs   protocol time.
     * @param quietNs how long the view must have been unchanged, shorter than the settle period.
     * @return true if M grew.
     */
    boolean growIfOnlyJoined(final RankSet dead, final long nowNs, final long quietNs)
    {
        if (!changedSinceSettled || nowNs - lastChangeNs < quietNs)
        {
            return false;
        }
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            if (!settledDead.contains(dead.rankAt(i)))
            {
                return false;
            }
        }
        adopt(dead);
        return true;
    }

    /**
     * Take {@code dead} as M's complement now, without waiting: a joiner's view, which it got from a contact that
     * counted a majority in it.
     *
     * @param dead the dead set.
     */
    void adopt(final RankSet dead)
    {
        settledDead.copyFrom(dead);
        changedSinceSettled = false;
        findLowestMember();
    }

    /**
     * A joiner's first M: its contact's view, without the joiner itself. Every member that admitted it counts it only
     * once the view has been quiet for the join's time ({@link #growIfOnlyJoined}); counting itself at once made its
     * M larger than theirs, and in a split right after its admission (the 30-minute nemesis, run 5) it won a tie its
     * own side's older members lost, while the other side counted a majority without it: both sides declared.
     * It joins M by the same rule and at about the same time as it does in theirs.
     *
     * @param dead the dead set of the view it was admitted into.
     * @param self the joiner's rank.
     */
    void adoptAsJoiner(final RankSet dead, final int self)
    {
        settledDead.copyFrom(dead);
        settledDead.add(self);
        changedSinceSettled = true;
        findLowestMember();
    }

    private void findLowestMember()
    {
        int lowest = 0;
        while (lowest < clusterSize && settledDead.contains(lowest))
        {
            lowest++;
        }
        lowestMember = lowest;
    }

    /**
     * @param dead a dead set, this node's view.
     * @return members of M it leaves alive: ranks outside M (joiners admitted since it settled) do not count.
     */
    int aliveMembers(final RankSet dead)
    {
        int deadMembers = 0;
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            final int r = dead.rankAt(i);
            if (r >= 0 && r < clusterSize && !settledDead.contains(r))
            {
                deadMembers++;
            }
        }
        return members() - deadMembers;
    }

    /**
     * @return when the view last changed.
     */
    long lastChangeNs()
    {
        return lastChangeNs;
    }

    /**
     * @return |M|.
     */
    int members()
    {
        return clusterSize - settledDead.size();
    }

    /**
     * @return the lowest rank of M.
     */
    int lowestMember()
    {
        return lowestMember;
    }

    /**
     * @param rank a rank.
     * @return true if it is not in M (it was dead when M settled).
     */
    boolean isOutside(final int rank)
    {
        return settledDead.contains(rank);
    }

    /**
     * @param aliveMembers      members of M alive in the view being judged.
     * @param lowestMemberAlive whether {@link #lowestMember()} is among them.
     * @return true if they are a strict majority of M, or exactly half holding its lowest rank.
     */
    boolean holds(final int aliveMembers, final boolean lowestMemberAlive)
    {
        final long twice = 2L * aliveMembers;
        final int members = members();
        return twice > members || (twice == members && lowestMemberAlive);
    }

    /**
     * @param deadSet a dead set, e.g. a notice's D_msg.
     * @return true if it leaves a majority of M alive.
     */
    boolean leftAliveBy(final RankSet deadSet)
    {
        if (settledDead.size() == 0)
        {
            // M is the whole cluster, and a decoded dead set holds valid ranks only
            return holds(clusterSize - deadSet.size(), !deadSet.contains(lowestMember));
        }
        int deadMembers = 0;
        for (int i = 0, size = deadSet.size(); i < size; i++)
        {
            final int r = deadSet.rankAt(i);
            if (r >= 0 && r < clusterSize && !settledDead.contains(r))
            {
                deadMembers++;
            }
        }
        return holds(members() - deadMembers, !deadSet.contains(lowestMember));
    }

    /**
     * @param dead    this node's dead set (M's dead are all in it).
     * @param deadSet further dead ranks, e.g. a notice's D_msg.
     * @return true if their union leaves a majority of M alive.
     */
    boolean leftAliveByUnion(final RankSet dead, final RankSet deadSet)
    {
        int extra = 0;
        for (int i = 0, size = deadSet.size(); i < size; i++)
        {
            final int r = deadSet.rankAt(i);
            if (r >= 0 && r < clusterSize && !dead.contains(r) && !settledDead.contains(r))
            {
                extra++;
            }
        }
        return holds(aliveMembers(dead) - extra, !dead.contains(lowestMember) && !deadSet.contains(lowestMember));
    }
}
