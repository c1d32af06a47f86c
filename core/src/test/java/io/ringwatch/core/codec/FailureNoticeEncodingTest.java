package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.ringwatch.core.codec.FailureNoticeFlyweight.INVALID_NOTICE;
import static io.ringwatch.core.codec.FailureNoticeFlyweight.MAX_RANGES;
import static io.ringwatch.core.codec.FailureNoticeFlyweight.TOO_MANY_RANGES;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.INSUFFICIENT_CAPACITY;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FailureNoticeEncodingTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final FailureNoticeFlyweight flyweight = new FailureNoticeFlyweight();

    @Test
    void shouldRefuseSetNeedingMoreThanMaxRanges()
    {
        final UnsafeBuffer roomy = new UnsafeBuffer(new byte[2 * FailureNoticeFlyweight.MAX_LENGTH]);
        final TestNotice notice = new TestNotice(0, 1, 1, 1L, TestNotice.everyOther(MAX_RANGES + 1));

        assertEquals(TOO_MANY_RANGES, FailureNoticeFlyweight.encodedLength(notice));
        assertEquals(TOO_MANY_RANGES, flyweight.encode(roomy, 0, 1, 0, 1, 2, 0, notice));
    }

    @Test
    void shouldAcceptLargeSetThatCompressesIntoFewRuns()
    {
        final int[] ranks = new int[100_000];
        for (int i = 0; i < ranks.length; i++)
        {
            ranks[i] = i < 50_000 ? i : i + 1;
        }
        final TestNotice notice = new TestNotice(0, 50_000, 1, 1L, ranks);

        assertEquals(FailureNoticeFlyweight.lengthOf(2), flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, notice));
        flyweight.wrap(buffer, 0);
        assertEquals(50_001, flyweight.rangeFirstRank(1));
        assertEquals(50_000, flyweight.rangeLength(1));
    }

    @Test
    void shouldRefuseWhenBufferIsTooSmall()
    {
        final TestNotice notice = new TestNotice(4, 1, 1, 1L, 4, 8);
        final int length = FailureNoticeFlyweight.encodedLength(notice);

        assertEquals(INSUFFICIENT_CAPACITY,
            flyweight.encode(buffer, buffer.capacity() - length + 1, 1, 0, 1, 2, 0, notice));
        assertEquals(INSUFFICIENT_CAPACITY, flyweight.encode(buffer, -1, 1, 0, 1, 2, 0, notice));
        assertEquals(length, flyweight.encode(buffer, buffer.capacity() - length, 1, 0, 1, 2, 0, notice));
    }

    @Test
    void shouldRefuseOtherFramesWhenBufferIsTooSmall()
    {
        final UnsafeBuffer tiny = new UnsafeBuffer(new byte[FrameHeaderFlyweight.MIN_FRAME_LENGTH - 1]);

        assertEquals(INSUFFICIENT_CAPACITY, new HeartbeatFlyweight().encode(tiny, 0, 1, 0, 1, 2, 0, 1L, 0L));
        assertEquals(INSUFFICIENT_CAPACITY, new NewObserverFlyweight().encode(tiny, 0, 1, 0, 1, 0, 1));
        assertEquals(INSUFFICIENT_CAPACITY, new LeaveFlyweight().encode(tiny, 0, 1, 0, 1, 2, 0));
    }

    @Test
    void shouldRefuseEmptyDeadSet()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 1L)));
    }

    @Test
    void shouldRefuseDeadSetWithoutTheDeadRank()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 1L, 2, 4)));
    }

    @Test
    void shouldRefuseDeadSetContainingTheSource()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 4, 1, 1L, 3, 4)));
    }

    @Test
    void shouldRefuseDeadSetThatIsNotAscending()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 1L, 5, 3)));
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 1L, 3, 3)));
    }

    @Test
    void shouldRefuseSequenceBelowOne()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 0L, 3)));
    }

    @Test
    void shouldRefuseDeadSetWithNegativeRank()
    {
        assertEquals(INVALID_NOTICE, flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, new TestNotice(3, 1, 1, 1L, -1, 3)));
    }

    @Test
    void shouldReportTheSameLengthItWrites()
    {
        final TestNotice notice = new TestNotice(9, 0, 1, 1L, 1, 2, 5, 9, 10, 11, 20);

        assertEquals(FailureNoticeFlyweight.lengthOf(4), FailureNoticeFlyweight.encodedLength(notice));
        assertEquals(FailureNoticeFlyweight.lengthOf(4), flyweight.encode(buffer, 0, 1, 0, 1, 2, 0, notice));
        assertEquals(4, flyweight.wrap(buffer, 0).rangeCount());
    }
}
