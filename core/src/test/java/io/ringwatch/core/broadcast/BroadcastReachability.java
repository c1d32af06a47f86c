package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * Replays one broadcast of a {@link BroadcastSchedule} hop by hop. Participants, labels and the failure set are
 * derived here independently of the production code; the schedule only answers {@code neighbours}, once per
 * participant. A run applies the first-receipt rule: a participant forwards once, to its scheduled neighbours
 * minus the one it first received from; failed participants (F) neither receive nor forward. The result is the
 * hop at which each live participant is first reached, copies received and messages sent.
 * <p>
 * An {@link EdgeFilter} restricts which scheduled sends count, e.g. to one hypercube's own edges.
 * Not thread safe; runs reuse their buffers, so exhaustive sweeps stay cheap.
 */
final class BroadcastReachability
{
    /**
     * Which scheduled sends a run delivers.
     */
    @FunctionalInterface
    interface EdgeFilter
    {
        boolean carries(int fromLabel, int toLabel);
    }

    /**
     * Which participants an assertion is about.
     */
    @FunctionalInterface
    interface LabelSet
    {
        boolean contains(int label);
    }

    static final EdgeFilter EVERY_EDGE = (from, to) -> true;
    static final LabelSet EVERY_LABEL = label -> true;

    static final int UNREACHED = -1;

    private final String scheduleName;
    private final int clusterSize;
    private final RankSet excluded;
    private final int source;
    private final int n;
    private final int fanout;
    private final int[] rankOfLabel;
    private final int[] adjacency;
    private final int[] degree;
    private final int[] hops;
    private final int[] sender;
    private final int[] copies;
    private final int[] queue;
    private boolean[] failed;
    private long sends;

    /**
     * Asks the schedule for every participant's neighbours and checks they are well formed.
     *
     * @param schedule    under test.
     * @param clusterSize N.
     * @param excluded    D_msg.
     * @param source      the broadcast source, a participant.
     */
    BroadcastReachability(
        final BroadcastSchedule schedule, final int clusterSize, final RankSet excluded, final int source)
    {
        this.scheduleName = schedule.getClass().getSimpleName();
        this.clusterSize = clusterSize;
        this.excluded = excluded;
        this.source = source;

        final int[] labelOfRank = new int[clusterSize];
        int participants = 0;
        int sourceIndex = -1;
        for (int rank = 0, nextExcluded = 0; rank < clusterSize; rank++)
        {
            if (nextExcluded < excluded.size() && excluded.rankAt(nextExcluded) == rank)
            {
                nextExcluded++;
                labelOfRank[rank] = UNREACHED;
                continue;
            }
            if (rank == source)
            {
                sourceIndex = participants;
            }
            labelOfRank[rank] = participants++;
        }
        if (sourceIndex < 0)
        {
            throw new IllegalArgumentException("source " + source + " is not a participant");
        }

        n = participants;
        rankOfLabel = new int[n];
        for (int rank = 0; rank < clusterSize; rank++)
        {
            if (labelOfRank[rank] != UNREACHED)
            {
                final int label = Math.floorMod(labelOfRank[rank] - sourceIndex, n);
                labelOfRank[rank] = label;
                rankOfLabel[label] = rank;
            }
        }

        fanout = schedule.maxFanout(clusterSize);
        adjacency = new int[n * fanout];
        degree = new int[n];
        final int[] out = new int[fanout];
        for (int label = 0; label < n; label++)
        {
            final int self = rankOfLabel[label];
            final int count = schedule.neighbours(self, source, excluded, clusterSize, out);
            if (count < 0 || count > fanout)
            {
                throw new AssertionError(context() + " rank " + self + " got " + count + " neighbours, fanout " + fanout);
            }
            for (int i = 0; i < count; i++)
            {
                final int to = out[i];
                if (to < 0 || to >= clusterSize || labelOfRank[to] == UNREACHED || to == self)
                {
                    throw new AssertionError(context() + " rank " + self + " lists non-participant or itself: " + to);
                }
                for (int j = 0; j < i; j++)
                {
                    if (out[j] == to)
                    {
                        throw new AssertionError(context() + " rank " + self + " lists " + to + " twice");
                    }
                }
                adjacency[label * fanout + i] = labelOfRank[to];
            }
            degree[label] = count;
        }

        hops = new int[n];
        sender = new int[n];
        copies = new int[n];
        queue = new int[n];
        failed = new boolean[n];
    }

    /**
     * Replays the broadcast.
     *
     * @param failedByLabel F, indexed by label; may be null for none. The source must not be in it.
     * @param filter        sends to deliver.
     * @return this, for reading the results.
     */
    BroadcastReachability run(final boolean[] failedByLabel, final EdgeFilter filter)
    {
        failed = failedByLabel == null ? new boolean[n] : failedByLabel;
        if (failed.length != n || failed[0])
        {
            throw new IllegalArgumentException("F must be indexed by label and must not hold the source");
        }
        Arrays.fill(hops, UNREACHED);
        Arrays.fill(copies, 0);
        sends = 0;

        hops[0] = 0;
        sender[0] = UNREACHED;
        int head = 0;
        int tail = 0;
        queue[tail++] = 0;
        while (head < tail)
        {
            final int from = queue[head++];
            for (int i = from * fanout, end = i + degree[from]; i < end; i++)
            {
                final int to = adjacency[i];
                if (to == sender[from] || !filter.carries(from, to))
                {
                    continue;
                }
                sends++;
                if (failed[to])
                {
                    continue;
                }
                copies[to]++;
                if (hops[to] == UNREACHED)
                {
                    hops[to] = hops[from] + 1;
                    sender[to] = from;
                    queue[tail++] = to;
                }
            }
        }
        return this;
    }

    /**
     * Fails unless every live member of {@code members} was reached within {@code maxHops} in the last run.
     *
     * @param members which labels the claim is about.
     * @param maxHops the bound.
     * @param why     prefix of the failure message (seed, case).
     */
    void assertReachedWithin(final LabelSet members, final int maxHops, final String why)
    {
        for (int label = 0; label < n; label++)
        {
            if (!members.contains(label) || failed[label])
            {
                continue;
            }
            if (hops[label] == UNREACHED || hops[label] > maxHops)
            {
                throw new AssertionError(why + ": " + context() + " F=" + failedRanks() + " label " + label +
                    " (rank " + rankOfLabel[label] + ") " +
                    (hops[label] == UNREACHED ? "never reached" : "reached after " + hops[label] + " hops") +
                    ", bound " + maxHops);
            }
        }
    }

    int participants()
    {
        return n;
    }

    int rankOf(final int label)
    {
        return rankOfLabel[label];
    }

    int neighbourCount(final int label)
    {
        return degree[label];
    }

    int neighbour(final int label, final int i)
    {
        return adjacency[label * fanout + i];
    }

    int hops(final int label)
    {
        return hops[label];
    }

    int copies(final int label)
    {
        return copies[label];
    }

    long sends()
    {
        return sends;
    }

    /**
     * @param members labels of interest.
     * @return the largest hop count among reached members.
     */
    int depth(final LabelSet members)
    {
        int depth = 0;
        for (int label = 0; label < n; label++)
        {
            if (members.contains(label) && hops[label] > depth)
            {
                depth = hops[label];
            }
        }
        return depth;
    }

    String context()
    {
        return scheduleName + " N=" + clusterSize + " n=" + n + " source=" + source + " D_msg=" + excluded;
    }

    private String failedRanks()
    {
        final StringBuilder builder = new StringBuilder("[");
        for (int label = 0; label < n; label++)
        {
            if (failed[label])
            {
                builder.append(builder.length() > 1 ? ", " : "").append(rankOfLabel[label]);
            }
        }
        return builder.append(']').toString();
    }
}
