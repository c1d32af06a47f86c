package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repair rules alone, without a node: when a silence counts as a healed cut, and what gets told again.
 */
class HealRetellRulesTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long ETA = 10;
    private static final long DELTA = 100;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final Membership membership = new Membership(DELTA / 2);
    private final ProtocolSettings settings = ProtocolSettings.of(N, ETA, DELTA);
    private final Quorum quorum = new Quorum(N, settings.settlePeriodNs(), 0);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final Notices notices = new Notices(RANK, 0, settings, new DoubleHypercubeSchedule(), io, membership,
        dead, counters);
    private final HealRetell heal = new HealRetell(settings, ring, dead, membership, quorum, notices, counters);

    @Test
    void shouldTakeASilenceLongerThanHalfDeltaWithTheCounterRunningOnForAHealedCut()
    {
        // 60 of silence spans 6 beats; the counter moved 3, half of them: the emitter beat through the cut
        heal.onEmitterBeat(1_000, 60, 3, false, 2, true);

        assertEquals(1, counters.get(ProtocolCounter.HEALS_ANNOUNCED));
        assertTrue(io.notices.stream().allMatch((n) -> NoticeKind.of(n.sequence(), n.join()) == NoticeKind.HEAL));
    }

    @Test
    void shouldNotTakeAStallOrAShortSilenceOrAStoppedEmitterForACut()
    {
        heal.onEmitterBeat(1_000, 60, 3, true, 2, true);
        heal.onEmitterBeat(2_000, 50, 5, false, 2, true);
        heal.onEmitterBeat(3_000, 60, 1, false, 2, true);
        heal.onEmitterBeat(4_000, 90, 0, false, 2, true);
        heal.onEmitterBeat(5_000, 60, 3, false, 2, false);

        assertEquals(0, counters.get(ProtocolCounter.HEALS_ANNOUNCED));
        assertTrue(io.notices.isEmpty());
    }

    @Test
    void shouldAnnounceOneHealPerHalfDelta()
    {
        heal.onEmitterBeat(1_000, 60, 3, false, 2, true);
        heal.onEmitterBeat(1_040, 60, 3, false, 2, true);
        heal.onEmitterBeat(1_051, 60, 3, false, 2, true);

        assertEquals(2, counters.get(ProtocolCounter.HEALS_ANNOUNCED));
    }

    @Test
    void shouldRetellARecentDeathItDetectedOnAHeal()
    {
        dead.add(6);
        heal.recordDeath(6, 1_000);

        heal.onHeal(1_010);

        assertEquals(1, counters.get(ProtocolCounter.HEAL_RETELLS));
        assertTrue(io.notices.stream().allMatch((n) -> n.deadRank() == 6 && !n.join()));
        io.notices.clear();
        heal.onHeal(1_020);
        assertTrue(io.notices.isEmpty(), "told at most once per half delta");
    }

    @Test
    void shouldLeaveAJoinToItsLiveContact()
    {
        heal.recordJoin(6, 2, 1_000, 5);

        heal.onHeal(1_010);

        assertTrue(io.notices.isEmpty(), "contact 5 lives on under the same incarnation: it retells, not this node");
    }

    @Test
    void shouldRetellADeathOnceTheViewSettledUnlessItsRankRejoined()
    {
        dead.add(2);
        heal.retellWhenSettled(2);
        final long dueNs = heal.deadlineNs();

        assertEquals(0, heal.retellIfSettled(dueNs - 1));
        assertEquals(1, heal.retellIfSettled(dueNs));
        assertEquals(Long.MAX_VALUE, heal.deadlineNs());

        io.notices.clear();
        heal.retellWhenSettled(2);
        dead.remove(2);
        assertEquals(0, heal.retellIfSettled(dueNs));
        assertTrue(io.notices.isEmpty(), "a rank that rejoined meanwhile is not declared dead again");
    }
}
