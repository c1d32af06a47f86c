package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one writer of D and of the node's role: each change reaches the application once, in order.
 */
class LocalViewTest
{
    private static final int N = 8;
    private static final int RANK = 3;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Quorum quorum = new Quorum(N, 1_000, 0);
    private final LocalView view = new LocalView(RANK, dead, new Membership(50), quorum, io, 100);

    @Test
    void shouldReportEachDeathOnceAndNeverItsOwnRank()
    {
        assertTrue(view.learnDead(5, 10, FailureCause.DETECTED, RANK));
        assertFalse(view.learnDead(5, 11, FailureCause.NOTICE, 1), "already dead");
        assertFalse(view.learnDead(RANK, 12, FailureCause.NOTICE, 1), "a node never holds itself dead");

        assertEquals(List.of("failure 5 DETECTED by 3 at 10"), io.events);
        assertEquals(1, dead.size());
    }

    @Test
    void shouldMoveTheEpochOncePerCompletedChangeAndRestartTheSettlePeriod()
    {
        view.learnDead(5, 10, FailureCause.DETECTED, RANK);
        view.learnDead(6, 10, FailureCause.DETECTED, RANK);
        view.changed(10);
        view.revive(5);
        view.reportJoin(5, 2, 20);
        view.changed(20);

        assertEquals(2, view.epoch());
        assertEquals(List.of("failure 5 DETECTED by 3 at 10", "failure 6 DETECTED by 3 at 10", "view 1 dead=2",
            "join 5/2 at 20", "view 2 dead=1"), io.events);
        assertEquals(20, quorum.lastChangeNs());
    }

    @Test
    void shouldStopOnItsOwnFaultOnceAndTellLeavingFromExclusion()
    {
        view.stopOnOwnFault(5, ExclusionCause.DRIVER_LOST);
        view.stopOnOwnFault(6, ExclusionCause.TRANSPORT_FAULT);

        assertEquals(NodeState.EXCLUDED, view.state());
        assertEquals(List.of("excluded by 3 at 5", "exclusion cause DRIVER_LOST"), io.events, "stopped once");

        final LocalView leaving = new LocalView(RANK, new RankArray(4), new Membership(50), quorum, io, 100);
        leaving.exclude(7, ExclusionCause.LEFT, RANK);
        assertEquals(NodeState.LEFT, leaving.state());
        assertFalse(leaving.active());
    }
}
