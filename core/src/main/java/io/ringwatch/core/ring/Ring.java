package io.ringwatch.core.ring;

import io.ringwatch.core.spi.RankSet;

/**
 * One node's ring: ranks 0..N−1 in a circle, each watched by the nearest live rank after it, as this node's view
 * (its dead set D, read live, never copied) has it. Emitter is the watched predecessor, observer the watching
 * successor. Every walk stops at this node: it is alive in its own view whatever D says.
 */
public final class Ring
{
    private final int rank;
    private final int clusterSize;
    private final RankSet dead;

    /**
     * @param rank        this node.
     * @param clusterSize N.
     * @param dead        this node's dead set; read at every call, so later changes count.
     */
    public Ring(final int rank, final int clusterSize, final RankSet dead)
    {
        if (rank < 0 || rank >= clusterSize)
        {
            throw new IllegalArgumentException("rank " + rank + " not in [0, " + clusterSize + ")");
        }
        this.rank = rank;
        this.clusterSize = clusterSize;
        this.dead = dead;
    }

    /**
     * @return this node's rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @return N.
     */
    public int clusterSize()
    {
        return clusterSize;
    }

    /**
     * @param r any int.
     * @return true if {@code r} is a rank of this cluster.
     */
    public boolean isRank(final int r)
    {
        return r >= 0 && r < clusterSize;
    }

    /**
     * @param r a rank.
     * @return ring distance from {@code r} forward to this node: 1 for the initial emitter, 0 for this node.
     */
    public int distance(final int r)
    {
        final int d = rank - r;
        return d < 0 ? d + clusterSize : d;
    }

    /**
     * @param r a rank.
     * @return ring distance from this node forward to {@code r}: 1 for the initial observer, 0 for this node.
     */
    public int distanceAhead(final int r)
    {
        final int d = r - rank;
        return d < 0 ? d + clusterSize : d;
    }

    /**
     * @param from a rank.
     * @return the nearest rank after {@code from} that this view holds alive, or this node if it comes first.
     */
    public int nextAlive(final int from)
    {
        int candidate = from;
        for (int i = 0; i < clusterSize; i++)
        {
            candidate = candidate == clusterSize - 1 ? 0 : candidate + 1;
            if (candidate == rank || !dead.contains(candidate))
            {
                return candidate;
            }
        }
        return rank;
    }

    /**
     * @param from a rank.
     * @return the nearest rank before {@code from} that this view holds alive, or this node if it comes first.
     */
    public int previousAlive(final int from)
    {
        int candidate = from;
        for (int i = 0; i < clusterSize; i++)
        {
            candidate = candidate == 0 ? clusterSize - 1 : candidate - 1;
            if (candidate == rank || !dead.contains(candidate))
            {
                return candidate;
            }
        }
        return rank;
    }

    /**
     * @return this node's nearest live predecessor: the emitter of a stable ring; this node if it is alone.
     */
    public int predecessor()
    {
        return previousAlive(rank);
    }

    /**
     * @return this node's nearest live successor: the observer of a stable ring; this node if it is alone.
     */
    public int successor()
    {
        return nextAlive(rank);
    }

    /**
     * FindEmitter of paper 002 Algorithm 1: from the emitter just found dead, back to the first rank not in D.
     *
     * @param emitter the current emitter.
     * @return the emitter itself if alive, else the nearest live rank before it; this node if every rank is in D.
     */
    public int findEmitter(final int emitter)
    {
        int candidate = emitter;
        for (int i = 0; i < clusterSize && dead.contains(candidate); i++)
        {
            candidate = candidate == 0 ? clusterSize - 1 : candidate - 1;
        }
        return dead.contains(candidate) ? rank : candidate;
    }

    /**
     * The observer's side of FindEmitter: from an observer found dead, forward to the first rank not in D.
     *
     * @param observer the current observer.
     * @return the observer itself if alive, else the nearest live rank after it; this node if every rank is in D.
     */
    public int findObserver(final int observer)
    {
        int candidate = observer;
        for (int i = 0; i < clusterSize && dead.contains(candidate); i++)
        {
            candidate = candidate == clusterSize - 1 ? 0 : candidate + 1;
        }
        return dead.contains(candidate) ? rank : candidate;
    }

    /**
     * The nearest live successors, the ranks likeliest to become this node's observer as the ring is mended.
     *
     * @param into filled from index 0, nearest first, up to its length.
     * @return how many were filled: fewer than {@code into.length} only if fewer other ranks are alive.
     */
    public int liveSuccessors(final int[] into)
    {
        int count = 0;
        for (int r = nextAlive(rank); r != rank && count < into.length; r = nextAlive(r))
        {
            into[count++] = r;
        }
        return count;
    }

    /**
     * The nearest live predecessors: the ranks whose {@link #liveSuccessors} sets are likeliest to hold this node,
     * the emitter first.
     *
     * @param into filled from index 0, nearest first, up to its length.
     * @return how many were filled: fewer than {@code into.length} only if fewer other ranks are alive.
     */
    public int livePredecessors(final int[] into)
    {
        int count = 0;
        for (int r = previousAlive(rank); r != rank && count < into.length; r = previousAlive(r))
        {
            into[count++] = r;
        }
        return count;
    }
}
