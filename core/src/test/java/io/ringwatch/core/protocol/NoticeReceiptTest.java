package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * T5's verdicts alone: what an active node does with a notice, before it merges anything.
 */
class NoticeReceiptTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long UNKNOWN = Membership.UNKNOWN_INCARNATION;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final Membership membership = new Membership(50);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, 10, 100)
        .withPartitionPolicy(PartitionPolicy.MAJORITY);
    private final Quorum quorum = new Quorum(N, settings.settlePeriodNs(), 0);
    private final Notices notices = new Notices(RANK, 0, settings, new DoubleHypercubeSchedule(), io, membership,
        dead, counters);
    private final NoticeReceipt receipt = new NoticeReceipt(0, settings, ring,
        dead, membership, quorum, new Admission(settings, ring, dead, membership, notices,
        new LocalView(RANK, dead, membership, quorum, io, 10), counters), notices,
        counters);

    @Test
    void shouldApplyAFirstCopyAndIgnoreItsDuplicate()
    {
        final TestNotice notice = TestNotice.of(6, 1, 4);

        assertEquals(NoticeReceipt.APPLY, receipt.judge(notice, 1, UNKNOWN, 10, true));
        assertEquals(NoticeReceipt.IGNORE, receipt.judge(notice, 2, UNKNOWN, 11, true));
        assertEquals(1, counters.get(ProtocolCounter.NOTICES_DUPLICATE));
    }

    @Test
    void shouldStopOnANoticeThatNamesThisNodeFromAMajority()
    {
        assertEquals(NoticeReceipt.EXCLUDE_NOTICE, receipt.judge(TestNotice.of(RANK, 1, 4), 1, UNKNOWN, 10, true));
        assertEquals(NoticeReceipt.EXCLUDE_FENCED,
            receipt.judge(TestNotice.of(RANK, 1, NoticeSequences.FENCE_BASE + 1), 1, UNKNOWN, 10, true));
    }

    @Test
    void shouldNeverObeyOrMergeAMinoritysView()
    {
        // D_msg of 5 of 8 leaves 3 alive: no majority of the settled membership
        assertEquals(NoticeReceipt.IGNORE, receipt.judge(TestNotice.of(RANK, 1, 4, 0, 2, 4, 5), 1, UNKNOWN, 10, true));
        assertEquals(1, counters.get(ProtocolCounter.NOTICES_REFUSED));
        assertEquals(NoticeReceipt.CHECK_MINORITY,
            receipt.judge(TestNotice.of(6, 1, 5, 0, 2, 4, 5), 1, UNKNOWN, 10, true));
    }

    @Test
    void shouldDropAStrayFenceAndEverythingWhileNotActive()
    {
        assertEquals(NoticeReceipt.IGNORE,
            receipt.judge(TestNotice.of(6, 1, NoticeSequences.FENCE_BASE + 1), 1, UNKNOWN, 10, true));
        assertEquals(1, counters.get(ProtocolCounter.STRAY_FENCES));
        assertEquals(NoticeReceipt.IGNORE, receipt.judge(TestNotice.of(6, 1, 9), 1, UNKNOWN, 10, false));
    }

    @Test
    void shouldTakeAHealNamingThisNodeAsItsEmittersRetellCue()
    {
        final ReusableNotice heal = new ReusableNotice()
            .set(RANK, 4, 0, NoticeSequences.HEAL_BASE + 1, RankArray.of(RANK)).subject(0, true);
        assertEquals(NoticeReceipt.HEAL_FOR_EMITTER, receipt.judge(heal, 4, UNKNOWN, 10, true));
    }

    @Test
    void shouldFenceTheSenderItHoldsDeadInsteadOfActing()
    {
        dead.add(1);

        assertEquals(NoticeReceipt.IGNORE, receipt.judge(TestNotice.of(6, 1, 4), 1, UNKNOWN, 10, true));
        assertEquals(1, counters.get(ProtocolCounter.FENCES_SENT));
    }
}
