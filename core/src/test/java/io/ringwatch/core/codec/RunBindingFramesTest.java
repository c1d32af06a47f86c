package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_REQUEST_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_PROOF_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.REFORM_ACK_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.REFORM_POLL_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames bound to a run (issue 28, finding 3): the stamper writes the node's run under the MAC, the decoder refuses an
 * authentic frame of another run as WRONG_RUN after the MAC and before freshness (so it costs the sender's window
 * nothing), takes the unbound types under any run, and a higher run only while told to adopt one.
 */
class RunBindingFramesTest
{
    private static final int CLUSTER_ID = 0x5151;
    private static final int N = 8;
    private static final int LOCAL = 3;
    private static final int DIGEST = 0x0D16E57;
    private static final long RUN_1 = 0x0000_0190_0000_0001L;
    private static final long RUN_2 = 0x0000_0190_0001_0002L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameDecoder.MAX_FRAME_LENGTH]);
    private final FrameAuthenticator keys = FrameAuthenticator.withKey(Frames.KEY);
    private final ReplayGuard guard = new ReplayGuard(N);
    private final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N, LOCAL, DIGEST, keys, guard);
    private final FrameStamper sender = new FrameStamper(N, keys);
    private final LeaveFlyweight leave = new LeaveFlyweight();

    private int leave(final int from)
    {
        return sender.stamp(buffer, 0, leave.encode(buffer, 0, CLUSTER_ID, from, 0, LOCAL, DIGEST));
    }

    private int notice(final int from, final int subject)
    {
        final ReusableNotice notice = new ReusableNotice().set(subject, from, 0, 1, RankArray.of(subject));
        return sender.stamp(buffer, 0, new FailureNoticeFlyweight().encode(
            buffer, 0, CLUSTER_ID, from, 0, LOCAL, DIGEST, notice));
    }

    private int token(final int type, final int from, final long token)
    {
        return sender.stamp(buffer, 0, new ProbeFlyweight().encode(
            buffer, 0, type, CLUSTER_ID, from, 0, LOCAL, DIGEST, token));
    }

    @Test
    void shouldRefuseAnAuthenticFrameOfAnotherRunWithoutTouchingItsSendersWindow()
    {
        decoder.bindRun(RUN_2, false);
        sender.run(RUN_1);
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, notice(1, 5)), "a notice of run 1");
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, leave(1)), "a LEAVE of run 1");
        assertTrue(!guard.hasAdmitted(1), "a frame of another run admits no incarnation (no trust on first use)");

        sender.run(RUN_2);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, leave(1)));
        assertEquals(RUN_2, decoder.runId());
        assertEquals(3, guard.highestSequence(1), "the refused frames were judged before freshness, not recorded");
    }

    @Test
    void shouldJudgeTheRunOnlyAfterTheMac()
    {
        decoder.bindRun(RUN_2, false);
        sender.run(RUN_1);
        final int length = leave(1);
        buffer.putByte(length - 1, (byte)(buffer.getByte(length - 1) ^ 1));
        assertEquals(RejectReason.BAD_MAC, decoder.decode(buffer, 0, length), "a forgery is no frame of any run");

        final FrameStamper unsigned = new FrameStamper(N, FrameAuthenticator.NONE);
        unsigned.run(RUN_1);
        assertEquals(RejectReason.UNSIGNED,
            decoder.decode(buffer, 0, unsigned.stamp(buffer, 0, leave.encode(buffer, 0, CLUSTER_ID, 1, 0, LOCAL, DIGEST))));
    }

    @Test
    void shouldTakeTheUnboundTypesUnderAnyRunAndNothingElseUnbound()
    {
        decoder.bindRun(RUN_2, false);
        sender.run(FrameHeaderFlyweight.UNBOUND_RUN);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, token(JOIN_REQUEST_TYPE, 1, 77)));
        assertEquals(0, decoder.runId());
        assertEquals(77, decoder.joinerNonce());
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, token(REFORM_POLL_TYPE, 2, 4)));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, token(REFORM_ACK_TYPE, 2, 4)));
        final int challenge = sender.stamp(buffer, 0, new JoinChallengeFlyweight().encode(
            buffer, 0, CLUSTER_ID, 4, 0, LOCAL, DIGEST, 0x1234, 0x5678));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, challenge));
        assertEquals(0x1234, decoder.probeToken());
        assertEquals(0x5678, decoder.joinerNonce());
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, token(JOIN_PROOF_TYPE, 1, 9)),
            "a proof is bound: a joiner proves under the run it learned");
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, leave(5)), "an unbound LEAVE");

        sender.run(RUN_1);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, token(JOIN_REQUEST_TYPE, 6, 1)),
            "a request under another run is unbound too: a joiner that learned a run that has since ended");
        assertEquals(RUN_1, decoder.runId());
    }

    @Test
    void shouldTakeAHigherRunOnlyWhileAdopting()
    {
        decoder.bindRun(RUN_1, true);
        sender.run(RUN_2);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, leave(1)), "a higher run, for the protocol to adopt");
        assertEquals(RUN_2, decoder.runId());

        decoder.bindRun(RUN_2, true);
        sender.run(RUN_1);
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, leave(2)), "never a lower one");

        decoder.bindRun(RUN_1, false);
        sender.run(RUN_2);
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, leave(1)), "the grace is over");

        decoder.bindRun(FrameHeaderFlyweight.UNBOUND_RUN, true);
        assertEquals(RejectReason.WRONG_RUN, decoder.decode(buffer, 0, leave(1)),
            "a node bound to no run adopts none: anything is higher than 0, recordings included");
    }

    @Test
    void shouldTakeAnyRunOnlyWhenBrokenForANegativeControl()
    {
        decoder.bindRun(RUN_2, false).acceptAnyRun();
        sender.run(RUN_1);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, notice(1, 5)));
    }
}
