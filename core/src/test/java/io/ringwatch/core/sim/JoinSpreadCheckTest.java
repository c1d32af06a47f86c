package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The overlap count of the join checker (a sweep over sorted times) against a scan of every broadcast's window.
 */
class JoinSpreadCheckTest
{
    @Test
    void shouldCountTheBroadcastsOverlappingEachJoinAsAScanWould()
    {
        final long seed = Long.getLong("ringwatch.test.seed", 27);
        final SplittableRandom random = new SplittableRandom(seed);
        final int n = 300;
        final int broadcasts = 500;
        final JoinSpreadCheck check = new JoinSpreadCheck(n, 1_000);
        final long[] sent = new long[broadcasts];
        final long[] arrived = new long[broadcasts];
        for (int b = 0; b < broadcasts; b++)
        {
            // coarse times, so that windows often touch at their ends; several copies per broadcast
            final Object broadcast = new Object();
            sent[b] = random.nextInt(50);
            arrived[b] = sent[b];
            for (int copy = random.nextInt(1, 4); copy > 0; copy--)
            {
                final long atNs = sent[b] + random.nextInt(10);
                check.broadcastCopy(broadcast, sent[b], atNs);
                arrived[b] = Math.max(arrived[b], atNs);
            }
        }
        final long[] first = new long[n];
        final long[] last = new long[n];
        for (int rank = 0; rank < n; rank++)
        {
            first[rank] = -1;
            if (random.nextInt(3) == 0)
            {
                continue;
            }
            first[rank] = random.nextInt(70);
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
            for (int b = 0; b < broadcasts; b++)
            {
                if (sent[b] <= last[rank] && arrived[b] >= first[rank])
                {
                    expected++;
                }
            }
            assertEquals(Math.max(1, expected), check.spreadingWith(rank), "rank " + rank + ", seed " + seed);
        }
    }
}
