package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who may still be heard, alone: stale lives dropped, zombies fenced once per interval and announced again once.
 */
class AdmissionTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long FENCE_INTERVAL = 100;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final Membership membership = new Membership(50);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, 10, FENCE_INTERVAL)
        .withPartitionPolicy(PartitionPolicy.MAJORITY);
    private final Notices notices = new Notices(RANK, 0, settings, new DoubleHypercubeSchedule(), io, membership,
        dead, counters);
    private final Admission admission = new Admission(settings, ring, dead, membership, notices,
        new LocalView(RANK, dead, membership, new Quorum(N, settings.settlePeriodNs(), 0), io, 10), counters);

    @Test
    void shouldHearALiveRankAndDropAStaleLife()
    {
        membership.incarnations().raise(5, 2);

        assertTrue(admission.admit(1, Membership.UNKNOWN_INCARNATION, 0));
        assertFalse(admission.admit(5, 1, 0));
        assertEquals(1, counters.get(ProtocolCounter.STALE_FRAMES));
        assertFalse(admission.admit(N, 0, 0), "not a rank of this cluster");
    }

    @Test
    void shouldFenceAZombieOncePerIntervalAndAnnounceItsDeathOnce()
    {
        dead.add(6);

        assertFalse(admission.admit(6, 0, 0));
        assertFalse(admission.admit(6, 0, 10));
        assertEquals(1, counters.get(ProtocolCounter.FENCES_SENT), "once per fence interval");
        assertFalse(admission.admit(6, 0, 10 + FENCE_INTERVAL));
        assertEquals(2, counters.get(ProtocolCounter.FENCES_SENT), "a lost fence is re-sent while it keeps talking");
        assertEquals(3, counters.get(ProtocolCounter.FRAMES_FROM_DEAD));
        final long fences = io.notices.stream().filter((n) -> n.sequence() >= NoticeSequences.FENCE_BASE).count();
        final long broadcasts = io.notices.stream().filter((n) -> n.sequence() < NoticeSequences.HEAL_BASE).count();
        assertEquals(2, fences);
        assertTrue(broadcasts > 0, "its death announced again under the majority rule");
        assertEquals(1, counters.get(ProtocolCounter.NOTICES_ORIGINATED), "and only once");
    }

    @Test
    void shouldFenceButNotAnnounceOnFramesSentToMany()
    {
        dead.add(6);

        assertFalse(admission.admitQuietly(6, 0, 0));
        assertEquals(1, counters.get(ProtocolCounter.FENCES_SENT));
        assertEquals(0, counters.get(ProtocolCounter.NOTICES_ORIGINATED));
    }

    @Test
    void shouldFenceADeadRankStillWritingIntoTheSlot()
    {
        dead.add(2);

        assertEquals(1, admission.fenceSlotWriterIfDead(2, 0));
        assertEquals(0, admission.fenceSlotWriterIfDead(4, 0), "a live writer is the emitter beating");
        assertEquals(0, admission.fenceSlotWriterIfDead(RANK, 0));
    }
}
