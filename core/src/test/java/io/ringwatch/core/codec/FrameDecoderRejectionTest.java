package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.FAILURE_NOTICE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * One targeted malformed frame per {@link RejectReason}: each starts from a valid frame and breaks one thing.
 */
class FrameDecoderRejectionTest
{
    private static final int CLUSTER_ID = 7;
    private static final int N = 64;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH + 64]);
    private final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N);
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();

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

        assertEquals(RejectReason.TOO_SHORT, decoder.decode(buffer, 0, FrameHeaderFlyweight.HEADER_LENGTH - 1));
        assertEquals(RejectReason.TOO_SHORT, decoder.decode(buffer, 0, 0));
    }

    @Test
    void shouldRejectFrameWithWrongVersion()
    {
        final int length = validHeartbeat();
        heartbeat.version(FrameHeaderFlyweight.VERSION + 1);

        assertEquals(RejectReason.UNSUPPORTED_VERSION, decoder.decode(buffer, 0, length));
        heartbeat.version(0);
        assertEquals(RejectReason.UNSUPPORTED_VERSION, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectFrameWithUnknownType()
    {
        final int length = validLeave();

        leave.type(0);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, length));
        leave.type(5);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, length));
        leave.type(0xFF);
        assertEquals(RejectReason.UNKNOWN_TYPE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectFrameWhoseLengthDoesNotMatchItsType()
    {
        final int heartbeatLength = validHeartbeat();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, heartbeatLength - 1));
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, heartbeatLength + 1));

        final int leaveLength = validLeave();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, leaveLength + 8));

        final int newObserverLength = validNewObserver();
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, newObserverLength - 4));

        final int noticeLength = writeNotice(3, 9, 1L, 3, 1, 5, 2);
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, noticeLength - FailureNoticeFlyweight.RANGE_LENGTH));
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, noticeLength + 1));
        assertEquals(RejectReason.WRONG_LENGTH, decoder.decode(buffer, 0, FailureNoticeFlyweight.RANGES_OFFSET - 1));
    }

    @Test
    void shouldRejectNoticeWithRangeCountOutOfRange()
    {
        final int length = writeNotice(3, 9, 1L, 3, 1);

        notice.rangeCount(0);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE, decoder.decode(buffer, 0, FailureNoticeFlyweight.lengthOf(0)));
        notice.rangeCount(-1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
        notice.rangeCount(FailureNoticeFlyweight.MAX_RANGES + 1);
        assertEquals(RejectReason.RANGE_COUNT_OUT_OF_RANGE,
            decoder.decode(buffer, 0, FailureNoticeFlyweight.lengthOf(FailureNoticeFlyweight.MAX_RANGES + 1)));
    }

    @Test
    void shouldRejectFrameWithNonZeroFlags()
    {
        final int length = validHeartbeat();
        heartbeat.flags(0x8000);

        assertEquals(RejectReason.BAD_FLAGS, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectFrameFromAnotherCluster()
    {
        final int length = validNewObserver();
        newObserver.clusterId(CLUSTER_ID + 1);

        assertEquals(RejectReason.WRONG_CLUSTER, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectFrameWhoseSenderIsOutsideTheCluster()
    {
        final int length = validLeave();

        leave.senderRank(N);
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
        leave.senderRank(-1);
        assertEquals(RejectReason.SENDER_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNewObserverAddressedToRankOutsideTheCluster()
    {
        final int length = validNewObserver();
        newObserver.emitterRank(N);

        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNoticeWhoseDeadOrSourceRankIsOutsideTheCluster()
    {
        final int length = writeNotice(3, 9, 1L, 3, 1);

        notice.deadRank(-1);
        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
        notice.deadRank(3).sourceRank(N);
        assertEquals(RejectReason.RANK_OUT_OF_RANGE, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectHeartbeatWithCounterBelowOne()
    {
        final int length = validHeartbeat();

        heartbeat.counter(0);
        assertEquals(RejectReason.BAD_COUNTER, decoder.decode(buffer, 0, length));
        heartbeat.counter(Long.MIN_VALUE);
        assertEquals(RejectReason.BAD_COUNTER, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNewObserverWithInconsistentRdmaRegion()
    {
        final int length = validNewObserver();

        newObserver.rdmaLength(-64);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, length));
        newObserver.rdmaLength(0).rdmaRkey(5).rdmaAddress(0);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, length));
        newObserver.rdmaRkey(0).rdmaAddress(0x1000);
        assertEquals(RejectReason.BAD_RDMA_REGION, decoder.decode(buffer, 0, length));
    }

    @Test
    void shouldRejectNewObserverWithNonZeroReserved()
    {
        final int length = validNewObserver();
        newObserver.reserved(1);

        assertEquals(RejectReason.RESERVED_NOT_ZERO, decoder.decode(buffer, 0, length));
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
        final int length = heartbeat.encode(buffer, 0, CLUSTER_ID, 1, 1, 10L, 0L);
        heartbeat.wrap(buffer, 0);
        return length;
    }

    private int validNewObserver()
    {
        final int length = newObserver.encode(buffer, 0, CLUSTER_ID, 2, 1, 1, 99, 0x1000L, 64);
        newObserver.wrap(buffer, 0);
        return length;
    }

    private int validLeave()
    {
        final int length = leave.encode(buffer, 0, CLUSTER_ID, 5, 1);
        leave.wrap(buffer, 0);
        return length;
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
            .rangeCount(rangeCount)
            .sequence(sequence)
            .header(FAILURE_NOTICE_TYPE, CLUSTER_ID, 0, 1);
        for (int i = 0; i < rangeCount; i++)
        {
            notice.range(i, ranges[2 * i], ranges[2 * i + 1]);
        }
        return FailureNoticeFlyweight.lengthOf(rangeCount);
    }
}
