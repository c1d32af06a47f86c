package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class BroadcastForwarderTest
{
    private static final int N = 8;
    private static final int SELF = 3;

    // rank 3's neighbours for any broadcast: itself (a schedule may list it), 1, 5 and 6, in that order
    private final BroadcastSchedule schedule = new BroadcastSchedule()
    {
        public int maxFanout(final int clusterSize)
        {
            return 4;
        }

        public int neighbours(
            final int self, final int source, final RankSet excluded, final int clusterSize, final int[] out)
        {
            lastSource = source;
            lastExcluded = excluded;
            out[0] = self;
            out[1] = 1;
            out[2] = 5;
            out[3] = 6;
            return 4;
        }
    };
    private int lastSource = -1;
    private RankSet lastExcluded;

    @Test
    void shouldSendToEveryNeighbourButTheSenderAndSelfInScheduleOrder()
    {
        final BroadcastForwarder forwarder = new BroadcastForwarder(schedule, SELF, N);
        final List<String> sent = new ArrayList<>();
        final RankArray excluded = RankArray.of(2);

        assertEquals(2, forwarder.forward(0, excluded, 5, "m", (to, m) -> sent.add(to + m)));
        assertEquals(List.of("1m", "6m"), sent);
        assertEquals(0, lastSource);
        assertSame(excluded, lastExcluded);
    }

    @Test
    void shouldSendToEveryNeighbourButSelfWhenStartingTheBroadcast()
    {
        final BroadcastForwarder forwarder = new BroadcastForwarder(schedule, SELF, N);
        final List<Integer> sent = new ArrayList<>();

        assertEquals(3, forwarder.forward(SELF, RankArray.of(), SELF, "m", (to, m) -> sent.add(to)));
        assertEquals(List.of(1, 5, 6), sent);
        assertEquals(SELF, lastSource);
    }
}
