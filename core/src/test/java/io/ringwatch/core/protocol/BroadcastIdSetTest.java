package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dedup set grows as ids come and, once full, forgets the oldest first: the same answers as a set made at full
 * capacity.
 */
class BroadcastIdSetTest
{
    @Test
    void shouldRememberEveryIdUpToItsCapacityWhileGrowing()
    {
        final BroadcastIdSet set = new BroadcastIdSet(10);
        for (int i = 0; i < 10; i++)
        {
            assertTrue(set.addIfAbsent(i, 1, 100 + i), "new id " + i);
        }
        for (int i = 0; i < 10; i++)
        {
            assertFalse(set.addIfAbsent(i, 1, 100 + i), "id " + i + " is remembered");
        }
    }

    @Test
    void shouldForgetTheOldestOnceFull()
    {
        final BroadcastIdSet set = new BroadcastIdSet(5);
        for (int i = 0; i < 7; i++)
        {
            assertTrue(set.addIfAbsent(3, 0, i));
        }
        for (int i = 2; i < 7; i++)
        {
            assertFalse(set.addIfAbsent(3, 0, i), "sequence " + i + " is still held");
        }
        assertTrue(set.addIfAbsent(3, 0, 1), "the second oldest was forgotten");
        assertTrue(set.addIfAbsent(3, 0, 0), "and the oldest");
        assertFalse(set.addIfAbsent(3, 0, 5));
        assertTrue(set.addIfAbsent(3, 0, 2), "sequence 2 made room for 1");
    }

    @Test
    void shouldTellIncarnationsAndSourcesApart()
    {
        final BroadcastIdSet set = new BroadcastIdSet(64);
        assertTrue(set.addIfAbsent(1, 0, 7));
        assertTrue(set.addIfAbsent(1, 1, 7));
        assertTrue(set.addIfAbsent(2, 0, 7));
        assertFalse(set.addIfAbsent(1, 1, 7));
    }
}
