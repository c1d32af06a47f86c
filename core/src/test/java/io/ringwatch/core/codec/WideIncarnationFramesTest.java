package io.ringwatch.core.codec;

import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_PROOF_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_REQUEST_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.PROBE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Incarnations past 31 and 32 bits (issue 28, finding 4: a start in 2026 takes {@code epochMillis << 16}, about
 * 2^56) through every frame that carries one, encoded, signed and decoded: the sender's in the header, a notice's
 * source and subject incarnations, a JOIN's, a process notice's source, a VIEW's entries.
 */
class WideIncarnationFramesTest
{
    private static final int CLUSTER_ID = 0x11223344;
    private static final int N = 16;
    private static final int SELF = 5;
    private static final int DIGEST = 0x21222324;
    private static final long PAST_31 = (1L << 31) + 7;
    private static final long PAST_32 = (1L << 32) + 9;
    private static final long CLOCK_RULE = 1_795_000_000_000L << 16;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameDecoder.MAX_FRAME_LENGTH]);
    private final FrameAuthenticator keys = FrameAuthenticator.withKey(Frames.KEY);

    private FrameDecoder decoder()
    {
        return new FrameDecoder(CLUSTER_ID, N, SELF, DIGEST, keys, new ReplayGuard(N));
    }

    private int seal(final int length)
    {
        assertTrue(length > 0, "encoded: " + length);
        return Frames.seal(keys, buffer, 0, length, 1);
    }

    @Test
    void shouldCarryTheSenderIncarnationOfEveryHeaderWhole()
    {
        for (final long incarnation : new long[] {PAST_31, PAST_32, CLOCK_RULE, Long.MAX_VALUE})
        {
            FrameDecoder decoder = decoder();
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, seal(new HeartbeatFlyweight()
                .encode(buffer, 0, CLUSTER_ID, 4, incarnation, SELF, DIGEST, 3L, 4L))), "heartbeat");
            assertEquals(incarnation, decoder.senderIncarnation());

            decoder = decoder();
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
                seal(new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 6, incarnation, SELF, DIGEST))), "leave");
            assertEquals(incarnation, decoder.senderIncarnation());

            decoder = decoder();
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, seal(new NewObserverFlyweight()
                .encode(buffer, 0, CLUSTER_ID, 4, incarnation, DIGEST, SELF))), "new observer");
            assertEquals(incarnation, decoder.senderIncarnation());

            for (final int type : new int[] {PROBE_TYPE, JOIN_REQUEST_TYPE})
            {
                decoder = decoder();
                assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, seal(new ProbeFlyweight()
                    .encode(buffer, 0, type, CLUSTER_ID, 7, incarnation, SELF, DIGEST, 11L))), "type " + type);
                assertEquals(incarnation, decoder.senderIncarnation());
            }

            decoder = decoder().acceptAnyRun();
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, seal(new ProbeFlyweight()
                .encode(buffer, 0, JOIN_PROOF_TYPE, CLUSTER_ID, 7, incarnation, SELF, DIGEST, 11L))), "proof");
            assertEquals(incarnation, decoder.senderIncarnation());

            decoder = decoder();
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, seal(new JoinChallengeFlyweight()
                .encode(buffer, 0, CLUSTER_ID, 7, incarnation, SELF, DIGEST, 12L, 13L))), "challenge");
            assertEquals(incarnation, decoder.senderIncarnation());
        }
    }

    @Test
    void shouldCarrySourceAndSubjectIncarnationsOfNoticesAndJoinsWhole()
    {
        final FrameDecoder decoder = decoder();
        final ReusableNotice death = new ReusableNotice().set(6, 9, PAST_32, 4, RankArray.of(2, 3, 6))
            .subject(CLOCK_RULE, false);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, PAST_32, SELF, DIGEST, death))));
        assertEquals(PAST_32, decoder.senderIncarnation());
        assertEquals(PAST_32, decoder.notice().sourceIncarnation());
        assertEquals(CLOCK_RULE, decoder.notice().subjectIncarnation());

        final FrameDecoder other = decoder();
        final ReusableNotice join = new ReusableNotice().set(6, 9, PAST_31, 5, RankArray.of(6))
            .subject(CLOCK_RULE + 1, true);
        assertEquals(RejectReason.NONE, other.decode(buffer, 0,
            seal(new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, PAST_31, SELF, DIGEST, join))));
        assertTrue(other.notice().isJoin());
        assertEquals(PAST_31, other.notice().sourceIncarnation());
        assertEquals(CLOCK_RULE + 1, other.notice().subjectIncarnation());
    }

    @Test
    void shouldCarryAProcessNoticeSourceIncarnationWhole()
    {
        final FrameDecoder decoder = decoder();
        final ReusableProcessNotice sent = new ReusableProcessNotice()
            .set(3, CLOCK_RULE, 9, RankArray.of(1), RankArray.of(20, 21));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0,
            seal(new ProcessFailureFlyweight().encode(buffer, 0, CLUSTER_ID, 3, CLOCK_RULE, SELF, DIGEST, sent))));
        assertEquals(CLOCK_RULE, decoder.processNotice().sourceIncarnation());
    }

    @Test
    void shouldCarryTheIncarnationsOfAViewWhole()
    {
        final IncarnationTable incarnations = new IncarnationTable(3);
        incarnations.raise(2, PAST_31);
        incarnations.raise(7, PAST_32);
        incarnations.raise(12, CLOCK_RULE);
        final FrameDecoder decoder = decoder();
        final int length = seal(new ViewFlyweight().encode(buffer, 0, CLUSTER_ID, 4, CLOCK_RULE, SELF, DIGEST,
            RankArray.of(1, 3, 4), incarnations));
        assertEquals(ViewFlyweight.lengthOf(2, 3), length);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(CLOCK_RULE, decoder.senderIncarnation());
        assertEquals(3, decoder.viewIncarnations().size());
        assertEquals(PAST_31, decoder.viewIncarnations().incarnationOf(2));
        assertEquals(PAST_32, decoder.viewIncarnations().incarnationOf(7));
        assertEquals(CLOCK_RULE, decoder.viewIncarnations().incarnationOf(12));
    }

    @Test
    void shouldFitTheLongestViewInTheLongestFrame()
    {
        assertTrue(ViewFlyweight.MAX_LENGTH <= FrameDecoder.MAX_FRAME_LENGTH);
        assertEquals(ViewFlyweight.MAX_LENGTH, ViewFlyweight.lengthOf(0, ViewFlyweight.MAX_ITEMS));
    }
}
