package io.ringwatch.core.broadcast;

import io.ringwatch.core.broadcast.BroadcastCases.Cluster;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BinomialGraphScheduleTest
{
    private static final int RANDOM_CASES = 2_000;

    private final BinomialGraphSchedule schedule = new BinomialGraphSchedule();

    @Test
    void shouldLinkEachParticipantToLabelsPlusAndMinusPowersOfTwoWithTreeChildrenFirst()
    {
        for (int n = 1; n <= 40; n++)
        {
            final int m = ceilLog2(n);
            for (final Cluster cluster : BroadcastCases.excludedPatterns(n))
            {
                for (final int source : BroadcastCases.participants(cluster))
                {
                    final BroadcastReachability broadcast =
                        new BroadcastReachability(schedule, cluster.clusterSize(), cluster.excluded(), source);
                    for (int label = 0; label < n; label++)
                    {
                        final String where = broadcast.context() + " label " + label;
                        final boolean[] expected = new boolean[n];
                        int degree = 0;
                        for (int j = 0; j < m; j++)
                        {
                            for (final int target : new int[]{ (label + (1 << j)) % n, Math.floorMod(label - (1 << j), n) })
                            {
                                if (target != label && !expected[target])
                                {
                                    expected[target] = true;
                                    degree++;
                                }
                            }
                        }
                        assertEquals(degree, broadcast.neighbourCount(label), where);
                        assertEquals(n == 1 ? 0 : BinomialGraphSchedule.faultTolerance(n) + 1, degree, where);
                        for (int i = 0; i < degree; i++)
                        {
                            assertTrue(expected[broadcast.neighbour(label, i)], where);
                        }

                        int next = 0;
                        final int lowest = label == 0 ? m : Integer.numberOfTrailingZeros(label);
                        for (int j = lowest - 1; j >= 0; j--)
                        {
                            if (label + (1 << j) < n)
                            {
                                assertEquals(label + (1 << j), broadcast.neighbour(label, next++), where);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldReachEveryLiveParticipantForEveryFailureSetWithinItsFaultTolerance()
    {
        final StringBuilder worstHops = new StringBuilder();
        for (int n = 1; n <= 16; n++)
        {
            final int tolerated = BinomialGraphSchedule.faultTolerance(n);
            final boolean[] failed = new boolean[n];
            int worst = 0;
            // Reachability is invariant under the relabelling (the graph is circulant), so two D_msg shapes do.
            for (final Cluster cluster : BroadcastCases.excludedPatterns(n).subList(0, 2))
            {
                for (final int source : BroadcastCases.participants(cluster))
                {
                    final BroadcastReachability broadcast =
                        new BroadcastReachability(schedule, cluster.clusterSize(), cluster.excluded(), source);
                    for (int mask = 0; mask < 1 << (n - 1); mask++)
                    {
                        if (Integer.bitCount(mask) <= tolerated)
                        {
                            broadcast.run(BroadcastCases.failedFromMask(n, mask, failed), BroadcastReachability.EVERY_EDGE);
                            broadcast.assertReachedWithin(BroadcastReachability.EVERY_LABEL, n - 1, "exhaustive");
                            worst = Math.max(worst, broadcast.depth(BroadcastReachability.EVERY_LABEL));
                        }
                    }
                }
            }
            worstHops.append(" n=").append(n).append(':').append(worst);
        }
        System.out.println("BMG worst hops with at most d-1 failures (informational):" + worstHops);
    }

    @Test
    void shouldFailToReachAParticipantWhoseEveryLinkFailed()
    {
        int isolated = 0;
        for (int n = 8; n <= 16; n++)
        {
            final BroadcastReachability broadcast = new BroadcastReachability(schedule, n, RankArray.of(), 0);
            final int target = labelNotLinkedToSource(broadcast);
            final boolean[] failed = new boolean[n];
            for (int i = 0; i < broadcast.neighbourCount(target); i++)
            {
                failed[broadcast.neighbour(target, i)] = true;
            }

            broadcast.run(failed, BroadcastReachability.EVERY_EDGE);
            assertEquals(BroadcastReachability.UNREACHED, broadcast.hops(target), broadcast.context());
            assertThrows(
                AssertionError.class,
                () -> broadcast.assertReachedWithin(BroadcastReachability.EVERY_LABEL, Integer.MAX_VALUE, "control"));
            assertEquals(BinomialGraphSchedule.faultTolerance(n) + 1, broadcast.neighbourCount(target));
            isolated++;
        }
        assertEquals(9, isolated);
    }

    @Test
    void shouldReachEveryLiveParticipantForRandomClustersUpTo4096()
    {
        final long seed = BroadcastCases.seed("BinomialGraphScheduleTest.random");
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] candidates = new int[64];
        for (int i = 0; i < RANDOM_CASES; i++)
        {
            final Cluster cluster = BroadcastCases.randomCluster(random, 4096);
            final int[] ranks = BroadcastCases.participants(cluster);
            final int n = ranks.length;
            final BroadcastReachability broadcast = new BroadcastReachability(
                schedule, cluster.clusterSize(), cluster.excluded(), ranks[random.nextInt(n)]);
            final int tolerated = BinomialGraphSchedule.faultTolerance(n);

            final boolean[] failed;
            if (random.nextBoolean())
            {
                failed = BroadcastCases.randomFailures(random, n, random.nextInt(tolerated + 1));
            }
            else
            {
                // All links but one of some participant fail: only the last one may carry the notice.
                final int target = random.nextInt(1, n);
                final int degree = broadcast.neighbourCount(target);
                for (int j = 0; j < degree; j++)
                {
                    candidates[j] = broadcast.neighbour(target, j);
                }
                failed = BroadcastCases.failuresAmong(random, n, candidates, degree, tolerated);
            }

            broadcast.run(failed, BroadcastReachability.EVERY_EDGE);
            broadcast.assertReachedWithin(BroadcastReachability.EVERY_LABEL, n - 1, "seed=" + seed + " case " + i);
        }
    }

    @Test
    void shouldTolerateOneFailureLessThanTheDegree()
    {
        assertEquals(0, BinomialGraphSchedule.faultTolerance(1));
        assertEquals(0, BinomialGraphSchedule.faultTolerance(2));
        assertEquals(1, BinomialGraphSchedule.faultTolerance(3));
        assertEquals(2, BinomialGraphSchedule.faultTolerance(4));
        assertEquals(7 - 1, BinomialGraphSchedule.faultTolerance(16));
        assertEquals(8 - 1, BinomialGraphSchedule.faultTolerance(15));
        assertEquals(6 - 1, BinomialGraphSchedule.faultTolerance(12));
        assertEquals(20 - 1, BinomialGraphSchedule.faultTolerance(1000));
        assertEquals(35 - 1, BinomialGraphSchedule.faultTolerance(262_144));
    }

    private static int labelNotLinkedToSource(final BroadcastReachability broadcast)
    {
        for (int label = 1; label < broadcast.participants(); label++)
        {
            boolean linked = false;
            for (int i = 0; i < broadcast.neighbourCount(label); i++)
            {
                linked |= broadcast.neighbour(label, i) == 0;
            }
            if (!linked)
            {
                return label;
            }
        }
        throw new AssertionError(broadcast.context() + ": every participant is linked to the source");
    }

    private static int ceilLog2(final int n)
    {
        int m = 0;
        while ((1L << m) < n)
        {
            m++;
        }
        return m;
    }
}
