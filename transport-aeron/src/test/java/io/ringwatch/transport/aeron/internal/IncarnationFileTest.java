package io.ringwatch.transport.aeron.internal;

import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class IncarnationFileTest
{
    @TempDir
    Path root;

    @Test
    void shouldKeepTheRecordWhenTheDriverDeletesItsDirectory() throws Exception
    {
        final Path aeronDir = Files.createDirectories(root.resolve("aeron"));
        final Path file = IncarnationFile.fileFor(aeronDir.toString(), 7, 2);
        assertFalse(file.startsWith(aeronDir), "outside the directory a driver deletes at start: " + file);
        assertEquals(root.resolve("aeron" + IncarnationFile.STATE_DIR_SUFFIX), file.getParent());

        assertEquals(1_800_000_000, IncarnationFile.next(file, 1_800_000_000L));
        // what a media driver does to its directory when it starts again
        IoUtil.delete(aeronDir.toFile(), false);
        assertEquals(1_800_000_000, IncarnationFile.last(file), "the rank still knows it ran here");
        assertEquals(1_800_000_001, IncarnationFile.next(file, 1_800_000_000L), "and takes a greater one");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
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
