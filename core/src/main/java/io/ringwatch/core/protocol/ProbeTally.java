package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * The ear check's evidence ({@link ProbeSession}): the witnesses a session asks (the ranks 2^i away on either side of
 * this node, a sample of the whole ring) and who answered, each rank counted once whichever probe it answers. A
 * recount (the recheck) counts afresh into a second set, keeping the session's answers to choose whom to ask.
 * Its arrays are made at the first session, so a node that never probes pays nothing (a million-node simulation
 * could not hold them for every node). Allocation free after that.
 */
final class ProbeTally
{
    private static final int MAX_WITNESSES = 64;

    private final int rank;
    private final int clusterSize;
    private final RankSet dead;
    private final Quorum quorum;
    private final boolean standInForDead;
    private int[] witnesses;
    private long[] answered;
    private long[] rechecked;
    private long[] counting;
    private int witnessCount;
    private int answers;
    private int witnessesAnswered;
    private boolean lowestAnswered;

    ProbeTally(final int rank, final int clusterSize, final RankSet dead, final Quorum quorum,
        final boolean standInForDead)
    {
        this.standInForDead = standInForDead;
        this.rank = rank;
        this.clusterSize = clusterSize;
        this.dead = dead;
        this.quorum = quorum;
    }

    /**
     * A new session: nobody has answered, and the witnesses are picked afresh (live in view, neither this node nor
     * the silent emitter).
     */
    void startSession(final int emitter)
    {
        if (answered == null)
        {
            witnesses = new int[MAX_WITNESSES];
            answered = RankBits.forCluster(clusterSize);
            rechecked = RankBits.forCluster(clusterSize);
        }
        startCount(answered);
        witnessCount = 0;
        for (long d = 1; d < clusterSize && witnessCount + 2 <= witnesses.length; d <<= 1)
        {
            addWitness((int)((rank + d) % clusterSize), 1, emitter);
            addWitness((int)Math.floorMod(rank - d, (long)clusterSize), -1, emitter);
        }
    }

    /**
     * The recheck: count again from nothing, the session's answers kept aside ({@link #answeredInSession}).
     */
    void startRecount()
    {
        startCount(rechecked);
    }

    private void startCount(final long[] bits)
    {
        counting = bits;
        Arrays.fill(bits, 0L);
        answers = 0;
        witnessesAnswered = 0;
        lowestAnswered = rank == quorum.lowestMember();
    }

    /**
     * Count {@code fromRank}'s answer, once: when a cut heals the first answers to come back are those to probes asked
     * again, and a node that could not count them would stop on a whole cluster.
     */
    void count(final int fromRank)
    {
        if (RankBits.addFirst(counting, fromRank))
        {
            // a rank admitted since M settled is no evidence of a majority of M (Quorum)
            answers += quorum.isOutside(fromRank) ? 0 : 1;
            lowestAnswered |= fromRank == quorum.lowestMember();
            witnessesAnswered += isWitness(fromRank) ? 1 : 0;
        }
    }

    /**
     * @return true once this node has heard enough to be sure it is on a majority side: every witness answered (the
     * sample shows no cut), or the ranks that answered, each counted once, make a majority of M with itself.
     */
    boolean hasMajorityEvidence()
    {
        // this node counts itself only as a member of M: a joiner is not one until its view has been quiet for 2δ
        return allWitnessesAnswered() || quorum.holds(answers + (quorum.isOutside(rank) ? 0 : 1), lowestAnswered);
    }

    boolean allWitnessesAnswered()
    {
        return witnessesAnswered == witnessCount;
    }

    boolean anyAnswered()
    {
        return answers != 0;
    }

    boolean answeredInSession(final int r)
    {
        return RankBits.has(answered, r);
    }

    int witnessCount()
    {
        return witnessCount;
    }

    int witness(final int i)
    {
        return witnesses[i];
    }

    boolean isWitness(final int r)
    {
        for (int i = 0; i < witnessCount; i++)
        {
            if (witnesses[i] == r)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The rank {@code at}, or when the view holds it dead the nearest live rank beyond it in the direction
     * {@code step}, as a witness: a sample thinned by the dead was once only ranks 3 and 6 for rank 2 of 8 (ranks 0
     * and 4 dead, rank 1 its silent emitter), both on its side of a split, so it took the split for its emitter's
     * crash (the nemesis, run 6). Never this node, its emitter or a rank beyond it, nor a rank twice.
     */
    private void addWitness(final int at, final int step, final int emitter)
    {
        int r = at;
        for (int walked = 0; standInForDead && dead.contains(r) && walked < clusterSize; walked++)
        {
            r = Math.floorMod(r + step, clusterSize);
        }
        if (r != rank && r != emitter && !dead.contains(r) && !isWitness(r))
        {
            witnesses[witnessCount++] = r;
        }
    }
}
