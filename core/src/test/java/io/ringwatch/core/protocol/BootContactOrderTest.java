package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The joiner's contact order when the cluster boots through joins: successor, predecessor, the seeds, then the rest,
 * each other rank once per cycle.
 */
class BootContactOrderTest
{
    @Test
    void shouldAskNeighboursThenSeedsThenEveryoneElseOncePerCycle()
    {
        for (int n = 2; n <= 40; n++)
        {
            for (int seeds = 1; seeds < n; seeds++)
            {
                for (int rank = 0; rank < n; rank++)
                {
                    final boolean[] asked = new boolean[n];
                    int seedsSeen = 0;
                    for (int attempt = 0; attempt < n - 1; attempt++)
                    {
                        final int contact = Membership.contact(rank, n, seeds, attempt);
                        final String where = "n=" + n + " seeds=" + seeds + " rank=" + rank + " attempt=" + attempt;
                        assertTrue(contact >= 0 && contact < n && contact != rank, where);
                        assertFalse(asked[contact], where + ": " + contact + " twice");
                        asked[contact] = true;
                        if (attempt == 0)
                        {
                            assertEquals((rank + 1) % n, contact, where);
                        }
                        else if (attempt == 1)
                        {
                            assertEquals(Math.floorMod(rank - 1, n), contact, where);
                        }
                        else if (contact < seeds)
                        {
                            // every seed comes before any rank that is no seed
                            assertEquals(attempt - 2, seedsSeen++, where);
                        }
                        // the next cycle starts over
                        assertEquals(contact, Membership.contact(rank, n, seeds, attempt + n - 1), where);
                    }
                }
            }
        }
    }

    @Test
    void shouldKeepTheRingOrderWithoutSeeds()
    {
        for (int attempt = 0; attempt < 20; attempt++)
        {
            assertEquals(Membership.contact(5, 11, attempt), Membership.contact(5, 11, 11, attempt));
        }
    }
}
