package io.ringwatch.core.spi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankArrayTest
{
    @Test
    void shouldKeepRanksAscendingWhateverTheInsertOrder()
    {
        final RankArray set = new RankArray(1);
        assertTrue(set.add(9));
        assertTrue(set.add(2));
        assertTrue(set.add(5));
        assertFalse(set.add(5));

        assertEquals(3, set.size());
        assertEquals(2, set.rankAt(0));
        assertEquals(5, set.rankAt(1));
        assertEquals(9, set.rankAt(2));
        assertEquals(1, set.countBelow(5));
        assertEquals(2, set.countBelow(6));
        assertTrue(set.contains(9));
        assertFalse(set.contains(3));
        assertEquals("[2, 5, 9]", set.toString());
    }

    @Test
    void shouldNotGrowPastMaxCapacity()
    {
        final RankArray set = new RankArray(2, 3);
        set.add(1);
        set.add(2);
        set.add(3);
        assertEquals(3, set.capacity());
        assertThrows(IllegalStateException.class, () -> set.add(4));
        assertEquals(3, set.size());
    }

    @Test
    void shouldRejectRunThatIsNotAboveEveryMember()
    {
        final RankArray set = new RankArray(4);
        set.appendRun(3, 2);
        assertThrows(IllegalArgumentException.class, () -> set.appendRun(4, 1));
        set.appendRun(6, 2);
        assertEquals("[3, 4, 6, 7]", set.toString());
    }

    @Test
    void shouldReuseStorageAfterClear()
    {
        final RankArray set = RankArray.of(8, 1, 4);
        final RankArray copy = RankArray.copyOf(set);
        set.clear();
        set.ensureCapacity(3);
        assertEquals(0, set.size());
        assertEquals(3, set.capacity());
        assertEquals("[1, 4, 8]", copy.toString());
        set.copyFrom(copy);
        assertEquals(copy.toString(), set.toString());
    }

    @Test
    void shouldReplaceMembersWithRunsGrowingOnceToTheirTotal()
    {
        final RankArray set = RankArray.of(0, 50);
        set.setRuns(runs(2, 3, 7, 1, 10, 4));
        assertEquals("[2, 3, 4, 7, 10, 11, 12, 13]", set.toString());
        assertEquals(8, set.capacity());

        set.setRuns(runs());
        assertEquals(0, set.size());
        assertEquals(8, set.capacity());
    }

    @Test
    void shouldRefuseRunsHoldingMoreThanMaxCapacity()
    {
        final RankArray set = new RankArray(2, 5);
        assertThrows(IllegalStateException.class, () -> set.setRuns(runs(0, 3, 4, 3)));
    }

    @Test
    void shouldRefuseDuplicateRanksWhenBuiltFromValues()
    {
        assertThrows(IllegalArgumentException.class, () -> RankArray.of(1, 2, 1));
    }

    // (first, length) pairs
    private static RankRuns runs(final int... pairs)
    {
        return new RankRuns()
        {
            public int rangeCount()
            {
                return pairs.length / 2;
            }

            public int rangeFirstRank(final int index)
            {
                return pairs[2 * index];
            }

            public int rangeLength(final int index)
            {
                return pairs[2 * index + 1];
            }
        };
    }
}
