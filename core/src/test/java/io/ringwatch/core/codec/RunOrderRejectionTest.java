package io.ringwatch.core.codec;

import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntFunction;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Notice, VIEW and PROCESS_FAILURE frames carry runs under one rule (ascending, a gap between neighbours) but name
 * a run out of place differently; these pin each kind's reasons. Every frame holds the runs [4, 5] and [10]; the
 * second run is then moved before the first (to 2), into it (to 5), or next to it (to 6), and the frame re-signed.
 */
class RunOrderRejectionTest
{
    private static final int CLUSTER_ID = 3;
    private static final int N = 16;
    private static final int SELF = 7;
    private static final int DIGEST = 0x5eed;
    private static final RankArray RUNS = RankArray.of(4, 5, 10);
    private static final int BEFORE = 2;
    private static final int INSIDE = 5;
    private static final int ADJACENT = 6;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(FrameDecoder.MAX_FRAME_LENGTH));
    private final FrameAuthenticator keys = FrameAuthenticator.withKey(Frames.KEY);
    private final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N, SELF, DIGEST, keys, new ReplayGuard(N));
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final ViewFlyweight view = new ViewFlyweight();
    private final ProcessFailureFlyweight process = new ProcessFailureFlyweight();
    private long frameSequence;

    @Test
    void shouldNameANoticeRunBeforeInsideOrNextToThePreviousOne()
    {
        assertReasons(this::noticeWithSecondRunAt, RejectReason.RANGES_NOT_SORTED, RejectReason.RANGES_OVERLAP);
    }

    @Test
    void shouldNameAViewRunBeforeOrInsideThePreviousOneUnsorted()
    {
        assertReasons(this::viewWithSecondRunAt, RejectReason.RANGES_NOT_SORTED, RejectReason.RANGES_NOT_SORTED);
    }

    @Test
    void shouldNameAProcessNoticeRunBeforeOrInsideThePreviousOneOverlapping()
    {
        assertReasons(this::processNoticeWithSecondRunAt, RejectReason.RANGES_OVERLAP, RejectReason.RANGES_OVERLAP);
    }

    @Test
    void shouldJudgeTheSourceRunByRunInAProcessNoticeButAfterAllRunsInANotice()
    {
        // the source (rank 9) is in the first run and the second leaves the cluster
        assertEquals(RejectReason.SOURCE_IN_SET, processNoticeWithRuns(9, 1, N - 1, 5));
        assertEquals(RejectReason.RANGE_OUT_OF_RANGE, noticeWithRuns(4, 6, N - 1, 5));
        assertEquals(RejectReason.SOURCE_IN_SET, noticeWithRuns(4, 6, 12, 1));
        assertEquals(RejectReason.DEAD_RANK_NOT_IN_SET, noticeWithRuns(5, 5, 12, 1));
    }

    private static void assertReasons(
        final IntFunction<RejectReason> secondRunAt, final RejectReason before, final RejectReason inside)
    {
        assertEquals(RejectReason.NONE, secondRunAt.apply(10));
        assertEquals(before, secondRunAt.apply(BEFORE));
        assertEquals(inside, secondRunAt.apply(INSIDE));
        assertEquals(RejectReason.RANGES_NOT_MERGED, secondRunAt.apply(ADJACENT));
    }

    private RejectReason noticeWithSecondRunAt(final int first)
    {
        return noticeWithRuns(4, 2, first, 1);
    }

    // dead rank 4, source 9
    private RejectReason noticeWithRuns(final int first0, final int length0, final int first1, final int length1)
    {
        final ReusableNotice sent = new ReusableNotice().set(4, 9, 0, 1, RUNS);
        final int length = notice.encode(buffer, 0, CLUSTER_ID, 9, 0, SELF, DIGEST, sent);
        notice.range(0, first0, length0).range(1, first1, length1);
        return resignAndDecode(length);
    }

    private RejectReason viewWithSecondRunAt(final int first)
    {
        final int length = view.encode(buffer, 0, CLUSTER_ID, 9, 0, SELF, DIGEST, RUNS, new IncarnationTable(1));
        buffer.putInt(FrameHeaderFlyweight.HEADER_LENGTH + 2 * SIZE_OF_INT + ViewFlyweight.RUN_LENGTH, first,
            ByteOrder.LITTLE_ENDIAN);
        return resignAndDecode(length);
    }

    private RejectReason processNoticeWithSecondRunAt(final int first)
    {
        return processNoticeWithRuns(4, 2, first, 1);
    }

    // source 9, excluding the runs given, process 40 dead
    private RejectReason processNoticeWithRuns(final int first0, final int length0, final int first1, final int length1)
    {
        final ReusableProcessNotice sent = new ReusableProcessNotice().set(9, 0, 1, RUNS, RankArray.of(40));
        final int length = process.encode(buffer, 0, CLUSTER_ID, 9, 0, SELF, DIGEST, sent);
        process.range(0, first0, length0).range(1, first1, length1);
        return resignAndDecode(length);
    }

    private RejectReason resignAndDecode(final int length)
    {
        return decoder.decode(buffer, 0, Frames.seal(keys, buffer, 0, length, ++frameSequence));
    }
}
