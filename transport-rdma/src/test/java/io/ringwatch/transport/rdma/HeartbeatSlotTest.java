package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeartbeatSlotTest
{
    private final UnsafeBuffer buffer = HeartbeatSlot.allocateAligned();
    private final HeartbeatSlot slot = new HeartbeatSlot().wrap(buffer, 0).reset();

    @Test
    void shouldLayOutFieldsAsDocumented()
    {
        assertEquals(0, HeartbeatSlotLayout.HEARTBEAT_WORD_OFFSET);
        assertEquals(8, HeartbeatSlotLayout.WRITER_INCARNATION_OFFSET);
        assertEquals(16, HeartbeatSlotLayout.WRITER_TIMESTAMP_OFFSET);
        assertEquals(24, HeartbeatSlotLayout.WRITER_RANK_OFFSET);
        assertEquals(28, HeartbeatSlotLayout.PAYLOAD_LENGTH);
        assertEquals(64, HeartbeatSlotLayout.SLOT_LENGTH);
        assertEquals(0, slot.address() % HeartbeatSlotLayout.SLOT_ALIGNMENT);
    }

    @Test
    void shouldPackCounterAboveTwentyFourRankBits()
    {
        final long word = HeartbeatSlotLayout.pack(0x123456, 0x0102030405L);

        assertEquals(0x0102030405_123456L, word);
        assertEquals(0x123456, HeartbeatSlotLayout.rankOf(word));
        assertEquals(0x0102030405L, HeartbeatSlotLayout.counterOf(word));
    }

    @Test
    void shouldKeepThirtyNineCounterBitsSoTheWordIsNeverNegative()
    {
        final long word = HeartbeatSlotLayout.pack(HeartbeatSlotLayout.MAX_RANK, -1L);

        assertTrue(word > 0);
        assertEquals(HeartbeatSlotLayout.COUNTER_MASK, HeartbeatSlotLayout.counterOf(word));
        assertEquals((1L << 39) - 1, HeartbeatSlotLayout.COUNTER_MASK);
    }

    @Test
    void shouldEncodePayloadLittleEndian()
    {
        slot.encode(0x0102030405L, 0x111213, 0x2122232425262728L, 0x3132333435363738L);

        final byte[] payload = new byte[HeartbeatSlotLayout.PAYLOAD_LENGTH];
        buffer.getBytes(0, payload);
        final ByteBuffer expected = ByteBuffer.allocate(HeartbeatSlotLayout.PAYLOAD_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(0x0102030405_111213L)
            .putLong(0x2122232425262728L)
            .putLong(0x3132333435363738L)
            .putInt(0x111213);
        assertArrayEquals(expected.array(), payload);
    }

    @Test
    void shouldReadCounterWrittenByTheWatchedEmitter()
    {
        final long incarnation = (1L << 31) + 3; // past 31 bits
        slot.publish(42, 7, incarnation, 123_456_789L);

        assertEquals(42, slot.heartbeatFrom(7));
        assertEquals(7, slot.writerRank());
        assertEquals(incarnation, slot.writerIncarnation());
        assertEquals(123_456_789L, slot.writerTimestampNs());
    }

    @Test
    void shouldReportNoHeartbeatWhenLastWriterIsAnotherRank()
    {
        slot.publish(42, 7, 0, 0);

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(6));
    }

    @Test
    void shouldNotCreditANewEmitterWithTheCounterOfTheOneItReplaced()
    {
        slot.publish(1_000, 7, 0, 0);   // old emitter, still writing
        slot.publish(1, 6, 0, 0);       // new emitter after mending
        slot.publish(1_001, 7, 0, 0);   // old emitter's late write lands last

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(6));
        assertEquals(1_001, slot.heartbeatFrom(7));
    }

    @Test
    void shouldReportNoHeartbeatForRankOutsideTheWord()
    {
        slot.publish(3, 0, 0, 0);

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(1 << 24));
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(-1));
    }

    @Test
    void shouldReportNoHeartbeatForNeverWrittenSlotEvenForRankZero()
    {
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(0));
        assertEquals(HeartbeatSlot.NO_WRITER, slot.writerRank());
    }

    @Test
    void shouldForgetPreviousWriterOnReset()
    {
        slot.publish(9, 1, 0, 0);

        slot.reset();

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, slot.heartbeatFrom(1));
        assertEquals(0, slot.counter());
    }

    @Test
    void shouldReadWhatAnRdmaPutOfTheEncodedPayloadWouldLeave()
    {
        final UnsafeBuffer source = HeartbeatSlot.allocateAligned();
        new HeartbeatSlot().wrap(source, 0).encode(5, 2, 1, 77);

        buffer.putBytes(0, source, 0, HeartbeatSlotLayout.PAYLOAD_LENGTH);

        assertEquals(5, slot.heartbeatFrom(2));
        assertEquals(77, slot.writerTimestampNs());
    }

    @Test
    void shouldRejectHeapBuffer()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new HeartbeatSlot().wrap(new UnsafeBuffer(new byte[128]), 0));
        assertTrue(ex.getMessage().contains("off-heap"), ex.getMessage());
    }

    @Test
    void shouldRejectMisalignedSlot()
    {
        final UnsafeBuffer big = new UnsafeBuffer(org.agrona.BufferUtil.allocateDirectAligned(256, 64));

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> new HeartbeatSlot().wrap(big, 8));
        assertTrue(ex.getMessage().contains("aligned"), ex.getMessage());
        new HeartbeatSlot().wrap(big, 64);
    }

    @Test
    void shouldRejectSlotBeyondCapacity()
    {
        final UnsafeBuffer big = new UnsafeBuffer(org.agrona.BufferUtil.allocateDirectAligned(128, 64));

        assertThrows(IllegalArgumentException.class, () -> new HeartbeatSlot().wrap(big, 128));
        assertThrows(IllegalArgumentException.class, () -> new HeartbeatSlot().wrap(big, -64));
    }

    @Test
    void shouldNotAllocateWhenEncodingPublishingOrReading()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        long sink = 0;
        for (int i = 1; i <= 20_000; i++) // warm up, including the measurement call itself
        {
            sink += beat(i);
        }
        threads.getThreadAllocatedBytes(threadId);

        // one-off allocations (JIT deoptimisation, OSR, class loading) can land in any single run; steady-state
        // allocation would show in every run, so the quietest of a few runs must be exactly zero
        final long[] allocated = new long[5];
        long quietest = Long.MAX_VALUE;
        for (int run = 0; run < allocated.length && quietest != 0; run++)
        {
            final long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 1; i <= 100_000; i++)
            {
                sink += beat(i);
            }
            allocated[run] = threads.getThreadAllocatedBytes(threadId) - before;
            quietest = Math.min(quietest, allocated[run]);
        }

        assertEquals(0, quietest, "bytes allocated per run of 100k beats " + java.util.Arrays.toString(allocated) +
            " (sink " + sink + ")");
    }

    private long beat(final int counter)
    {
        slot.encode(counter, 1, 0, counter);
        slot.publish(counter, 2, 0, counter);
        return slot.heartbeatFrom(2) + slot.heartbeatFrom(1);
    }

    @Test
    void shouldSeeMetadataMatchingEveryCounterPublishedByAnotherThread() throws InterruptedException
    {
        final int rank = 3;
        final long beats = 200_000;
        final Thread writer = new Thread(() ->
        {
            final HeartbeatSlot w = new HeartbeatSlot().wrap(buffer, 0);
            for (long c = 1; c <= beats; c++)
            {
                w.publish(c, rank, (int)c, c * 10);
            }
        });
        writer.start();

        long last = 0;
        String violation = null;
        while (last < beats && violation == null && (writer.isAlive() || slot.counter() != last))
        {
            final long counter = slot.heartbeatFrom(rank);
            if (counter == HeartbeatChannel.NO_HEARTBEAT)
            {
                continue;
            }
            final long incarnation = slot.writerIncarnation();
            if (counter < last)
            {
                violation = "counter went back from " + last + " to " + counter;
            }
            else if (incarnation < counter)
            {
                violation = "metadata older than counter: incarnation " + incarnation + " < counter " + counter;
            }
            last = counter;
        }
        writer.join();

        assertNull(violation);
        assertEquals(beats, slot.heartbeatFrom(rank));
    }
}
