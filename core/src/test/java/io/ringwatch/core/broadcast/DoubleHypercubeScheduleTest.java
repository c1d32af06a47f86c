package io.ringwatch.core.broadcast;

import io.ringwatch.core.broadcast.BroadcastCases.Cluster;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static io.ringwatch.core.broadcast.DoubleHypercubeModel.H1;
import static io.ringwatch.core.broadcast.DoubleHypercubeModel.H2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoubleHypercubeScheduleTest
{
    private static final int[] CUBES = { H1, H2 };
    private static final int RANDOM_CASES = 10_000;

    private final DoubleHypercubeSchedule schedule = new DoubleHypercubeSchedule();

    @Test
    void shouldListExactlyTheCubeNeighboursOfEachParticipantWithTreeChildrenFirst()
    {
        for (int n = 1; n <= 40; n++)
        {
            final DoubleHypercubeModel model = new DoubleHypercubeModel(n);
            final int k = model.dimensions();
            for (final Cluster cluster : BroadcastCases.excludedPatterns(n))
            {
                for (final int source : BroadcastCases.participants(cluster))
                {
                    final BroadcastReachability broadcast =
                        new BroadcastReachability(schedule, cluster.clusterSize(), cluster.excluded(), source);
                    for (int label = 0; label < n; label++)
                    {
                        final String where = broadcast.context() + " label " + label;
                        assertEquals(model.degree(label), broadcast.neighbourCount(label), where);
                        for (int i = 0; i < broadcast.neighbourCount(label); i++)
                        {
                            assertTrue(model.adjacentInEither(label, broadcast.neighbour(label, i)), where);
                        }

                        if (model.contains(H1, label))
                        {
                            // H1 binomial-tree children lead, highest dimension first.
                            int next = 0;
                            final int lowest = label == 0 ? k : Integer.numberOfTrailingZeros(label);
                            for (int bit = lowest - 1; bit >= 0; bit--)
                            {
                                assertEquals(label | (1 << bit), broadcast.neighbour(label, next++), where);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldReachEveryLiveCubeMemberWithinKPlusOneHopsForEveryFailureSetOfAtMostKMinusOne()
    {
        long failureSets = 0;
        for (int n = 1; n <= 16; n++)
        {
            final DoubleHypercubeModel model = new DoubleHypercubeModel(n);
            final int tolerated = Math.max(0, model.dimensions() - 1);
            final boolean[] failed = new boolean[n];
            for (final Cluster cluster : BroadcastCases.excludedPatterns(n))
            {
                for (final int source : BroadcastCases.participants(cluster))
                {
                    final BroadcastReachability broadcast =
                        new BroadcastReachability(schedule, cluster.clusterSize(), cluster.excluded(), source);
                    for (int mask = 0; mask < 1 << (n - 1); mask++)
                    {
                        if (Integer.bitCount(mask) <= tolerated)
                        {
                            assertDoubleCubeGuarantee(broadcast, model, BroadcastCases.failedFromMask(n, mask, failed),
                                "exhaustive");
                            failureSets++;
                        }
                    }
                }
            }
        }
        System.out.println("double hypercube: checked " + failureSets + " (cluster, source, F) cases exhaustively");
    }

    @Test
    void shouldReachEveryLiveCubeMemberWithinKPlusOneHopsForRandomClustersUpTo4096()
    {
        final long seed = BroadcastCases.seed("DoubleHypercubeScheduleTest.random");
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] candidates = new int[32];
        for (int i = 0; i < RANDOM_CASES; i++)
        {
            final Cluster cluster = BroadcastCases.randomCluster(random, 4096);
            final int[] ranks = BroadcastCases.participants(cluster);
            final int n = ranks.length;
            final int source = ranks[random.nextInt(n)];
            final DoubleHypercubeModel model = new DoubleHypercubeModel(n);
            final int k = model.dimensions();

            final boolean[] failed;
            final int mode = random.nextInt(3);
            if (mode == 0)
            {
                failed = BroadcastCases.randomFailures(random, n, random.nextInt(k));
            }
            else
            {
                // Most damaging: k-1 of the k cube neighbours of one vertex, forcing the detour paths.
                final int cube = CUBES[mode - 1];
                final int target = model.label(cube, random.nextInt(1, 1 << k));
                final int c = model.coordinate(cube, target);
                for (int bit = 0; bit < k; bit++)
                {
                    candidates[bit] = model.label(cube, c ^ (1 << bit));
                }
                failed = BroadcastCases.failuresAmong(random, n, candidates, k, k - 1);
            }

            final BroadcastReachability broadcast =
                new BroadcastReachability(schedule, cluster.clusterSize(), cluster.excluded(), source);
            assertDoubleCubeGuarantee(broadcast, model, failed, "seed=" + seed + " case " + i);
        }
    }

    @Test
    void shouldFailToReachAVertexWhoseKCubeNeighboursAllFailWhenOnlyThatCubeCarries()
    {
        for (int n = 4; n <= 16; n++)
        {
            final DoubleHypercubeModel model = new DoubleHypercubeModel(n);
            final int k = model.dimensions();
            final int target = (1 << k) - 1;
            final boolean[] failed = new boolean[n];
            for (int bit = 0; bit < k; bit++)
            {
                failed[target ^ (1 << bit)] = true;
            }

            final BroadcastReachability broadcast = new BroadcastReachability(schedule, n, RankArray.of(), 0);
            broadcast.run(failed, (from, to) -> model.adjacent(H1, from, to));
            final int bound = k + 1;
            final AssertionError error = assertThrows(
                AssertionError.class,
                () -> broadcast.assertReachedWithin(label -> model.contains(H1, label), bound, "control"));
            assertTrue(error.getMessage().contains("label " + target + " "), error.getMessage());
            assertEquals(BroadcastReachability.UNREACHED, broadcast.hops(target));

            // For n = 2^k the target is label n-1, H2 coordinate 1: one H2 hop from the source gets around the cut.
            if (n == 1 << k)
            {
                broadcast.run(failed, BroadcastReachability.EVERY_EDGE);
                assertEquals(1, broadcast.hops(target), "n=" + n);
            }
        }
    }

    @Test
    void shouldReportTheFirstUnreachedVertexWhenTheBoundIsTooTight()
    {
        final DoubleHypercubeModel model = new DoubleHypercubeModel(16);
        final BroadcastReachability broadcast = new BroadcastReachability(schedule, 16, RankArray.of(), 0);
        broadcast.run(null, (from, to) -> model.adjacent(H1, from, to));
        broadcast.assertReachedWithin(label -> model.contains(H1, label), 4, "failure-free depth is k");
        assertThrows(
            AssertionError.class,
            () -> broadcast.assertReachedWithin(label -> model.contains(H1, label), 3, "k-1 hops cannot suffice"));
    }

    private static void assertDoubleCubeGuarantee(
        final BroadcastReachability broadcast,
        final DoubleHypercubeModel model,
        final boolean[] failed,
        final String why)
    {
        final int k = model.dimensions();
        for (final int cube : CUBES)
        {
            broadcast.run(failed, (from, to) -> model.adjacent(cube, from, to));
            broadcast.assertReachedWithin(label -> model.contains(cube, label), k + 1, why + " cube H" + cube);
        }

        broadcast.run(failed, BroadcastReachability.EVERY_EDGE);
        broadcast.assertReachedWithin(BroadcastReachability.EVERY_LABEL, k + 1, why + " union");
    }
}
