package io.ringwatch.transport.aeron.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slot and view files are made only in a real directory this user owns, never through a symbolic link, so nobody
 * can point a node's heartbeat writes at another file or swap the files under it.
 */
class SharedFilesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRefuseADirectoryThatIsASymbolicLink() throws IOException
    {
        final Path real = Files.createDirectory(dir.resolve("real"));
        final Path link = Files.createSymbolicLink(dir.resolve("aeron"), real);

        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> SharedFiles.prepare(link.resolve("hb.dat").toFile(), null));

        assertTrue(ex.getMessage().contains(link + " is a symbolic link (to " + real + ")"), ex.getMessage());
        assertFalse(Files.exists(real.resolve("hb.dat")), "nothing made through the link");
    }

    @Test
    void shouldRefuseAFileThatIsASymbolicLinkAndLeaveItsTargetAlone() throws IOException
    {
        final Path victim = Files.writeString(dir.resolve("victim"), "not a slot file");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        final Path slot = Files.createSymbolicLink(dir.resolve("hb.dat"), victim);

        final IllegalStateException ex =
            assertThrows(IllegalStateException.class, () -> SharedFiles.prepare(slot.toFile(), null));

        assertTrue(ex.getMessage().contains("is a symbolic link (to " + victim + ")"), ex.getMessage());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)));
        assertEquals("not a slot file", Files.readString(victim));
    }

    @Test
    void shouldRefuseADirectoryAnotherUserOwnsAndTakeOneOfItsOwn() throws IOException
    {
        final String owner = Files.getOwner(dir).getName();
        final File file = dir.resolve("hb.dat").toFile();

        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> SharedFiles.prepare(file, null, "ringwatch-not-" + owner));

        assertTrue(ex.getMessage().contains(dir + " belongs to " + owner + ", not to ringwatch-not-" + owner),
            ex.getMessage());
        assertFalse(file.exists(), "nothing made in it");
        SharedFiles.prepare(file, null, owner);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.toPath())));
    }
}
