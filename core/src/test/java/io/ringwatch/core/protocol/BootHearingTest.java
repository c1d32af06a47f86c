package io.ringwatch.core.protocol;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start = join for a seed without a record, and the odd one out of a cluster's key or settings, judged from the
 * answers to a node's hellos.
 */
class BootHearingTest
{
    @Test
    void shouldListenOnlyWhereThePlanIsNoJoin()
    {
        assertTrue(BootHearing.listensFirst(BootPlan.SEED));
        assertTrue(BootHearing.listensFirst(BootPlan.MEMBER));
        assertFalse(BootHearing.listensFirst(BootPlan.JOIN), "a restart on record joins anyway");
        assertFalse(BootHearing.listensFirst(BootPlan.JOIN_AT_BOOT), "a rank that is no seed joins anyway");
    }

    @Test
    void shouldListenHalfTheGraceAtMostThreeSeconds()
    {
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1500), BootHearing.listenNs(TimeUnit.SECONDS.toNanos(3)));
        assertEquals(BootHearing.MAX_LISTEN_NS, BootHearing.listenNs(TimeUnit.SECONDS.toNanos(10)));
        assertEquals(0, BootHearing.listenNs(0), "no grace: no time to listen");
    }

    @Test
    void shouldJoinAsSoonAsAnEstablishedMemberAnswers()
    {
        assertEquals(BootPlan.JOIN, BootHearing.afterListening(BootPlan.MEMBER, 2, 1, 1, false));
        assertEquals(BootPlan.JOIN, BootHearing.afterListening(BootPlan.SEED, 4, 4, 1, true));
    }

    @Test
    void shouldBootAsPlannedOnceEveryPeerAskedAnsweredFromWithinItsGrace()
    {
        assertEquals(BootPlan.MEMBER, BootHearing.afterListening(BootPlan.MEMBER, 2, 2, 0, false));
        assertEquals(BootPlan.SEED, BootHearing.afterListening(BootPlan.SEED, 4, 4, 0, false));
    }

    @Test
    void shouldListenOnWhileAPeerIsSilentAndTheWindowLasts()
    {
        assertNull(BootHearing.afterListening(BootPlan.MEMBER, 2, 1, 0, false));
        assertNull(BootHearing.afterListening(BootPlan.MEMBER, 2, 0, 0, false));
        assertEquals(BootPlan.MEMBER, BootHearing.afterListening(BootPlan.MEMBER, 2, 1, 0, true),
            "a first boot whose peers are not up yet: the seed boots once its window is over");
        assertEquals(BootPlan.MEMBER, BootHearing.afterListening(BootPlan.MEMBER, 2, 0, 0, true));
    }

    @Test
    void shouldFindTheOddOneOutOnlyWithoutAnyAgreeingAnswer()
    {
        assertTrue(BootHearing.oddOneOut(2, 0, 2), "both peers differ");
        assertTrue(BootHearing.oddOneOut(4, 0, 3));
        assertTrue(BootHearing.oddOneOut(1, 0, 1), "a cluster of two: both stop");
        assertFalse(BootHearing.oddOneOut(2, 1, 1), "one peer agrees: the other one differs");
        assertFalse(BootHearing.oddOneOut(2, 0, 1), "half of the peers asked, the other half silent: not sure");
        assertFalse(BootHearing.oddOneOut(4, 0, 2));
        assertFalse(BootHearing.oddOneOut(3, 0, 0), "nobody answered");
    }
}
