package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The overlap count of the join checker (a sweep over sorted times) against the scan of every rank it replaced.
 */
class JoinSpreadCheckTest
{
    @Test
    void shouldCountOverlappingJoinsAsAScanOfEveryRankWould()
    {
        final long seed = Long.getLong("ringwatch.test.seed", 27);
        final SplittableRandom random = new SplittableRandom(seed);
        final int n = 300;
        final JoinSpreadCheck check = new JoinSpreadCheck(n, 1_000);
        final long[] first = new long[n];
        final long[] last = new long[n];
        for (int rank = 0; rank < n; rank++)
        {
            first[rank] = -1;
            if (random.nextInt(3) == 0)
            {
                continue;
            }
            // coarse times, so that intervals often touch at their ends
            first[rank] = random.nextInt(50);
            last[rank] = first[rank] + random.nextInt(10);
            check.applied(rank, first[rank]);
            check.applied(rank, last[rank]);
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (first[rank] == -1)
            {
                continue;
            }
            int expected = 0;
            for (int other = 0; other < n; other++)
            {
                if (first[other] != -1 && first[other] <= last[rank] && last[other] >= first[rank])
                {
                    expected++;
                }
            }
            assertEquals(expected, check.spreadingWith(rank), "rank " + rank + ", seed " + seed);
        }
    }
}
