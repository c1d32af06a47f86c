package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeartbeatSlotsTest
{
    @TempDir
    File dir;

    @Test
    void shouldReturnCounterOnlyForTheEmitterThatWroteIt()
    {
        try (HeartbeatSlots slots = HeartbeatSlots.mapOrCreate(new File(dir, "hb.dat"), 1, 4))
        {
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, slots.read(2, 1), "empty slot");
            slots.write(2, 1, 7, 42, 1000);
            assertEquals(42, slots.read(2, 1));
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, slots.read(2, 0), "another writer's counter is no progress");
            assertEquals(1, slots.lastWriter(2));

            slots.write(2, 0, 7, 5, 2000);
            assertEquals(5, slots.read(2, 0));
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, slots.read(2, 1), "the slot now belongs to rank 0");
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, slots.read(3, 0), "slots are independent");
        }
    }

    @Test
    void shouldShareSlotsBetweenMappingsOfTheSameFile()
    {
        final File file = new File(dir, "hb.dat");
        try (HeartbeatSlots emitterSide = HeartbeatSlots.mapOrCreate(file, 3, 8);
            HeartbeatSlots observerSide = HeartbeatSlots.mapOrCreate(file, 3, 8))
        {
            emitterSide.write(5, 4, 1, 99, 0);
            assertEquals(99, observerSide.read(5, 4));
            observerSide.clear(5);
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, emitterSide.read(5, 4));
        }
    }

    @Test
    void shouldRejectSlotFileOfAnotherClusterShape()
    {
        final File file = new File(dir, "hb.dat");
        HeartbeatSlots.mapOrCreate(file, 1, 4).close();
        final IllegalStateException size = assertThrows(IllegalStateException.class,
            () -> HeartbeatSlots.mapOrCreate(file, 1, 5));
        assertTrue(size.getMessage().contains("5 ranks"), size.getMessage());
        final IllegalStateException id = assertThrows(IllegalStateException.class,
            () -> HeartbeatSlots.mapOrCreate(file, 2, 4));
        assertTrue(id.getMessage().contains("clusterId=1"), id.getMessage());
    }

    @Test
    void shouldPlaceEverySlotOnItsOwnCacheLine()
    {
        assertEquals(64, HeartbeatSlots.SLOT_LENGTH);
        assertEquals(64, HeartbeatSlots.HEADER_LENGTH);
        assertEquals(64 + 4 * 64, HeartbeatSlots.fileLength(4));
    }
}
