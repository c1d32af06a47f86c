package io.ringwatch.transport.aeron.auth;

import io.ringwatch.core.codec.FrameAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyFileTest
{
    private static final String KEY_A = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    private static final String KEY_B = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
    private static final String KEY_C = "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF";

    @TempDir
    Path dir;

    @Test
    void shouldReadThePrimaryFirstAndSkipCommentsAndBlankLines() throws IOException
    {
        final Path file = write("keys", "rw-------", "# rotation in progress", "", "  " + KEY_B + "  ", KEY_A, "");

        final List<byte[]> keys = KeyFile.load(file);

        assertEquals(2, keys.size());
        assertArrayEquals(hex(KEY_B), keys.get(0));
        assertArrayEquals(hex(KEY_A), keys.get(1));
        assertEquals(2, KeyFile.authenticator(file).keyCount());
    }

    @Test
    void shouldAcceptOwnerOnlyModes() throws IOException
    {
        assertEquals(1, KeyFile.load(write("rw", "rw-------", KEY_A)).size());
        assertEquals(1, KeyFile.load(write("r", "r--------", KEY_A)).size());
    }

    @Test
    void shouldRefuseAKeyFileOthersMayReadOrWriteAndSayWhyAndHowToFixIt() throws IOException
    {
        assertRefused(write("g", "rw-r-----", KEY_A), "is readable by its group (mode rw-r-----)", "chmod 600");
        assertRefused(write("o", "rw----r--", KEY_A), "is readable by other users (mode rw----r--)", "chmod 600");
        assertRefused(write("gw", "rw--w----", KEY_A), "is writable by its group", "can forge frames");
        assertRefused(write("go", "rw-r--r--", KEY_A), "readable by its group and readable by other users");
    }

    @Test
    void shouldRefuseAMissingFileWithTheCommandThatMakesOne()
    {
        assertRefused(dir.resolve("none"), "does not exist", "keygen --out " + dir.resolve("none"));
        assertRefused(dir, "is not a regular file");
    }

    @Test
    void shouldRefuseMalformedKeyringsWithoutPrintingKeyMaterial() throws IOException
    {
        final String secret = KEY_A.substring(0, 62);
        final IllegalArgumentException shortKey = assertRefused(
            write("short", "rw-------", "# comment", secret), "line 2: expected 64 hex digits", "found 62 characters");
        assertFalse(shortKey.getMessage().contains(secret), shortKey.getMessage());

        assertRefused(write("nonhex", "rw-------", KEY_A.replace('a', 'x')), "line 1: not hexadecimal");
        assertRefused(write("empty", "rw-------", "# nothing", ""), "holds no key");
        assertRefused(write("four", "rw-------", KEY_A, KEY_B, KEY_C, KEY_A.replace('0', '1')),
            "holds 4 keys; at most 3");
        final IllegalArgumentException repeat = assertThrows(IllegalArgumentException.class,
            () -> KeyFile.authenticator(write("repeat", "rw-------", KEY_A, KEY_B, KEY_A)));
        assertTrue(repeat.getMessage().endsWith("key 3 repeats key 1"), repeat.getMessage());
    }

    @Test
    void shouldRefuseAKeyFileAnotherUserOwnsNamingBothAndTheFix() throws IOException
    {
        final Path file = write("theirs", "rw-------", KEY_A);
        final String owner = Files.getOwner(file).getName();

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> KeyFile.load(file, "ringwatch-not-" + owner));

        assertTrue(ex.getMessage().contains("belongs to " + owner + ", not to ringwatch-not-" + owner),
            ex.getMessage());
        assertTrue(ex.getMessage().contains("chown ringwatch-not-" + owner), ex.getMessage());
        assertEquals(1, KeyFile.load(file, owner).size(), "its owner's node takes it");
    }

    /**
     * The check reads the attributes of the file that was opened: a file renamed over the path afterwards (here one
     * anyone may read) is not what is checked, nor what is read.
     */
    @Test
    void shouldCheckAndReadTheOpenedFileNotWhatThePathNamesLater() throws IOException
    {
        final Path file = write("cluster.key", "rw-------", KEY_A);
        final Path swap = write("swap", "rw-r--r--", KEY_B);
        final Object openedKey = Files.readAttributes(file, PosixFileAttributes.class).fileKey();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            Files.move(swap, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            final PosixFileAttributes opened = OpenedFiles.attributes(channel, file);

            assertEquals(openedKey, opened.fileKey(), "the opened file's identity");
            assertEquals("rw-------", PosixFilePermissions.toString(opened.permissions()));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                "the path now names the swapped file, which a check by path would have judged");
            assertEquals(0, channel.position(), "left ready to read from the start");
        }
    }

    @Test
    void shouldRefuseAKeyThatIsOneByteRepeated() throws IOException
    {
        assertRefused(write("zero", "rw-------", "0".repeat(KeyFile.HEX_DIGITS)),
            "line 1: the key is one byte repeated (0x00 x 32)", "keygen");
        assertRefused(write("same", "rw-------", KEY_A, "41".repeat(FrameAuthenticator.KEY_LENGTH)),
            "line 2: the key is one byte repeated (0x41 x 32)");
        assertEquals(1, KeyFile.load(write("fine", "rw-------", "00".repeat(31) + "01")).size(),
            "one differing byte is not refused: this guards against placeholders, it does not judge entropy");
    }

    @Test
    void shouldCreateANewKeyFileReadableByItsOwnerOnlyAndNeverOverwriteOne() throws IOException
    {
        final Path file = dir.resolve("cluster.key");
        final byte[] key = KeyFile.generate(new SecureRandom());

        KeyFile.create(file, key);

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertArrayEquals(key, KeyFile.load(file).get(0));
        final IllegalArgumentException exists = assertRefusedCreate(file);
        assertTrue(exists.getMessage().contains("refusing to overwrite"), exists.getMessage());
        assertArrayEquals(key, KeyFile.load(file).get(0));
    }

    @Test
    void shouldGenerateDistinctKeysAndNameThemByAShortFingerprint()
    {
        final SecureRandom random = new SecureRandom();
        final byte[] a = KeyFile.generate(random);
        final byte[] b = KeyFile.generate(random);

        assertEquals(FrameAuthenticator.KEY_LENGTH, a.length);
        assertFalse(java.util.Arrays.equals(a, b));
        assertEquals(8, KeyFile.fingerprint(a).length());
        assertEquals(KeyFile.fingerprint(a), KeyFile.fingerprint(a.clone()));
        assertFalse(KeyFile.fingerprint(a).equals(KeyFile.fingerprint(b)));
        assertEquals(KeyFile.HEX_DIGITS, KeyFile.toLine(a).length());
    }

    private Path write(final String name, final String mode, final String... lines) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.write(file, List.of(lines));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    private static IllegalArgumentException assertRefused(final Path file, final String... fragments)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> KeyFile.load(file));
        for (final String fragment : fragments)
        {
            assertTrue(ex.getMessage().contains(fragment), () -> "'" + fragment + "' not in: " + ex.getMessage());
        }
        assertTrue(ex.getMessage().contains(file.toString()), ex.getMessage());
        return ex;
    }

    private static IllegalArgumentException assertRefusedCreate(final Path file)
    {
        return assertThrows(IllegalArgumentException.class, () -> KeyFile.create(file, new byte[32]));
    }

    private static byte[] hex(final String digits)
    {
        return java.util.HexFormat.of().parseHex(digits);
    }
}
