package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.protocol.StartIncarnation;
import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncarnationFileTest
{
    private static final long NOW_MS = 1_800_000_000_000L;
    private static final long FLOOR = NOW_MS << StartIncarnation.CLOCK_SHIFT;

    @TempDir
    Path root;

    @Test
    void shouldKeepTheRecordWhenTheDriverDeletesItsDirectory() throws Exception
    {
        final Path aeronDir = Files.createDirectories(root.resolve("aeron"));
        final Path file = IncarnationFile.fileFor(aeronDir.toString(), 7, 2);
        assertFalse(file.startsWith(aeronDir), "outside the directory a driver deletes at start: " + file);
        assertEquals(root.resolve("aeron" + IncarnationFile.STATE_DIR_SUFFIX), file.getParent());

        assertEquals(FLOOR, IncarnationFile.next(file, NOW_MS));
        // what a media driver does to its directory when it starts again
        IoUtil.delete(aeronDir.toFile(), false);
        assertEquals(FLOOR, IncarnationFile.last(file), "the rank still knows it ran here");
        assertEquals(FLOOR + 1, IncarnationFile.next(file, NOW_MS), "and takes a greater one");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
    }

    @Test
    void shouldRecordSixtyFourBitDecimalsWithNoCap() throws Exception
    {
        final Path file = IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0);
        assertTrue(FLOOR > Integer.MAX_VALUE);
        assertEquals(FLOOR, IncarnationFile.next(file, NOW_MS));
        assertEquals(Long.toString(FLOOR), Files.readString(file, StandardCharsets.US_ASCII).trim());

        // a record past 2^31 (a life started in 2038 under the old rule would have been capped here) still grows
        Files.writeString(file, Long.toString(Integer.MAX_VALUE + 10L), StandardCharsets.US_ASCII);
        assertEquals(Integer.MAX_VALUE + 11L, IncarnationFile.next(file, 0));
        Files.writeString(file, Long.toString(Long.MAX_VALUE - 1), StandardCharsets.US_ASCII);
        assertEquals(Long.MAX_VALUE, IncarnationFile.next(file, NOW_MS), "the last one there is");
        assertThrows(IllegalArgumentException.class, () -> IncarnationFile.next(file, NOW_MS), "none after it");
        assertEquals(Long.MAX_VALUE, IncarnationFile.last(file), "and the record is left as it was");
    }

    @Test
    void shouldGrowWhenTheClockIsSteppedBack()
    {
        final Path file = IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0);
        long last = IncarnationFile.next(file, NOW_MS);
        for (long clockMs = NOW_MS - 1; clockMs > NOW_MS - 10 * 86_400_000L; clockMs -= 86_400_000L)
        {
            final long next = IncarnationFile.next(file, clockMs);
            assertTrue(next > last, "clock " + clockMs + ": " + next + " after " + last);
            last = next;
        }
    }

    @Test
    void shouldTakeTheClockAsTheFloorWhenTheRecordIsLostOrUnreadable() throws Exception
    {
        final Path file = IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0);
        assertEquals(FLOOR, IncarnationFile.next(file, NOW_MS));
        Files.delete(file);
        assertEquals(FLOOR + (1000L << StartIncarnation.CLOCK_SHIFT), IncarnationFile.next(file, NOW_MS + 1000),
            "a lost record: a clock one second on still starts above the last life");
        Files.writeString(file, "garbage", StandardCharsets.US_ASCII);
        assertEquals(FLOOR + (2000L << StartIncarnation.CLOCK_SHIFT), IncarnationFile.next(file, NOW_MS + 2000));
    }

    @Test
    void shouldFailTheStartWhenTheRecordCannotBeWritten() throws Exception
    {
        // a file where the directory should be: no permission trick, which root would pass
        Files.writeString(root.resolve("aeron" + IncarnationFile.STATE_DIR_SUFFIX), "not a directory");
        final Path file = IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0);
        assertThrows(UncheckedIOException.class, () -> IncarnationFile.next(file, NOW_MS));
    }

    @Test
    void shouldLeaveNoTemporaryFileBehind() throws Exception
    {
        final Path file = IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0);
        IncarnationFile.next(file, NOW_MS);
        IncarnationFile.next(file, NOW_MS);
        try (var entries = Files.list(file.getParent()))
        {
            assertEquals(1, entries.count(), "the temporary file is renamed over the record");
        }
    }

    @Test
    void shouldNameTheSameFileWhateverTheSpellingOfTheDirectory()
    {
        assertEquals(IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0),
            IncarnationFile.fileFor(root.resolve("aeron") + "/", 1, 0));
        assertEquals(IncarnationFile.fileFor(root.resolve("aeron").toString(), 1, 0),
            IncarnationFile.fileFor(root.resolve("x/../aeron").toString(), 1, 0));
    }
}
