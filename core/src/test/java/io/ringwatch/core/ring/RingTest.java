package io.ringwatch.core.ring;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

class RingTest
{
    private final RankArray dead = new RankArray(8);
    private final Ring ring = new Ring(3, 8, dead);

    @Test
    void shouldWatchThePreviousRankAndBeWatchedByTheNextWhenNobodyIsDead()
    {
        assertEquals(2, ring.predecessor());
        assertEquals(4, ring.successor());
        assertEquals(1, ring.distance(2));
        assertEquals(0, ring.distance(3));
        assertEquals(7, ring.distance(4));
        assertEquals(1, ring.distanceAhead(4));
        assertEquals(7, ring.distanceAhead(2));
        assertEquals(0, ring.distanceAhead(3));
    }

    @Test
    void shouldFindTheEmitterBackFromTheDeadOneAcrossRankZero()
    {
        dead.add(2);
        dead.add(1);
        dead.add(0);
        dead.add(7);

        assertEquals(6, ring.findEmitter(2));
        assertEquals(6, ring.predecessor());
        assertEquals(5, ring.previousAlive(6));
        assertEquals(6, ring.previousAlive(3));
    }

    @Test
    void shouldKeepALiveEmitterAsItIs()
    {
        dead.add(1);

        assertEquals(2, ring.findEmitter(2));
    }

    @Test
    void shouldFindTheObserverForwardFromTheDeadOne()
    {
        dead.add(4);
        dead.add(5);

        assertEquals(6, ring.findObserver(4));
        assertEquals(6, ring.successor());
        assertEquals(6, ring.nextAlive(3));
    }

    @Test
    void shouldBeItsOwnNeighbourWhenAlone()
    {
        for (int r = 0; r < 8; r++)
        {
            if (r != 3)
            {
                dead.add(r);
            }
        }

        assertEquals(3, ring.predecessor());
        assertEquals(3, ring.successor());
        assertEquals(3, ring.findEmitter(2));
        assertEquals(3, ring.findObserver(4));
        assertEquals(0, ring.liveSuccessors(new int[4]));
    }

    @Test
    void shouldStopAWalkAtThisNodeEvenIfItsViewHoldsItDead()
    {
        dead.add(3);

        assertEquals(3, ring.nextAlive(2));
        assertEquals(3, ring.previousAlive(4));
    }

    @Test
    void shouldListTheNearestLiveSuccessorsUpToTheArrayLength()
    {
        dead.add(5);
        dead.add(0);
        final int[] successors = new int[3];

        assertEquals(3, ring.liveSuccessors(successors));
        assertArrayEquals(new int[] {4, 6, 7}, successors);

        final int[] all = new int[10];
        assertEquals(5, ring.liveSuccessors(all));
        assertArrayEquals(new int[] {4, 6, 7, 1, 2}, java.util.Arrays.copyOf(all, 5));
    }

    @Test
    void shouldListTheNearestLivePredecessorsEmitterFirst()
    {
        dead.add(2);
        dead.add(7);
        final int[] predecessors = new int[3];

        assertEquals(3, ring.livePredecessors(predecessors));
        assertArrayEquals(new int[] {1, 0, 6}, predecessors);

        final int[] all = new int[10];
        assertEquals(5, ring.livePredecessors(all));
        assertArrayEquals(new int[] {1, 0, 6, 5, 4}, java.util.Arrays.copyOf(all, 5));
    }

    @Test
    void shouldTellRanksFromOtherInts()
    {
        assertTrue(ring.isRank(0) && ring.isRank(7));
        assertFalse(ring.isRank(-1) || ring.isRank(8));
        assertThrows(IllegalArgumentException.class, () -> new Ring(8, 8, dead));
    }
}
