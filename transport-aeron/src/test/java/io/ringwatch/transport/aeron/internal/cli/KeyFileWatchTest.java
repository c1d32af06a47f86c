package io.ringwatch.transport.aeron.internal.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rotation steps an operator takes, as the node's main thread sees them.
 */
class KeyFileWatchTest
{
    @TempDir
    Path dir;

    @Test
    void shouldSeeEachRewriteReplacementLossAndReturnOnce() throws Exception
    {
        final Path key = dir.resolve("cluster.key");
        Files.writeString(key, "old\n", StandardCharsets.US_ASCII);
        final FileTime written = Files.getLastModifiedTime(key);
        final KeyFileWatch watch = new KeyFileWatch(key);
        assertFalse(watch.changed(), "untouched");

        // step 1 in place: a second line
        Files.writeString(key, "old\nnew\n", StandardCharsets.US_ASCII);
        assertTrue(watch.changed(), "rewritten, longer");
        assertFalse(watch.changed(), "seen once");

        // step 2 as documented: a sibling of the same size, written later, moved over the file
        final Path next = dir.resolve("cluster.key.next");
        Files.writeString(next, "new\nold\n", StandardCharsets.US_ASCII);
        Files.setLastModifiedTime(next, FileTime.fromMillis(written.toMillis() + 1_000));
        Files.move(next, key, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(watch.changed(), "replaced, same size");
        assertFalse(watch.changed(), "seen once");

        Files.delete(key);
        assertTrue(watch.changed(), "gone");
        assertFalse(watch.changed(), "still gone: reported once");
        Files.writeString(key, "new\n", StandardCharsets.US_ASCII);
        assertTrue(watch.changed(), "back");
    }
}
