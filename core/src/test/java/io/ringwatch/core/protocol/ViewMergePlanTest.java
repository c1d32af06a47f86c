package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The merge of a neighbour's view, planned alone: which deaths and lives it takes, in which order.
 */
class ViewMergePlanTest
{
    private static final int N = 8;
    private static final int RANK = 3;

    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final IncarnationTable known = new IncarnationTable(4);
    private final Quorum quorum = new Quorum(N, 1_000, 0);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ViewRepair repair = new ViewRepair(100, counters);

    @Test
    void shouldTakeANewerLifeAliveAndDeathsAtEqualIncarnations()
    {
        final IncarnationTable viewIncarnations = new IncarnationTable(4);
        viewIncarnations.raise(5, 2);

        final int steps = repair.planMerge(ring, dead, known, quorum, true, RankArray.of(6), viewIncarnations);

        assertEquals(2, steps);
        assertEquals(ViewRepair.REPLACED, repair.stepKind(0));
        assertEquals(5, repair.stepRank(0));
        assertEquals(2, repair.stepIncarnation(0));
        assertEquals(ViewRepair.DIES, repair.stepKind(1));
        assertEquals(6, repair.stepRank(1));
    }

    @Test
    void shouldNeverTakeThisNodesOwnEntryOrAMinoritysDeaths()
    {
        // 5 of 8 dead would leave 3 alive: no majority of M
        final int steps = repair.planMerge(ring, dead, known, quorum, true, RankArray.of(0, 1, 2, 3, 4, 5),
            new IncarnationTable(4));

        assertEquals(0, steps);
        assertEquals(1, counters.get(ProtocolCounter.VIEW_REPAIRS_REFUSED));
        assertEquals(5, repair.planMerge(ring, dead, known, quorum, false, RankArray.of(0, 1, 2, 3, 4, 5),
            new IncarnationTable(4)), "the paper's rule takes them (all but this node's own)");
    }

    @Test
    void shouldLeaveDeathsOfOlderLivesAlone()
    {
        known.raise(6, 3);
        final IncarnationTable viewIncarnations = new IncarnationTable(4);
        viewIncarnations.raise(6, 1);

        assertEquals(0, repair.planMerge(ring, dead, known, quorum, true, RankArray.of(6), viewIncarnations));
    }

    @Test
    void shouldGrowItsPlanForALargeDisagreement()
    {
        final Ring big = new Ring(0, 64, dead);
        final Quorum bigQuorum = new Quorum(64, 1_000, 0);
        final RankArray viewDead = new RankArray(32);
        for (int r = 1; r <= 20; r++)
        {
            viewDead.add(r);
        }

        assertEquals(20, repair.planMerge(big, dead, known, bigQuorum, true, viewDead, new IncarnationTable(4)));
        assertEquals(20, repair.stepRank(19));
    }
}
