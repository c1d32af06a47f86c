package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ear check's evidence alone: witnesses, answers counted once, a recount that keeps the session's answers.
 */
class ProbeTallyTest
{
    private static final int N = 16;
    private static final int RANK = 5;

    private final RankArray dead = RankArray.of(1);
    private final Quorum quorum = new Quorum(N, 1_000, 0);
    private final ProbeTally tally = new ProbeTally(RANK, N, dead, quorum, true);

    @Test
    void shouldPickWitnessesAtPowersOfTwoSkippingItselfAndTheEmitterWithTheNearestLiveRankForADeadOne()
    {
        quorum.adopt(new RankArray(1));
        tally.startSession(4);

        // 2^i away on either side of 5: 6, 4 (the emitter), 7, 3, 9, 1 (dead: 0 beyond it stands in), 13, 13 (once)
        assertEquals(6, tally.witnessCount());
        assertEquals(6, tally.witness(0));
        assertEquals(7, tally.witness(1));
        assertEquals(3, tally.witness(2));
        assertEquals(9, tally.witness(3));
        assertEquals(0, tally.witness(4));
        assertEquals(13, tally.witness(5));
        assertFalse(tally.isWitness(4));
        assertFalse(tally.isWitness(1));
    }

    @Test
    void shouldLeaveADeadWitnessOutWithoutAStandInUnderTheBrokenRule()
    {
        final ProbeTally thin = new ProbeTally(RANK, N, dead, quorum, false);
        quorum.adopt(new RankArray(1));
        thin.startSession(4);
        assertEquals(5, thin.witnessCount());
        assertFalse(thin.isWitness(0));
    }

    @Test
    void shouldCountARankOnceAndTakeEveryWitnessAsEvidence()
    {
        quorum.adopt(new RankArray(1));
        tally.startSession(4);

        tally.count(6);
        tally.count(6);
        tally.count(7);
        tally.count(3);
        assertFalse(tally.allWitnessesAnswered());
        assertFalse(tally.hasMajorityEvidence(), "3 answers and itself: 4 of 16");

        tally.count(9);
        tally.count(13);
        assertFalse(tally.allWitnessesAnswered(), "0 stands in for the dead 1");
        tally.count(0);
        assertTrue(tally.allWitnessesAnswered());
        assertTrue(tally.hasMajorityEvidence(), "every witness answered: the sample shows no cut");
    }

    @Test
    void shouldNotTakeAnswersFromRanksAdmittedSinceMSettledAsEvidence()
    {
        // M is 0..7 (8..15 joined since it settled): answers from joiners say nothing about a majority of M
        final RankArray joiners = new RankArray(8);
        for (int r = 8; r < N; r++)
        {
            joiners.add(r);
        }
        quorum.adopt(joiners);
        tally.startSession(4);
        for (final int r : new int[]{6, 7, 9, 10, 11, 12, 13})
        {
            tally.count(r);
        }
        assertFalse(tally.hasMajorityEvidence(), "6, 7 and itself are 3 of M's 8; the five joiners do not count");
        tally.count(2);
        tally.count(3);
        assertTrue(tally.hasMajorityEvidence(), "5 of M's 8");
    }

    @Test
    void shouldCountAMajorityOfTheSettledMembershipWithoutEveryWitness()
    {
        quorum.adopt(new RankArray(1));
        tally.startSession(4);
        for (final int r : new int[] {2, 8, 10, 11, 12, 14, 15})
        {
            tally.count(r);
        }
        assertFalse(tally.hasMajorityEvidence(), "7 answers and itself: 8 of 16, a tie without the lowest member 0");

        tally.count(0);
        assertTrue(tally.hasMajorityEvidence(), "9 of 16");
    }

    @Test
    void shouldRecountFromNothingButRememberWhoAnsweredTheSession()
    {
        quorum.adopt(new RankArray(1));
        tally.startSession(4);
        tally.count(6);
        tally.startRecount();

        assertFalse(tally.anyAnswered());
        assertTrue(tally.answeredInSession(6));
        tally.count(6);
        assertTrue(tally.anyAnswered(), "the recount counts the rank again");
    }

    @Test
    void shouldNotCountAJoinerItselfBeforeItIsInM()
    {
        // M is every rank but the dead 1 and this node, a joiner: 14 members, 7 of them without the lowest are no
        // majority; counting itself made it 8 of 14 (the nemesis, run 6)
        quorum.adoptAsJoiner(RankArray.of(1), RANK);
        tally.startSession(4);
        for (final int r : new int[]{2, 8, 10, 11, 12, 14, 15})
        {
            tally.count(r);
        }
        assertFalse(tally.allWitnessesAnswered());
        assertFalse(tally.hasMajorityEvidence(), "7 of 14 without the lowest rank");
        tally.count(0);
        assertTrue(tally.hasMajorityEvidence(), "8 of 14");
    }
}
