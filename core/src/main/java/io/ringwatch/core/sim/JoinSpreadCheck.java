package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.Theorem1;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The join checker: a JOIN reaches everyone within the broadcast bound B(n) = 8τ·log₂ n of Theorem 1, unless a fault
 * overlapped it (the bound, as for notices, assumes no failure during the broadcast) or messages may be lost. B(n) is
 * for one broadcast alone; in the one-port model k broadcasts spreading at once (JOINs, failure notices, retold
 * JOINs: whatever shares the ports) queue on the same ports, so a JOIN is held to k·B(n).
 * <p>
 * Keeps, per rank, when its latest JOIN was first and last applied, the faults (stops and pauses) as [from, until]
 * pairs, and (one-port only) each broadcast's [first send, last arrival], keyed by its one shared copy. The overlap
 * count is a sweep over sorted times, not a scan of every broadcast per JOIN: a million-node boot through joins would
 * take 10¹² steps.
 */
final class JoinSpreadCheck
{
    private static final long NONE = -1;

    private final long[] firstNs;
    private final long[] lastNs;
    private final List<long[]> faultsNs = new ArrayList<>();
    private final Map<Object, long[]> broadcastsNs = new IdentityHashMap<>();
    private final long deltaNs;
    private long[] sortedFirstNs;
    private long[] sortedLastNs;

    JoinSpreadCheck(final int nodes, final long deltaNs)
    {
        this.deltaNs = deltaNs;
        firstNs = new long[nodes];
        lastNs = new long[nodes];
        Arrays.fill(firstNs, NONE);
        Arrays.fill(lastNs, NONE);
    }

    /**
     * A rank starts a new life: its earlier JOIN no longer counts.
     */
    void forget(final int rank)
    {
        firstNs[rank] = NONE;
        lastNs[rank] = NONE;
    }

    /**
     * A node stopped or paused over [fromNs, untilNs].
     */
    void fault(final long fromNs, final long untilNs)
    {
        faultsNs.add(new long[] {fromNs, untilNs});
    }

    /**
     * One-port runs: a copy of a broadcast (the object all its copies share) leaves at {@code sentNs} and arrives at
     * {@code arrivesNs}.
     */
    void broadcastCopy(final Object broadcast, final long sentNs, final long arrivesNs)
    {
        final long[] window = broadcastsNs.get(broadcast);
        if (window == null)
        {
            broadcastsNs.put(broadcast, new long[] {sentNs, arrivesNs});
        }
        else
        {
            window[1] = Math.max(window[1], arrivesNs);
        }
    }

    /**
     * @return when the rank's current JOIN was first applied, or -1.
     */
    long firstNs(final int joiner)
    {
        return firstNs[joiner];
    }

    /**
     * A node applied the joiner's current JOIN at {@code timeNs}.
     */
    void applied(final int joiner, final long timeNs)
    {
        if (firstNs[joiner] == NONE)
        {
            firstNs[joiner] = timeNs;
        }
        lastNs[joiner] = timeNs;
    }

    /**
     * @return the longest spread seen, -1 without joins.
     */
    long check(
        final ClusterState state,
        final boolean onePort,
        final double loss,
        final long tauNs,
        final long seed,
        final List<String> out)
    {
        final int n = firstNs.length;
        long maxNs = NONE;
        final long oneBoundNs = (long)Math.ceil(Theorem1.broadcast(n, tauNs));
        int late = 0;
        for (int rank = 0; rank < n; rank++)
        {
            if (firstNs[rank] == NONE || state.isStopped(rank))
            {
                continue;
            }
            final long spreadNs = lastNs[rank] - firstNs[rank];
            maxNs = Math.max(maxNs, spreadNs);
            final long boundNs = oneBoundNs * (onePort ? spreadingWith(rank) : 1);
            if (spreadNs > boundNs && loss == 0 && !faultNear(firstNs[rank], lastNs[rank]) &&
                late++ < Checks.MAX_REPORTED)
            {
                out.add("seed=" + seed + ": join: the JOIN of " + rank + " (incarnation " + state.incarnation(rank) +
                    ") took " + spreadNs + "ns to reach every node, above the broadcast bound " + boundNs + "ns");
            }
        }
        Checks.reportRest(out, seed, "join bound", late);
        return maxNs;
    }

    /**
     * @return how many broadcasts were spreading at some moment of this rank's JOIN, at least 1 (the JOIN itself): all
     * of them but those that started after it ended and those that ended before it started (never both, as each ends
     * after it starts).
     */
    int spreadingWith(final int rank)
    {
        if (sortedFirstNs == null)
        {
            sortedFirstNs = new long[broadcastsNs.size()];
            sortedLastNs = new long[broadcastsNs.size()];
            int i = 0;
            for (final long[] window : broadcastsNs.values())
            {
                sortedFirstNs[i] = window[0];
                sortedLastNs[i++] = window[1];
            }
            Arrays.sort(sortedFirstNs);
            Arrays.sort(sortedLastNs);
        }
        final int all = sortedFirstNs.length;
        final int startedAfter = all - countAtMost(sortedFirstNs, lastNs[rank]);
        final int endedBefore = countAtMost(sortedLastNs, firstNs[rank] - 1);
        return Math.max(1, all - startedAfter - endedBefore);
    }

    /**
     * @return how many of the sorted values are at most {@code limit}.
     */
    private static int countAtMost(final long[] sorted, final long limit)
    {
        int low = 0;
        int high = sorted.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (sorted[mid] <= limit)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low;
    }

    /**
     * @return true if a node stopped or was paused while the JOIN spread, or stopped within 2δ before it started (its
     * death may still be spreading, so the contact's D_msg and the receivers' views disagree about it).
     */
    private boolean faultNear(final long fromNs, final long toNs)
    {
        for (final long[] fault : faultsNs)
        {
            if (fault[1] >= fromNs - 2 * deltaNs && fault[0] <= toNs)
            {
                return true;
            }
        }
        return false;
    }
}
