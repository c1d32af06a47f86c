package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The settled membership M once ranks rejoin: dead sets shrink as well as grow.
 */
class QuorumTest
{
    private static final long SETTLE = 100;

    @Test
    void shouldCountAJoinerOnlyOnceMHasSettledWithIt()
    {
        final Quorum quorum = new Quorum(10, SETTLE, 0);
        final RankArray dead = RankArray.of(5, 6, 7, 8);
        quorum.viewChanged(0);
        quorum.settleIfDue(dead, SETTLE);
        assertEquals(6, quorum.members());

        dead.remove(5);
        quorum.viewChanged(200);
        quorum.settleIfDue(dead, 250);
        assertEquals(6, quorum.members(), "M stays as it is for a settle period after the join");
        assertEquals(6, quorum.aliveMembers(dead), "the joiner is alive but not yet a member");
        assertTrue(quorum.isOutside(5));

        quorum.settleIfDue(dead, 200 + SETTLE);
        assertEquals(7, quorum.members());
        assertEquals(7, quorum.aliveMembers(dead));
        assertFalse(quorum.isOutside(5));
    }

    @Test
    void shouldSettleAJoinAndADeathThatLeaveTheDeadSetAsLargeAsBefore()
    {
        final Quorum quorum = new Quorum(10, SETTLE, 0);
        final RankArray dead = RankArray.of(6, 7, 8);
        quorum.viewChanged(0);
        quorum.settleIfDue(dead, SETTLE);

        dead.remove(8);
        dead.add(9);
        quorum.viewChanged(200);
        quorum.settleIfDue(dead, 200 + SETTLE);

        assertFalse(quorum.isOutside(8), "the joiner is a member");
        assertTrue(quorum.isOutside(9), "the dead rank is not");
        assertEquals(7, quorum.members());
    }

    @Test
    void shouldNotLetNonMembersMakeAMajority()
    {
        final Quorum quorum = new Quorum(10, SETTLE, 0);
        final RankArray dead = RankArray.of(0, 1, 2, 3);
        quorum.viewChanged(0);
        quorum.settleIfDue(dead, SETTLE);
        assertEquals(6, quorum.members());

        // 0..3 rejoin, then three of the six members die within the settle period
        final RankArray now = RankArray.of(4, 5, 6);
        quorum.viewChanged(150);
        quorum.settleIfDue(now, 160);

        assertEquals(3, quorum.aliveMembers(now));
        assertFalse(quorum.holds(quorum.aliveMembers(now), !now.contains(quorum.lowestMember())),
            "seven ranks alive, but only three of M's six: exactly half without M's lowest rank (4)");
    }

    @Test
    void shouldGrowByJoinersOnceTheViewWasQuietForTheShorterPeriodAndOnlyRanksJoined()
    {
        final RankArray dead = RankArray.of(5, 6, 7, 8);
        final Quorum quorum = settledWith(dead);

        dead.remove(5);
        quorum.viewChanged(200);
        assertFalse(quorum.growIfOnlyJoined(dead, 239, 40), "not before the view was quiet that long");
        assertTrue(quorum.isOutside(5));
        assertTrue(quorum.growIfOnlyJoined(dead, 240, 40));
        assertFalse(quorum.isOutside(5));
        assertEquals(7, quorum.members());
        assertFalse(quorum.growIfOnlyJoined(dead, 300, 40), "nothing changed since");
    }

    @Test
    void shouldNotGrowEarlyWhenARankDiedSinceMSettled()
    {
        final RankArray dead = RankArray.of(5, 6, 7, 8);
        final Quorum quorum = settledWith(dead);

        // 5 joins, 0 dies: M may shrink only after the whole settle period
        dead.remove(5);
        dead.add(0);
        quorum.viewChanged(200);
        assertFalse(quorum.growIfOnlyJoined(dead, 260, 40));
        assertTrue(quorum.isOutside(5));
        assertFalse(quorum.isOutside(0));
        assertEquals(6, quorum.members());
    }

    private static Quorum settledWith(final RankArray dead)
    {
        final Quorum quorum = new Quorum(10, SETTLE, 0);
        quorum.viewChanged(0);
        quorum.settleIfDue(dead, SETTLE);
        return quorum;
    }

    /**
     * The nemesis's run 5: a joiner that counted itself at once held a larger M than the members that had just
     * admitted it, and won a tie they lost.
     */
    @Test
    void shouldLeaveAJoinerOutOfItsOwnMUntilTheViewHasBeenQuietForTheJoinsTime()
    {
        final Quorum quorum = new Quorum(8, SETTLE, 0);
        final RankArray dead = RankArray.of(5, 6);
        quorum.adoptAsJoiner(dead, 4);
        quorum.viewChanged(10);
        assertEquals(5, quorum.members(), "M is the contact's, without the joiner");
        assertTrue(quorum.isOutside(4));
        assertEquals(5, quorum.aliveMembers(dead));

        assertFalse(quorum.growIfOnlyJoined(dead, 49, 40));
        assertTrue(quorum.growIfOnlyJoined(dead, 50, 40), "in once the view was quiet for the join's time");
        assertEquals(6, quorum.members());
        assertFalse(quorum.isOutside(4));
    }
}
