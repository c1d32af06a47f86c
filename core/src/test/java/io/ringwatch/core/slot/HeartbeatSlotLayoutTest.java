package io.ringwatch.core.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeartbeatSlotLayoutTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[3 * HeartbeatSlotLayout.SLOT_LENGTH]);

    @Test
    void shouldPackRankAndCounterIntoOneWordAndWrapTheCounter()
    {
        final int maxRank = (1 << HeartbeatSlotLayout.RANK_BITS) - 1;
        final long word = HeartbeatSlotLayout.pack(maxRank, HeartbeatSlotLayout.COUNTER_MASK);
        assertEquals(maxRank, (int)(word & maxRank));
        assertEquals(HeartbeatSlotLayout.COUNTER_MASK, word >>> HeartbeatSlotLayout.RANK_BITS);
        assertEquals(HeartbeatSlotLayout.pack(3, 0), HeartbeatSlotLayout.pack(3, HeartbeatSlotLayout.COUNTER_MASK + 1));
        assertTrue(word >>> HeartbeatSlotLayout.RANK_BITS >= 0, "a counter never reads as NO_HEARTBEAT");
    }

    @Test
    void shouldReadCounterOnlyForTheRankThatPublishedIt()
    {
        final int offset = HeartbeatSlotLayout.SLOT_LENGTH;
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, HeartbeatSlotLayout.heartbeatFrom(buffer, offset, 0));
        assertEquals(HeartbeatSlotLayout.NO_WRITER, HeartbeatSlotLayout.writerRank(buffer, offset));

        HeartbeatSlotLayout.publish(buffer, offset, 42, 7, 3, 1_000L);

        assertEquals(42, HeartbeatSlotLayout.heartbeatFrom(buffer, offset, 7));
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, HeartbeatSlotLayout.heartbeatFrom(buffer, offset, 8));
        assertEquals(HeartbeatChannel.NO_HEARTBEAT, HeartbeatSlotLayout.heartbeatFrom(buffer, offset, -1));
        assertEquals(7, HeartbeatSlotLayout.writerRank(buffer, offset));
        assertEquals(0L, HeartbeatSlotLayout.word(buffer, 0), "neighbouring slot untouched");
        assertEquals(0L, HeartbeatSlotLayout.word(buffer, 2 * HeartbeatSlotLayout.SLOT_LENGTH));

        HeartbeatSlotLayout.clear(buffer, offset);

        assertEquals(HeartbeatChannel.NO_HEARTBEAT, HeartbeatSlotLayout.heartbeatFrom(buffer, offset, 7));
        assertEquals(0, buffer.getInt(offset + HeartbeatSlotLayout.WRITER_INCARNATION_OFFSET));
    }
}
