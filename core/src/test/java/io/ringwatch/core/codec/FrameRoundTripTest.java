package io.ringwatch.core.codec;

import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.ringwatch.core.codec.FailureNoticeFlyweight.MAX_RANGES;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames as a node sends them (encoded, stamped, signed) decode to what was encoded, through the decoder a node
 * uses (MAC, digest, destination and replay checks on).
 */
class FrameRoundTripTest
{
    private static final int CLUSTER_ID = 42;
    private static final int CLUSTER_SIZE = 4096;
    private static final int LOCAL_RANK = 7;
    private static final int DIGEST = ConfigDigest.of(CLUSTER_ID, CLUSTER_SIZE, 1_000_000L, 10_000_000L);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH + 64]);
    private final FrameAuthenticator authenticator = FrameAuthenticator.withKey(Frames.KEY);
    private final FrameStamper stamper = new FrameStamper(CLUSTER_SIZE, authenticator.newInstance());
    private final FrameDecoder decoder = new FrameDecoder(
        CLUSTER_ID, CLUSTER_SIZE, LOCAL_RANK, DIGEST, authenticator, new ReplayGuard(CLUSTER_SIZE));
    private final FailureNoticeFlyweight noticeFlyweight = new FailureNoticeFlyweight();

    @Test
    void shouldRoundTripHeartbeat()
    {
        final int length = stamp(0, new HeartbeatFlyweight().encode(
            buffer, 0, CLUSTER_ID, 17, 3, LOCAL_RANK, DIGEST, 123_456L, -98_765L));

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.HEARTBEAT_TYPE, decoder.type());
        assertEquals(17, decoder.senderRank());
        assertEquals(3, decoder.senderIncarnation());
        assertEquals(LOCAL_RANK, decoder.destinationRank());
        assertEquals(1L, decoder.frameSequence());
        assertEquals(123_456L, decoder.heartbeatCounter());
        assertEquals(-98_765L, decoder.heartbeatTimestampNs());
        assertEquals(0, decoder.unauthenticatedAccepted());
    }

    @Test
    void shouldRoundTripNewObserverWithRdmaSlot()
    {
        final int length = stamp(0, new NewObserverFlyweight().encode(
            buffer, 0, CLUSTER_ID, 8, 2, DIGEST, LOCAL_RANK, 0xCAFE_BABE, 0x7FFF_0000_1000L, 64));

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.NEW_OBSERVER_TYPE, decoder.type());
        assertEquals(8, decoder.senderRank());
        assertEquals(2, decoder.senderIncarnation());
        assertEquals(LOCAL_RANK, decoder.newObserverEmitterRank());
        assertEquals(0xCAFE_BABE, decoder.rdmaRkey());
        assertEquals(0x7FFF_0000_1000L, decoder.rdmaAddress());
        assertEquals(64, decoder.rdmaLength());
    }

    @Test
    void shouldRoundTripNewObserverWithoutRdmaSlot()
    {
        final int length = stamp(0, new NewObserverFlyweight().encode(
            buffer, 0, CLUSTER_ID, CLUSTER_SIZE - 1, 1, DIGEST, LOCAL_RANK));

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(LOCAL_RANK, decoder.newObserverEmitterRank());
        assertEquals(0, decoder.rdmaRkey());
        assertEquals(0L, decoder.rdmaAddress());
        assertEquals(0, decoder.rdmaLength());
    }

    @Test
    void shouldRoundTripLeave()
    {
        final int length = stamp(0, new LeaveFlyweight().encode(
            buffer, 0, CLUSTER_ID, CLUSTER_SIZE - 1, 9, LOCAL_RANK, DIGEST));

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.LEAVE_TYPE, decoder.type());
        assertEquals(CLUSTER_SIZE - 1, decoder.senderRank());
        assertEquals(9, decoder.senderIncarnation());
    }

    @Test
    void shouldRoundTripProbeAndProbeAck()
    {
        final ProbeFlyweight probe = new ProbeFlyweight();
        int length = stamp(0, probe.encode(
            buffer, 0, FrameHeaderFlyweight.PROBE_TYPE, CLUSTER_ID, 12, 4, LOCAL_RANK, DIGEST, 0x1234_5678_9ABCL));

        assertEquals(ProbeFlyweight.LENGTH, length);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.PROBE_TYPE, decoder.type());
        assertEquals(12, decoder.senderRank());
        assertEquals(4, decoder.senderIncarnation());
        assertEquals(0x1234_5678_9ABCL, decoder.probeToken());

        length = stamp(0, probe.encode(
            buffer, 0, FrameHeaderFlyweight.PROBE_ACK_TYPE, CLUSTER_ID, 12, 4, LOCAL_RANK, DIGEST, -7L));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.PROBE_ACK_TYPE, decoder.type());
        assertEquals(-7L, decoder.probeToken());
    }

    @Test
    void shouldRoundTripAViewDigest()
    {
        final int length = stamp(0, new ProbeFlyweight().encode(
            buffer, 0, FrameHeaderFlyweight.VIEW_DIGEST_TYPE, CLUSTER_ID, 12, 4, LOCAL_RANK, DIGEST, 0xDEAD_BEEF_CAFEL));

        assertEquals(ProbeFlyweight.LENGTH, length);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.VIEW_DIGEST_TYPE, decoder.type());
        assertEquals(0xDEAD_BEEF_CAFEL, decoder.probeToken());
    }

    @Test
    void shouldRoundTripAReformPollAndItsAnswer()
    {
        int length = stamp(0, new ProbeFlyweight().encode(
            buffer, 0, FrameHeaderFlyweight.REFORM_POLL_TYPE, CLUSTER_ID, 0, 9, LOCAL_RANK, DIGEST, 3L));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.REFORM_POLL_TYPE, decoder.type());
        assertEquals(0, decoder.senderRank());
        assertEquals(9, decoder.senderIncarnation());
        assertEquals(3L, decoder.probeToken());

        length = stamp(0, new ProbeFlyweight().encode(
            buffer, 0, FrameHeaderFlyweight.REFORM_ACK_TYPE, CLUSTER_ID, 12, 4, LOCAL_RANK, DIGEST, 3L));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(FrameHeaderFlyweight.REFORM_ACK_TYPE, decoder.type());
        assertEquals(3L, decoder.probeToken());
    }

    @Test
    void shouldRejectAProbeOfTheWrongLength()
    {
        final int length = stamp(0, new ProbeFlyweight().encode(
            buffer, 0, FrameHeaderFlyweight.PROBE_TYPE, CLUSTER_ID, 12, 4, LOCAL_RANK, DIGEST, 1L));
        // a leave-sized frame claiming to be a probe: re-signed, so only the structure is wrong
        final int shorter = length - 8;
        authenticator.newInstance().sign(buffer, 0, shorter);
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, shorter));
    }

    @Test
    void shouldGiveEachFrameToOneDestinationTheNextSequenceWhicheverItsType()
    {
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        for (long expected = 1; expected <= 3; expected++)
        {
            final int length = stamp(0, heartbeat.encode(buffer, 0, CLUSTER_ID, 1, 1, LOCAL_RANK, DIGEST, 5L, 0L));
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
            assertEquals(expected, decoder.frameSequence());
        }
        final int length = stamp(0, new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 1, 1, LOCAL_RANK, DIGEST));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(4L, decoder.frameSequence());
        assertEquals(0L, stamper.lastSequence(LOCAL_RANK + 1));
    }

    @Test
    void shouldAcceptUnsignedFramesOnlyWithAuthenticationOffAndCountThem()
    {
        final FrameStamper unsigned = new FrameStamper(CLUSTER_SIZE, FrameAuthenticator.NONE);
        final FrameDecoder open = new FrameDecoder(
            CLUSTER_ID, CLUSTER_SIZE, LOCAL_RANK, DIGEST, FrameAuthenticator.NONE, new ReplayGuard(CLUSTER_SIZE));
        final int length = unsigned.stamp(buffer, 0, new HeartbeatFlyweight().encode(
            buffer, 0, CLUSTER_ID, 1, 1, LOCAL_RANK, DIGEST, 5L, 0L));

        assertEquals(RejectReason.UNSIGNED, decoder.decode(buffer, 0, length));
        assertEquals(RejectReason.NONE, open.decode(buffer, 0, length));
        assertEquals(1, open.unauthenticatedAccepted());
        assertEquals(0, decoder.unauthenticatedAccepted());
    }

    @Test
    void shouldRoundTripNoticeWithSingleDeadRank()
    {
        final TestNotice sent = new TestNotice(5, 6, 1, 1L, 5);

        final int length = roundTripNotice(sent, 0);

        assertEquals(FailureNoticeFlyweight.MIN_LENGTH, length);
        assertEquals(1, noticeFlyweight.wrap(buffer, 0).rangeCount());
    }

    @Test
    void shouldRoundTripNoticeWithManyRanges()
    {
        final TestNotice sent = new TestNotice(30, 0, 4, 77L, 1, 2, 3, 10, 12, 13, 30, 31, 32, 33, 500, 4000, 4001);

        roundTripNotice(sent, 0);

        noticeFlyweight.wrap(buffer, 0);
        assertEquals(6, noticeFlyweight.rangeCount());
        assertRange(0, 1, 3);
        assertRange(1, 10, 1);
        assertRange(2, 12, 2);
        assertRange(3, 30, 4);
        assertRange(4, 500, 1);
        assertRange(5, 4000, 2);
    }

    @Test
    void shouldRoundTripNoticeWithMaxRanges()
    {
        final TestNotice sent = new TestNotice(0, 1, 1, 1L, TestNotice.everyOther(MAX_RANGES));

        final int length = roundTripNotice(sent, 0);

        assertEquals(FailureNoticeFlyweight.MAX_LENGTH, length);
        assertEquals(MAX_RANGES, noticeFlyweight.wrap(buffer, 0).rangeCount());
    }

    @Test
    void shouldMergeAdjacentRanksIntoOneRun()
    {
        final TestNotice sent = new TestNotice(1000, 999, 1, 3L, TestNotice.run(1000, 1000));

        final int length = roundTripNotice(sent, 0);

        assertEquals(FailureNoticeFlyweight.MIN_LENGTH, length);
        assertRange(0, 1000, 1000);
    }

    @Test
    void shouldRoundTripNoticeNamingTheLastRank()
    {
        final int last = CLUSTER_SIZE - 1;
        final TestNotice sent = new TestNotice(last, 0, 1, 1L, last - 1, last);

        roundTripNotice(sent, 0);

        assertRange(0, last - 1, 2);
    }

    @Test
    void shouldRoundTripNoticeAtAnOffsetInsideALargerBuffer()
    {
        final TestNotice sent = new TestNotice(7, 3, 2, 9L, 7, 8, 20);

        roundTripNotice(sent, 37);
    }

    @Test
    void shouldDecodeFromAByteBufferBackedBufferAtAnOffset()
    {
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final int length = new HeartbeatFlyweight().encode(direct, 100, CLUSTER_ID, 1, 1, LOCAL_RANK, DIGEST, 2L, 3L);
        stamper.stamp(direct, 100, length);

        assertEquals(RejectReason.NONE, decoder.decode(direct, 100, length));
        assertEquals(2L, decoder.heartbeatCounter());
    }

    @Test
    void shouldReuseDecodedNoticeAndForgetThePreviousSet()
    {
        roundTripNotice(new TestNotice(2, 0, 1, 1L, TestNotice.run(1, 300)), 0);
        final ReusableNotice first = decoder.notice();

        roundTripNotice(new TestNotice(9, 0, 1, 2L, 9), 0);

        assertSame(first, decoder.notice());
        assertEquals(1, decoder.notice().deadSet().size());
        assertFalse(decoder.notice().deadSet().contains(2));
    }

    @Test
    void shouldGrowNoticeCapacityOnlyForLargerSetsAndNeverBeyondClusterSize()
    {
        final int clusterSize = 100;
        final FrameDecoder small = new FrameDecoder(
            CLUSTER_ID, clusterSize, LOCAL_RANK, DIGEST, authenticator, new ReplayGuard(clusterSize), 4);
        assertEquals(4, small.noticeCapacity());

        decodeWith(small, new TestNotice(0, 99, 1, 1L, TestNotice.run(0, 3)));
        assertEquals(4, small.noticeCapacity());

        decodeWith(small, new TestNotice(0, 99, 1, 2L, TestNotice.run(0, 5)));
        assertEquals(8, small.noticeCapacity());

        decodeWith(small, new TestNotice(0, 99, 1, 3L, TestNotice.run(0, 99)));
        assertEquals(99, small.noticeCapacity());

        decodeWith(small, new TestNotice(0, 99, 1, 4L, TestNotice.run(0, 6)));
        assertEquals(99, small.noticeCapacity());
        assertTrue(small.noticeCapacity() <= clusterSize);
    }

    @Test
    void shouldAnswerRankSetQueriesOnDecodedSet()
    {
        roundTripNotice(new TestNotice(10, 0, 1, 1L, 3, 4, 10, 11, 12, 50), 0);
        final var set = decoder.notice().deadSet();

        assertEquals(6, set.size());
        assertTrue(set.contains(11));
        assertFalse(set.contains(13));
        assertEquals(0, set.countBelow(3));
        assertEquals(2, set.countBelow(5));
        assertEquals(5, set.countBelow(50));
        assertEquals(6, set.countBelow(51));
    }

    private int stamp(final int offset, final int length)
    {
        assertEquals(length, stamper.stamp(buffer, offset, length));
        return length;
    }

    private int roundTripNotice(final TestNotice sent, final int offset)
    {
        final int length = stamp(offset,
            noticeFlyweight.encode(buffer, offset, CLUSTER_ID, 11, 5, LOCAL_RANK, DIGEST, sent));
        assertEquals(FailureNoticeFlyweight.encodedLength(sent), length);

        assertEquals(RejectReason.NONE, decoder.decode(buffer, offset, length));
        assertEquals(FrameHeaderFlyweight.FAILURE_NOTICE_TYPE, decoder.type());
        assertEquals(11, decoder.senderRank());
        assertEquals(5, decoder.senderIncarnation());
        final ReusableNotice received = decoder.notice();
        assertEquals(sent.deadRank(), received.deadRank());
        assertEquals(sent.sourceRank(), received.sourceRank());
        assertEquals(sent.sourceIncarnation(), received.sourceIncarnation());
        assertEquals(sent.sequence(), received.sequence());
        assertArrayEquals(sent.ranks(), Frames.toArray(received.deadSet()));
        return length;
    }

    private void decodeWith(final FrameDecoder decoder, final TestNotice sent)
    {
        final int length = stamp(0, noticeFlyweight.encode(buffer, 0, CLUSTER_ID, 50, 1, LOCAL_RANK, DIGEST, sent));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertArrayEquals(sent.ranks(), Frames.toArray(decoder.notice().deadSet()));
    }

    private void assertRange(final int index, final int firstRank, final int length)
    {
        noticeFlyweight.wrap(buffer, 0);
        assertEquals(firstRank, noticeFlyweight.rangeFirstRank(index), "first rank of range " + index);
        assertEquals(length, noticeFlyweight.rangeLength(index), "length of range " + index);
    }
}
