package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.auth.KeyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeygenCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteANewOwnerOnlyKeyFileThatNodesAccept() throws IOException
    {
        final Path file = dir.resolve("cluster.key");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertEquals(0, KeygenCommand.run(new String[]{"keygen", "--out", file.toString()}, new PrintStream(out)));

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        final byte[] key = KeyFile.load(file).get(0);
        final String printed = out.toString(StandardCharsets.US_ASCII);
        assertTrue(printed.contains("wrote key " + KeyFile.fingerprint(key) + " to " + file), printed);
        assertTrue(!printed.contains(KeyFile.toLine(key)), "the key itself is not printed");
        assertThrows(IllegalArgumentException.class,
            () -> KeygenCommand.run(new String[]{"keygen", "--out", file.toString()}, new PrintStream(out)));
        assertArrayEquals(key, KeyFile.load(file).get(0));
    }

    @Test
    void shouldPrintOnlyAFreshKeyLineWithoutOut()
    {
        final ByteArrayOutputStream first = new ByteArrayOutputStream();
        final ByteArrayOutputStream second = new ByteArrayOutputStream();

        assertEquals(0, KeygenCommand.run(new String[]{"keygen"}, new PrintStream(first)));
        assertEquals(0, KeygenCommand.run(new String[]{"keygen"}, new PrintStream(second)));

        final String line = first.toString(StandardCharsets.US_ASCII).strip();
        assertEquals(KeyFile.HEX_DIGITS, line.length());
        assertEquals(32, HexFormat.of().parseHex(line).length);
        assertNotEquals(line, second.toString(StandardCharsets.US_ASCII).strip());
    }
}
