package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.FAILURE_NOTICE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One targeted malformed frame per {@link RejectReason}: each starts from a valid, signed frame and breaks one thing.
 * Frames broken by an insider (someone holding the key) are signed again after the change, so the check under test
 * is reached; frames broken by anyone else are not, and must be refused by their shape (version, type, length) or
 * their MAC before any other field is read.
 */
class FrameDecoderRejectionTest
{
    private static final int CLUSTER_ID = 7;
    private static final int N = 64;
    private static final int LOCAL_RANK = 1;
    private static final int DIGEST = ConfigDigest.of(CLUSTER_ID, N, 1_000_000L, 10_000_000L);
    private static final byte[] ROTATION_KEY = Frames.key(201);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameDecoder.MAX_FRAME_LENGTH + 64]);
    private final FrameAuthenticator authenticator = FrameAuthenticator.withKey(Frames.KEY);
    private final ReplayGuard replayGuard = new ReplayGuard(N);
    private final FrameDecoder decoder = new FrameDecoder(
        CLUSTER_ID, N, LOCAL_RANK, DIGEST, FrameAuthenticator.withKeys(List.of(Frames.KEY, ROTATION_KEY)), replayGuard);
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();
    private long nextSequence = 1;

    @Test
    void shouldRejectFrameOutsideTheBuffer()
    {
        final int length = validHeartbeat();

        assertEquals(RejectReason.OUT_OF_BOUNDS, decoder.decode(buffer, buffer.capacity() - length + 1, length));
        assertEquals(RejectReason.OUT_OF_BOUNDS, decoder.decode(buffer, -1, length));
        assertEquals(RejectReason.OUT_OF_BOUNDS, decoder.decode(buffer, 0, -1));
        assertEquals(RejectReason.OUT_OF_BOUNDS, decoder.decode(buffer, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertEquals(RejectReason.OUT_OF_BOUNDS, decoder.decode(buffer, 1, Integer.MAX_VALUE));
    }

    @Test
    void shouldRejectFrameShorterThanHeader()
    {
        validLeave();

        assertEquals(RejectReason.TOO_SHORT, decoder.decode(buffer, 0, FrameHeaderFlyweight.MIN_FRAME_LENGTH - 1));
        assertEquals(RejectReason.TOO_SHORT, decoder.decode(buffer, 0, FrameHeaderFlyweight.HEADER_LENGTH));
        assertEquals(RejectReason.TOO_SHORT, decoder.decode(buffer, 0, 0));
    }

    @Test
    void shouldRejectFrameLongerThanTheLongestNoticeBeforeComputingItsMac()
    {
        final int length = FrameDecoder.MAX_FRAME_LENGTH + 1;
        resign(length);

        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectUnsignedFrame()
    {
        final int length = heartbeat.encode(buffer, 0, CLUSTER_ID, 4, 1, LOCAL_RANK, DIGEST, 10L, 0L);
        heartbeat.wrap(buffer, 0).frameSequence(nextSequence++);

        assertEquals(RejectReason.UNSIGNED, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectEveryFrameWithOneBitFlippedAnywhereByItsShapeOrItsMac()
    {
        final int length = validHeartbeat();
        final int typeBits = 16;
        for (int bit = 0; bit < length * 8; bit++)
        {
            flip(bit);
            final RejectReason reason = decoder.decode(buffer, 0, length);
            if (bit < 8)
            {
                assertEquals(RejectReason.UNSUPPORTED_VERSION, reason, "bit " + bit);
            }
            else if (bit < typeBits)
            {
                assertTrue(reason == RejectReason.UNKNOWN_TYPE || reason == RejectReason.WRONG_LENGTH,
                    "bit " + bit + ": " + reason);
            }
            else
            {
                assertEquals(RejectReason.BAD_MAC, reason, "bit " + bit);
            }
            flip(bit);
        }
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectFrameSignedWithAKeyOutsideTheKeyring()
    {
        final int length = validNewObserver();
        Frames.seal(FrameAuthenticator.withKey(Frames.OTHER_KEY), buffer, 0, length, nextSequence++);

        assertEquals(RejectReason.BAD_MAC, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldAcceptFramesSignedWithTheAcceptedKeyAsWellAsThePrimary()
    {
        final int length = validLeave();
        Frames.seal(FrameAuthenticator.withKeys(List.of(ROTATION_KEY, Frames.KEY)), buffer, 0, length, nextSequence++);

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validLeave()));
    }

    @Test
    void shouldReadOnlyVersionTypeAndLengthBeforeTheMac()
    {
        final int length = validLeave();
        leave.flags(1).clusterId(CLUSTER_ID + 1).configDigest(DIGEST + 1).senderRank(-1).destinationRank(N);

        assertEquals(RejectReason.BAD_MAC, decoder.decode(buffer, 0, length));
        assertEquals(-1, decoder.mismatchedSenderRank());
    }

    @Test
    void shouldRefuseJunkByItsShapeBeforeComputingItsMac()
    {
        final int length = validLeave();
        leave.version(0);
        assertEquals(RejectReason.UNSUPPORTED_VERSION, decoder.decode(buffer, 0, length));
        leave.version(FrameHeaderFlyweight.VERSION).type(0xFF);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, length));
        leave.type(FrameHeaderFlyweight.LEAVE_TYPE);
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, length + 1));

        // the longest frame there is, unsigned junk of a type and counts that could never be valid in N = 64
        final int longest = FrameDecoder.MAX_FRAME_LENGTH;
        new ProcessFailureFlyweight().wrap(buffer, 0)
            .rangeCount(ProcessFailureFlyweight.MAX_RANGES)
            .processCount(ProcessFailureFlyweight.MAX_PROCESSES)
            .header(FrameHeaderFlyweight.PROCESS_FAILURE_TYPE, CLUSTER_ID, 0, 1, LOCAL_RANK, DIGEST);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE, decoder.decode(buffer, 0, longest));
    }

    @Test
    void shouldRefuseMoreRunsThanTheClusterCanHoldEvenWhenSigned()
    {
        final int maxRuns = N / 2;
        writeNotice(3, 9, 1L, 3, 1);
        notice.rangeCount(maxRuns + 1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, resign(FailureNoticeFlyweight.lengthOf(maxRuns + 1))));

        new ViewFlyweight().wrap(buffer, 0).header(FrameHeaderFlyweight.VIEW_TYPE, CLUSTER_ID, 0, 1, LOCAL_RANK, DIGEST);
        viewCounts(maxRuns + 1, 0);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, resign(ViewFlyweight.lengthOf(maxRuns + 1, 0))));
        viewCounts(0, N + 1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, resign(ViewFlyweight.lengthOf(0, N + 1))));

        final ProcessFailureFlyweight processFailure = new ProcessFailureFlyweight();
        processFailure.wrap(buffer, 0).rangeCount(maxRuns + 1).processCount(1)
            .header(FrameHeaderFlyweight.PROCESS_FAILURE_TYPE, CLUSTER_ID, 0, 1, LOCAL_RANK, DIGEST);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, resign(ProcessFailureFlyweight.lengthOf(maxRuns + 1, 1))));
    }

    @Test
    void shouldTakeOnlyHeartbeatsFromTheHeartbeatPort()
    {
        final int heartbeatLength = validHeartbeat();
        assertEquals(RejectReason.NONE, decoder.decodeHeartbeat(buffer, 0, heartbeatLength));
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decodeHeartbeat(buffer, 0, resign(heartbeatLength + 1)));

        final int leaveLength = validLeave();
        assertEquals(RejectReason.NOT_A_HEARTBEAT, decoder.decodeHeartbeat(buffer, 0, leaveLength));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, leaveLength), "the control path takes it");
    }

    @Test
    void shouldRejectFrameWithWrongVersion()
    {
        final int length = validHeartbeat();
        heartbeat.version(FrameHeaderFlyweight.VERSION + 1);

        assertEquals(RejectReason.UNSUPPORTED_VERSION, decoder.decode(buffer, 0, resign(length)));
        heartbeat.version(1);
        assertEquals(RejectReason.UNSUPPORTED_VERSION, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameWithUnknownType()
    {
        final int length = validLeave();

        leave.type(0);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, resign(length)));
        leave.type(7);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, resign(length)));
        leave.type(0xFF);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameWhoseLengthDoesNotMatchItsType()
    {
        final int heartbeatLength = validHeartbeat();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, heartbeatLength - 1), "before its MAC");
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, resign(heartbeatLength - 1)));
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, resign(heartbeatLength + 1)));

        final int leaveLength = validLeave();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, resign(leaveLength + 8)));

        final int newObserverLength = validNewObserver();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, resign(newObserverLength - 4)));

        final int noticeLength = writeNotice(3, 9, 1L, 3, 1, 5, 2);
        assertEquals(RejectReason.WRONG_LENGTH,
            decoder.decode(buffer, 0, resign(noticeLength - FailureNoticeFlyweight.RANGE_LENGTH)));
        writeNotice(3, 9, 1L, 3, 1, 5, 2);
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, resign(noticeLength + 1)));
        writeNotice(3, 9, 1L, 3, 1, 5, 2);
        assertEquals(RejectReason.WRONG_LENGTH,
            decoder.decode(buffer, 0, resign(FailureNoticeFlyweight.lengthOf(0) - 1)));
    }

    @Test
    void shouldRejectNoticeWithRangeCountOutOfRange()
    {
        final int length = writeNotice(3, 9, 1L, 3, 1);

        notice.rangeCount(0);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, resign(FailureNoticeFlyweight.lengthOf(0))));
        notice.rangeCount(-1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
        notice.rangeCount(FailureNoticeFlyweight.MAX_RANGES + 1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameWithNonZeroFlags()
    {
        final int length = validHeartbeat();
        heartbeat.flags(0x8000);

        assertEquals(RejectReason.BAD_FLAGS, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameFromAnotherCluster()
    {
        final int length = validNewObserver();
        newObserver.clusterId(CLUSTER_ID + 1);

        assertEquals(RejectReason.WRONG_CLUSTER, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameWithAnotherConfigDigestAndNameItsSender()
    {
        final int length = validLeave();
        final int theirs = ConfigDigest.of(CLUSTER_ID, N, 1_000_000L, 20_000_000L);
        leave.configDigest(theirs);

        assertEquals(RejectReason.CONFIG_MISMATCH, decoder.decode(buffer, 0, resign(length)));
        assertEquals(5, decoder.mismatchedSenderRank());
        assertEquals(theirs, decoder.mismatchedConfigDigest());
    }

    @Test
    void shouldRejectFrameAddressedToAnotherRank()
    {
        final int length = validHeartbeat();

        heartbeat.destinationRank(LOCAL_RANK + 1);
        assertEquals(RejectReason.WRONG_DESTINATION, decoder.decode(buffer, 0, resign(length)));
        heartbeat.destinationRank(-1);
        assertEquals(RejectReason.WRONG_DESTINATION, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectFrameThatWasSignedButNeverStamped()
    {
        final int length = validHeartbeat();

        assertEquals(RejectReason.BAD_FRAME_SEQUENCE,
            decoder.decode(buffer, 0, Frames.seal(authenticator, buffer, 0, length, 0)));
        assertEquals(RejectReason.BAD_FRAME_SEQUENCE,
            decoder.decode(buffer, 0, Frames.seal(authenticator, buffer, 0, length, Long.MIN_VALUE)));
    }

    @Test
    void shouldRejectFrameWhoseSenderIsOutsideTheCluster()
    {
        final int length = validLeave();

        leave.senderRank(N);
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
        leave.senderRank(-1);
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNewObserverAddressedToRankOutsideTheCluster()
    {
        final int length = validNewObserver();
        newObserver.emitterRank(N);

        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNewObserverWhoseEmitterIsNotItsDestination()
    {
        final int length = validNewObserver();
        newObserver.emitterRank(LOCAL_RANK + 1);

        assertEquals(RejectReason.EMITTER_NOT_DESTINATION, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNoticeWhoseDeadOrSourceRankIsOutsideTheCluster()
    {
        final int length = writeNotice(3, 9, 1L, 3, 1);

        notice.deadRank(-1);
        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
        notice.deadRank(3).sourceRank(N);
        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectHeartbeatWithCounterBelowOne()
    {
        final int length = validHeartbeat();

        heartbeat.counter(0);
        assertEquals(RejectReason.BAD_COUNTER, decoder.decode(buffer, 0, resign(length)));
        heartbeat.counter(Long.MIN_VALUE);
        assertEquals(RejectReason.BAD_COUNTER, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNewObserverWithInconsistentRdmaRegion()
    {
        final int length = validNewObserver();

        newObserver.rdmaLength(-64);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, resign(length)));
        newObserver.rdmaLength(0).rdmaRkey(5).rdmaAddress(0);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, resign(length)));
        newObserver.rdmaRkey(0).rdmaAddress(0x1000);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNewObserverWithNonZeroReserved()
    {
        final int length = validNewObserver();
        newObserver.reserved(1);

        assertEquals(RejectReason.RESERVED_NOT_ZERO, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldRejectNoticeWithSequenceBelowOne()
    {
        final int length = writeNotice(3, 9, 0L, 3, 1);

        assertEquals(RejectReason.BAD_SEQUENCE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWithEmptyRange()
    {
        assertEquals(RejectReason.EMPTY_RANGE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, 1, 5, 0)));
        assertEquals(RejectReason.EMPTY_RANGE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, -2)));
    }

    @Test
    void shouldRejectNoticeWhoseRangeLeavesTheCluster()
    {
        assertEquals(RejectReason.RANGE_OUT_OF_RANGE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, 1, 60, 5)));
        assertEquals(RejectReason.RANGE_OUT_OF_RANGE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, -1, 5)));
        assertEquals(RejectReason.RANGE_OUT_OF_RANGE,
            decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, 1, N - 1, Integer.MAX_VALUE)));
    }

    @Test
    void shouldRejectNoticeWhoseRangesAreNotSorted()
    {
        final int length = writeNotice(3, 9, 1L, 20, 2, 3, 1);

        assertEquals(RejectReason.RANGES_NOT_SORTED, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWhoseRangesOverlap()
    {
        final int length = writeNotice(3, 9, 1L, 2, 4, 5, 1);

        assertEquals(RejectReason.RANGES_OVERLAP, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWhoseRangesAreAdjacentInsteadOfMerged()
    {
        final int length = writeNotice(3, 9, 1L, 2, 2, 4, 1);

        assertEquals(RejectReason.RANGES_NOT_MERGED, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWhoseDeadRankIsMissingFromItsSet()
    {
        final int length = writeNotice(3, 9, 1L, 4, 2, 10, 1);

        assertEquals(RejectReason.DEAD_RANK_NOT_IN_SET, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWhoseSourceIsInItsOwnSet()
    {
        final int length = writeNotice(3, 9, 1L, 3, 1, 8, 3);

        assertEquals(RejectReason.SOURCE_IN_SET, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectAReplayedFrameThoughItsMacIsValid()
    {
        final int length = validHeartbeat();
        final byte[] recorded = Frames.bytes(buffer, 0, length);

        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, length));
        buffer.putBytes(0, recorded);
        assertEquals(RejectReason.REPLAYED, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectAFrameOlderThanTheReplayWindow()
    {
        final int length = validLeave();
        final byte[] recorded = Frames.bytes(buffer, 0, length);
        for (int i = 0; i < ReplayGuard.WINDOW; i++)
        {
            assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validLeave()));
        }

        buffer.putBytes(0, recorded);
        assertEquals(RejectReason.STALE_SEQUENCE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldAcceptAFrameOvertakenByLaterOnesInsideTheWindow()
    {
        final int leaveLength = validLeave();
        final byte[] overtaken = Frames.bytes(buffer, 0, leaveLength);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validLeave()));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validLeave()));

        buffer.putBytes(0, overtaken);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, leaveLength));
    }

    @Test
    void shouldRejectFramesFromAnIncarnationOtherThanTheAdmittedOne()
    {
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validHeartbeat()));
        final int length = validHeartbeat();

        heartbeat.senderIncarnation(0);
        assertEquals(RejectReason.STALE_INCARNATION, decoder.decode(buffer, 0, resign(length)));
        heartbeat.senderIncarnation(2);
        assertEquals(RejectReason.UNKNOWN_INCARNATION, decoder.decode(buffer, 0, resign(length)));

        replayGuard.admitIncarnation(4, 2);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, resign(length)));
        heartbeat.senderIncarnation(1);
        assertEquals(RejectReason.STALE_INCARNATION, decoder.decode(buffer, 0, resign(length)));
    }

    @Test
    void shouldNotRememberAFrameRejectedForItsBody()
    {
        final int length = validHeartbeat();
        final long sequence = heartbeat.frameSequence();
        heartbeat.counter(0);
        assertEquals(RejectReason.BAD_COUNTER, decoder.decode(buffer, 0, resign(length, sequence)));

        heartbeat.counter(10);
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, resign(length, sequence)));
    }

    @Test
    void shouldAcceptTheUntamperedBaseFrames()
    {
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validHeartbeat()));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validNewObserver()));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, validLeave()));
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, 1, 5, 2)));
    }

    @Test
    void shouldKeepThePreviousNoticeWhenANoticeIsRejected()
    {
        assertEquals(RejectReason.NONE, decoder.decode(buffer, 0, writeNotice(3, 9, 1L, 3, 1)));

        assertEquals(RejectReason.SOURCE_IN_SET, decoder.decode(buffer, 0, writeNotice(20, 21, 2L, 20, 2)));

        assertEquals(3, decoder.notice().deadRank());
        assertEquals(1, decoder.notice().deadSet().size());
        assertFalse(decoder.notice().deadSet().contains(20));
    }

    @Test
    void shouldDescribeEveryReason()
    {
        for (final RejectReason reason : RejectReason.values())
        {
            assertFalse(reason.description().isBlank(), reason.name());
        }
    }

    private int validHeartbeat()
    {
        final int length = heartbeat.encode(buffer, 0, CLUSTER_ID, 4, 1, LOCAL_RANK, DIGEST, 10L, 0L);
        heartbeat.wrap(buffer, 0);
        return resign(length);
    }

    private int validNewObserver()
    {
        final int length = newObserver.encode(buffer, 0, CLUSTER_ID, 2, 1, DIGEST, LOCAL_RANK, 99, 0x1000L, 64);
        newObserver.wrap(buffer, 0);
        return resign(length);
    }

    private int validLeave()
    {
        final int length = leave.encode(buffer, 0, CLUSTER_ID, 5, 1, LOCAL_RANK, DIGEST);
        leave.wrap(buffer, 0);
        return resign(length);
    }

    /**
     * Sign the frame at 0 over {@code length} bytes with a new frame sequence, as an insider would after a change.
     */
    private int resign(final int length)
    {
        return resign(length, nextSequence++);
    }

    private int resign(final int length, final long sequence)
    {
        return Frames.seal(authenticator, buffer, 0, length, sequence);
    }

    // ViewFlyweight has no count setters: the counts follow the header
    private void viewCounts(final int rangeCount, final int entryCount)
    {
        buffer.putInt(FrameHeaderFlyweight.HEADER_LENGTH, rangeCount, java.nio.ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(FrameHeaderFlyweight.HEADER_LENGTH + Integer.BYTES, entryCount, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    private void flip(final int bit)
    {
        buffer.putByte(bit >>> 3, (byte)(buffer.getByte(bit >>> 3) ^ (1 << (bit & 7))));
    }

    /**
     * Write a notice field by field, bypassing the encoder's checks, from (first rank, length) pairs.
     */
    private int writeNotice(final int deadRank, final int sourceRank, final long sequence, final int... ranges)
    {
        final int rangeCount = ranges.length / 2;
        notice.wrap(buffer, 0)
            .deadRank(deadRank)
            .sourceRank(sourceRank)
            .sourceIncarnation(1)
            // written, not left over from the frame before (whose MAC bytes lie there)
            .subjectIncarnation(0)
            .rangeCount(rangeCount)
            .sequence(sequence)
            .header(FAILURE_NOTICE_TYPE, CLUSTER_ID, 0, 1, LOCAL_RANK, DIGEST);
        for (int i = 0; i < rangeCount; i++)
        {
            notice.range(i, ranges[2 * i], ranges[2 * i + 1]);
        }
        return resign(FailureNoticeFlyweight.lengthOf(rangeCount));
    }
}
