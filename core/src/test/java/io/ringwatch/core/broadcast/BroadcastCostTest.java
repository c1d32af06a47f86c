package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.broadcast.DoubleHypercubeModel.H1;
import static io.ringwatch.core.broadcast.DoubleHypercubeModel.H2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failure-free cost of one broadcast: every participant forwards once to all its scheduled neighbours but the
 * one it first heard from, so a symmetric schedule sends {@code sum of degrees - (n - 1)} messages. The numbers
 * are printed for the record; the assertions pin them to counts derived independently of the schedule.
 */
class BroadcastCostTest
{
    private static final int[] SIZES = { 8, 16, 1000, 4096, 262_144 };

    @Test
    void shouldSendOneCopyOverEveryCubeEdgeButTheReceivingOneAndFinishEachCubeInKHops()
    {
        for (final int n : SIZES)
        {
            final DoubleHypercubeModel model = new DoubleHypercubeModel(n);
            final int k = model.dimensions();
            final BroadcastReachability broadcast =
                new BroadcastReachability(new DoubleHypercubeSchedule(), n, RankArray.of(), 0);

            for (final int cube : new int[]{ H1, H2 })
            {
                broadcast.run(null, (from, to) -> model.adjacent(cube, from, to));
                assertEquals(k, broadcast.depth(label -> model.contains(cube, label)), "n=" + n + " cube H" + cube);
            }

            broadcast.run(null, BroadcastReachability.EVERY_EDGE);
            long degreeSum = 0;
            for (int label = 0; label < n; label++)
            {
                degreeSum += model.degree(label);
            }
            assertEquals(degreeSum - (n - 1), broadcast.sends(), "n=" + n);
            assertEveryoneGotACopy(broadcast);
            final int depth = broadcast.depth(BroadcastReachability.EVERY_LABEL);
            assertTrue(depth <= k, "n=" + n + " depth " + depth);
            print("double hypercube", n, broadcast, depth);
        }
    }

    @Test
    void shouldSendOneCopyOverEveryBinomialGraphLinkButTheReceivingOne()
    {
        for (final int n : SIZES)
        {
            final BroadcastReachability broadcast =
                new BroadcastReachability(new BinomialGraphSchedule(), n, RankArray.of(), 0);
            broadcast.run(null, BroadcastReachability.EVERY_EDGE);

            final long degree = BinomialGraphSchedule.faultTolerance(n) + 1;
            assertEquals((long)n * degree - (n - 1), broadcast.sends(), "n=" + n);
            assertEveryoneGotACopy(broadcast);
            final int depth = broadcast.depth(BroadcastReachability.EVERY_LABEL);
            assertTrue(depth <= 32 - Integer.numberOfLeadingZeros(n - 1), "n=" + n + " depth " + depth);
            print("binomial graph  ", n, broadcast, depth);
        }
    }

    private static void assertEveryoneGotACopy(final BroadcastReachability broadcast)
    {
        for (int label = 1; label < broadcast.participants(); label++)
        {
            assertTrue(broadcast.copies(label) >= 1, broadcast.context() + " label " + label);
        }
    }

    private static void print(final String name, final int n, final BroadcastReachability broadcast, final int depth)
    {
        int maxCopies = 0;
        for (int label = 0; label < n; label++)
        {
            maxCopies = Math.max(maxCopies, broadcast.copies(label));
        }
        System.out.printf(
            "%s n=%7d messages=%9d per-participant=%6.2f hops=%2d max-copies=%2d%n",
            name, n, broadcast.sends(), broadcast.sends() / (double)n, depth, maxCopies);
    }
}
