package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankArray;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Clusters, failure sets and seeds shared by the schedule tests.
 */
final class BroadcastCases
{
    static final String SEED_PROP_NAME = "ringwatch.broadcast.seed";

    /**
     * N and D_msg for one broadcast.
     */
    record Cluster(int clusterSize, RankArray excluded)
    {
        int firstParticipant()
        {
            int rank = 0;
            while (excluded.contains(rank))
            {
                rank++;
            }
            return rank;
        }
    }

    private BroadcastCases()
    {
    }

    /**
     * Excluded-set shapes that move the source's index and make ranks differ from indices: none, the first
     * rank, the last rank, scattered low ranks, a block in the middle.
     *
     * @param n participants wanted.
     * @return clusters with exactly n participants.
     */
    static List<Cluster> excludedPatterns(final int n)
    {
        final List<Cluster> clusters = new ArrayList<>();
        clusters.add(new Cluster(n, RankArray.of()));
        clusters.add(new Cluster(n + 1, RankArray.of(0)));
        clusters.add(new Cluster(n + 1, RankArray.of(n)));
        if (n >= 2)
        {
            clusters.add(new Cluster(n + 3, RankArray.of(0, 2, 4)));
        }
        final int middle = n / 2;
        clusters.add(new Cluster(n + 4, RankArray.of(middle, middle + 1, middle + 2, middle + 3)));
        return clusters;
    }

    /**
     * Ranks {@code 0..N-1} that are not excluded.
     */
    static int[] participants(final Cluster cluster)
    {
        final int[] ranks = new int[cluster.clusterSize() - cluster.excluded().size()];
        for (int rank = 0, i = 0; rank < cluster.clusterSize(); rank++)
        {
            if (!cluster.excluded().contains(rank))
            {
                ranks[i++] = rank;
            }
        }
        return ranks;
    }

    /**
     * F as labels from a bit mask over labels {@code 1..n-1} (the source, label 0, never fails).
     */
    static boolean[] failedFromMask(final int n, final int mask, final boolean[] into)
    {
        for (int label = 1; label < n; label++)
        {
            into[label] = (mask & (1 << (label - 1))) != 0;
        }
        into[0] = false;
        return into;
    }

    /**
     * A random cluster: n log-uniform in {@code [2, maxParticipants]}, half the time a random D_msg of up to n
     * extra ranks.
     */
    static Cluster randomCluster(final SplittableRandom random, final int maxParticipants)
    {
        final int maxBits = 32 - Integer.numberOfLeadingZeros(maxParticipants - 1);
        final int bits = random.nextInt(1, maxBits + 1);
        final int n = Math.max(2, random.nextInt(1 << (bits - 1), Math.min(1 << bits, maxParticipants) + 1));
        final int extra = random.nextBoolean() ? 0 : random.nextInt(1, n + 1);
        final int clusterSize = n + extra;
        final int[] ranks = new int[clusterSize];
        for (int i = 0; i < clusterSize; i++)
        {
            ranks[i] = i;
        }
        for (int i = 0; i < extra; i++)
        {
            final int j = random.nextInt(i, clusterSize);
            final int tmp = ranks[i];
            ranks[i] = ranks[j];
            ranks[j] = tmp;
        }
        final int[] excluded = new int[extra];
        System.arraycopy(ranks, 0, excluded, 0, extra);
        return new Cluster(clusterSize, RankArray.of(excluded));
    }

    /**
     * Marks {@code count} random labels from {@code 1..n-1} as failed.
     */
    static boolean[] randomFailures(final SplittableRandom random, final int n, final int count)
    {
        final boolean[] failed = new boolean[n];
        int marked = 0;
        while (marked < Math.min(count, n - 1))
        {
            final int label = random.nextInt(1, n);
            if (!failed[label])
            {
                failed[label] = true;
                marked++;
            }
        }
        return failed;
    }

    /**
     * Marks up to {@code count} of the given candidate labels as failed, chosen at random, never label 0.
     */
    static boolean[] failuresAmong(
        final SplittableRandom random, final int n, final int[] candidates, final int candidateCount, final int count)
    {
        final int[] pool = new int[candidateCount];
        int size = 0;
        for (int i = 0; i < candidateCount; i++)
        {
            if (candidates[i] != 0)
            {
                pool[size++] = candidates[i];
            }
        }
        final boolean[] failed = new boolean[n];
        for (int i = 0; i < Math.min(count, size); i++)
        {
            final int j = random.nextInt(i, size);
            final int tmp = pool[i];
            pool[i] = pool[j];
            pool[j] = tmp;
            failed[pool[i]] = true;
        }
        return failed;
    }

    /**
     * @return the seed from {@value #SEED_PROP_NAME}, else a fresh one; printed either way.
     */
    static long seed(final String testName)
    {
        final String configured = System.getProperty(SEED_PROP_NAME);
        final long seed = configured != null ? Long.parseLong(configured) : System.nanoTime() ^ 0x5DEECE66DL;
        System.out.println(testName + " seed=" + seed + " (rerun with -D" + SEED_PROP_NAME + "=" + seed + ")");
        return seed;
    }
}
