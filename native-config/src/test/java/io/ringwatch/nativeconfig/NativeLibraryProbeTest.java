package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class NativeLibraryProbeTest
{
    @TempDir
    Path dir;

    @Test
    void shouldFindVersionedSharedObject() throws IOException
    {
        final Path first = Files.createDirectories(dir.resolve("a"));
        final Path second = Files.createDirectories(dir.resolve("b"));
        final Path lib = Files.createFile(second.resolve("libibverbs.so.1"));

        assertEquals(lib, NativeLibraryProbe.find("ibverbs", List.of(first, dir.resolve("missing"), second)));
    }

    @Test
    void shouldNotMistakeSimilarlyNamedLibrary() throws IOException
    {
        Files.createFile(dir.resolve("libibverbs-extra.so"));

        assertNull(NativeLibraryProbe.find("ibverbs", List.of(dir)));
    }

    @Test
    void shouldReportLoadFailureWithLinkerMessage()
    {
        final NativeLibraryProbe.Result result = NativeLibraryProbe.tryLoad("ringwatch-no-such-library");

        assertFalse(result.usable());
        assertNotNull(result.loadError());
    }
}
