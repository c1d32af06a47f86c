package io.ringwatch.transport.aeron.internal.slot;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;

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
    void shouldInitialiseASlotFileWhoseCreatorDiedBeforeWritingItsHeader() throws Exception
    {
        // what a creator leaves when it dies after sizing the file (or after creating it) but before the header
        for (final long leftLength : new long[] {HeartbeatSlots.fileLength(4), 100})
        {
            final File file = new File(dir, "hb-" + leftLength + ".dat");
            try (RandomAccessFile raf = new RandomAccessFile(file, "rw"))
            {
                raf.setLength(leftLength);
            }
            final IllegalStateException inspected = assertThrows(IllegalStateException.class,
                () -> HeartbeatSlots.mapExisting(file));
            assertTrue(inspected.getMessage().contains("died before writing it"), inspected.getMessage());

            try (HeartbeatSlots slots = HeartbeatSlots.mapOrCreate(file, 1, 4))
            {
                slots.write(2, 1, 7, 42, 1000);
                assertEquals(42, slots.read(2, 1));
            }
            try (HeartbeatSlots again = HeartbeatSlots.mapExisting(file))
            {
                assertEquals(4, again.clusterSize(), "the header is written now");
            }
        }
    }

    @Test
    void shouldCreateSlotFilesReadableAndWritableByTheirOwnerOnly() throws Exception
    {
        final File file = new File(dir, "hb.dat");
        HeartbeatSlots.mapOrCreate(file, 1, 4).close();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.toPath())));

        final File loose = new File(dir, "loose.dat");
        Files.createFile(loose.toPath(), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-rw-rw-")));
        HeartbeatSlots.mapOrCreate(loose, 1, 4).close();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(loose.toPath())),
            "an existing file of this user is tightened");
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
