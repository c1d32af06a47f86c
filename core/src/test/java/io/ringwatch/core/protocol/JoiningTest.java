package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The joiner's side alone: what it keeps from notices that overtake its view, and how it merges the view.
 */
class JoiningTest
{
    private static final int N = 8;
    private static final int RANK = 3;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final Membership membership = new Membership(50);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, 10, 100);
    private final Notices notices = new Notices(RANK, 1, settings, new DoubleHypercubeSchedule(), io, membership,
        dead, counters);
    private final Joining joining = new Joining(ring, dead, membership,
        new Reform(RANK, N, 400, 200, false, counters), notices, io, counters, settings);

    @Test
    void shouldKeepADeathThatOvertakesTheViewWithoutForwardingIt()
    {
        joining.learn(TestNotice.of(6, 1, 5), 1);

        assertTrue(dead.contains(6));
        assertTrue(io.notices.isEmpty(), "a joiner takes no part in broadcasts yet");
    }

    @Test
    void shouldIgnoreFencesAndMinorityNotices()
    {
        joining.learn(TestNotice.of(6, 1, NoticeSequences.FENCE_BASE + 1), 1);
        joining.learn(TestNotice.of(5, 1, NoticeSequences.MINORITY_BASE + 1), 1);

        assertEquals(0, dead.size());
    }

    @Test
    void shouldLetTheNewerIncarnationWinAndDeathWinAtEqualOnesWhenMergingTheView()
    {
        // learned before the view: rank 6 rejoined under incarnation 2 (alive here), rank 5 died at incarnation 0
        membership.incarnations().raise(6, 2);
        dead.add(5);
        final RankArray viewDead = RankArray.of(6, 7);
        final IncarnationTable viewIncarnations = new IncarnationTable(4);
        viewIncarnations.raise(6, 1);

        joining.mergeView(viewDead, viewIncarnations);

        assertFalse(dead.contains(6), "the view's older life of 6 is dead; the newer one learned here is not");
        assertTrue(dead.contains(5), "a death learned here stands");
        assertTrue(dead.contains(7));
        assertEquals(2, membership.incarnationOf(6));
    }

    @Test
    void shouldAskTheNextContactWhenAnAttemptIsDue()
    {
        membership.startJoin(0);

        assertEquals(1, joining.askIfDue(0, false, true, RANK, 0x5EED));
        assertEquals(1, io.sentOfType("joinRequest").size());
        assertEquals(0x5EED, io.lastJoinerNonce, "the request carries the joiner's nonce");
        assertEquals(1, counters.get(ProtocolCounter.JOIN_REQUESTS_SENT));
        assertEquals(0, joining.askIfDue(1, false, true, RANK, 0x5EED), "the next attempt waits for the retry period");
    }
}
