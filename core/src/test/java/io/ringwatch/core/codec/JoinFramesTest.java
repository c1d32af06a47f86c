package io.ringwatch.core.codec;

import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JoinFramesTest
{
    private static final int CLUSTER_ID = 0x11223344;
    private static final int N = 16;
    private static final int DIGEST = 0x21222324;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final FrameAuthenticator keys = FrameAuthenticator.withKey(Frames.KEY);
    private final ReplayGuard guard = new ReplayGuard(N);
    private final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N, 5, DIGEST, keys, guard);

    private int seal(final int length, final long sequence)
    {
        return Frames.seal(keys, buffer, 0, length, sequence);
    }

    @Test
    void shouldTakeAJoinRequestFromANewerIncarnationWithoutAdmittingIt()
    {
        final LeaveFlyweight leave = new LeaveFlyweight();
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(leave.encode(buffer, 0, CLUSTER_ID, 6, 0, 5, DIGEST), 1)));

        final int length = seal(new ProbeFlyweight().encode(
            buffer, 0, FrameHeaderFlyweight.JOIN_REQUEST_TYPE, CLUSTER_ID, 6, 3, 5, DIGEST, 0x0BAD_CAFEL), 1);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.JOIN_REQUEST_TYPE, decoder.type());
        assertEquals(0x0BAD_CAFEL, decoder.joinerNonce());
        assertEquals(3, decoder.senderIncarnation());
        assertEquals(0, guard.admittedIncarnation(6), "admitted only when the protocol admits the join");

        assertEquals(RejectReason.UNKNOWN_INCARNATION, decoder.decode(buffer, 0,
            seal(leave.encode(buffer, 0, CLUSTER_ID, 6, 3, 5, DIGEST), 2)), "other frames of the new life wait");
        assertTrue(guard.admitIncarnation(6, 3));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(leave.encode(buffer, 0, CLUSTER_ID, 6, 3, 5, DIGEST), 3)));
        assertEquals(RejectReason.STALE_INCARNATION, decoder.decode(buffer, 0,
            seal(new ProbeFlyweight().encode(
                buffer, 0, FrameHeaderFlyweight.JOIN_REQUEST_TYPE, CLUSTER_ID, 6, 2, 5, DIGEST, 1L), 1)));
    }

    @Test
    void shouldCarryJoinsAndSubjectIncarnationsInNotices()
    {
        final ReusableNotice join = new ReusableNotice().set(6, 9, 0, 4, RankArray.of(2, 3, 6)).subject(7, true);
        final int length = seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 0, 5, DIGEST, join), 1);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.JOIN_TYPE, decoder.type());
        assertTrue(decoder.notice().isJoin());
        assertEquals(7, decoder.notice().subjectIncarnation());
        assertEquals(6, decoder.notice().deadRank());

        final ReusableNotice death = new ReusableNotice().set(6, 9, 0, 5, RankArray.of(6)).subject(7, false);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 0, 5, DIGEST, death), 2)));
        assertFalse(decoder.notice().isJoin());
        assertEquals(7, decoder.notice().subjectIncarnation());

        final ReusableNotice bootJoin = new ReusableNotice().set(6, 9, 0, 6, RankArray.of(6)).subject(0, true);
        assertEquals(RejectReason.BAD_INCARNATION, decoder.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 0, 5, DIGEST, bootJoin), 3)),
            "nobody joins under the boot incarnation");

        final ReusableNotice heal = new ReusableNotice()
            .set(6, 9, 0, NoticeSequences.HEAL_BASE + 1, RankArray.of(6)).subject(0, true);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 0, 5, DIGEST, heal), 4)),
            "a heal notice names its announcer's emitter as held, a boot member's 0 included");
        assertTrue(decoder.notice().isJoin());
        assertEquals(0, decoder.notice().subjectIncarnation());

        final ReusableNotice minorityJoin = new ReusableNotice()
            .set(6, 9, 0, NoticeSequences.MINORITY_BASE + 1, RankArray.of(6)).subject(0, true);
        assertEquals(RejectReason.BAD_INCARNATION, decoder.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 0, 5, DIGEST, minorityJoin), 5)),
            "only the heal band may name the boot incarnation");
    }

    @Test
    void shouldRoundTripAView()
    {
        final IncarnationTable incarnations = new IncarnationTable(2);
        incarnations.raise(5, 2);
        incarnations.raise(12, 9);
        final ViewFlyweight view = new ViewFlyweight();
        final int length = seal(view.encode(buffer, 0, CLUSTER_ID, 7, 0, 5, DIGEST, RankArray.of(1, 2, 3, 5, 9),
            incarnations), 1);
        assertEquals(ViewFlyweight.lengthOf(3, 2), length);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.VIEW_TYPE, decoder.type());
        assertArrayEquals(new int[] {1, 2, 3, 5, 9}, Frames.toArray(decoder.viewDead()));
        assertEquals(2, decoder.viewIncarnations().size());
        assertEquals(9, decoder.viewIncarnations().incarnationOf(12));
        assertEquals(2, decoder.viewIncarnations().incarnationOf(5));

        view.wrap(buffer, 0);
        buffer.putInt(FrameHeaderFlyweight.HEADER_LENGTH + 8 + 3 * ViewFlyweight.RUN_LENGTH, 13,
            java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(RejectReason.RANGES_NOT_SORTED, decoder.decode(buffer, 0, seal(length, 2)),
            "entries must be ascending");
    }
}
