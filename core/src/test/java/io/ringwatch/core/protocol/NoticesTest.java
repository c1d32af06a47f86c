package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoticesTest
{
    private static final int N = 16;
    private static final int RANK = 5;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = RankArray.of(2, 9);
    private final Membership membership = new Membership(1_000);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final Notices notices = new Notices(RANK, 0, ProtocolSettings.of(N, 10, 100),
        new DoubleHypercubeSchedule(), io, membership, dead, counters);

    @Test
    void shouldBroadcastAFailureWithTheViewAsDMsgToTheScheduleOnly()
    {
        notices.originateFailure(9);

        assertFalse(io.notices.isEmpty());
        assertTrue(io.notices.stream().allMatch((n) -> ranks(n.deadSet()).equals(List.of(2, 9)) && n.deadRank() == 9 && !n.join()));
        assertTrue(io.notices.stream().noneMatch((n) -> n.to() == RANK || dead.contains(n.to())));
        assertEquals(1, counters.get(ProtocolCounter.NOTICES_ORIGINATED));
    }

    @Test
    void shouldListTheJoinerInItsJoinsDMsgWithoutTouchingTheView()
    {
        notices.originateJoin(7, 3);

        assertEquals(List.of(2, 9), ranks(dead), "the live view is never edited to build a D_msg");
        assertTrue(io.notices.stream().allMatch((n) -> ranks(n.deadSet()).equals(List.of(2, 7, 9)) && n.join() &&
            n.subjectIncarnation() == 3 && n.to() != 7));
    }

    @Test
    void shouldSendAHealToItsSubjectToo()
    {
        notices.originateHeal(4);

        assertTrue(io.notices.stream().allMatch((n) -> NoticeKind.of(n.sequence(), n.join()) == NoticeKind.HEAL));
        assertEquals(1, io.notices.stream().filter((n) -> n.to() == 4).count());
        assertEquals(List.of(2, 9), ranks(dead));
    }

    @Test
    void shouldNumberFencesInTheirOwnBandOnePerFence()
    {
        notices.sendFence(9);
        notices.sendFence(9);

        assertEquals(2, io.notices.size());
        assertEquals(NoticeSequences.FENCE_BASE + 1, io.notices.get(0).sequence());
        assertEquals(NoticeSequences.FENCE_BASE + 2, io.notices.get(1).sequence());
        assertEquals(2, counters.get(ProtocolCounter.FENCES_SENT));
    }

    @Test
    void shouldTakeEachBroadcastOnceIncludingItsOwn()
    {
        final TestNotice notice = TestNotice.of(9, 1, 4, 2);

        assertTrue(notices.firstReceipt(notice));
        assertFalse(notices.firstReceipt(notice));

        notices.originateFailure(9);
        final RecordingChannels.SentNotice own = io.notices.get(0);
        assertFalse(notices.firstReceipt(new TestNotice(9, RANK, 0, own.sequence(), dead)), "its own comes back");
    }

    @Test
    void shouldNotForwardACopyWhoseDMsgListsThisNode()
    {
        notices.forward(TestNotice.of(9, 1, 4, RANK), 1);

        assertTrue(io.notices.isEmpty());
        assertEquals(0, counters.get(ProtocolCounter.NOTICES_FORWARDED));
    }

    @Test
    void shouldHandACopyToALiveNeighbourThatTheDMsgStillLists()
    {
        // rank 4 rejoined after the broadcast started: its D_msg still lists it, so its schedule skips it
        final TestNotice notice = TestNotice.of(9, 1, 4, 4);

        notices.catchUp(notice, 1, 4, 6);

        assertEquals(1, io.notices.size());
        assertEquals(4, io.notices.get(0).to());
        assertEquals(1, counters.get(ProtocolCounter.CATCH_UPS_FORWARDED));
    }

    private static List<Integer> ranks(final RankSet set)
    {
        final List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < set.size(); i++)
        {
            ranks.add(set.rankAt(i));
        }
        return ranks;
    }
}
