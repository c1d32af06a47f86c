package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.protocol.StartIncarnation;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where a rank keeps the last incarnation it started under, so the next one is greater: a one-line decimal file
 * beside the node's Aeron directory, replaced durably (a temporary file written and forced to disk, renamed over,
 * the directory forced) before the incarnation is used.
 * <p>
 * Every start, seed or joiner, takes the next incarnation by core's rule ({@link StartIncarnation#next}) from the
 * last one recorded here and the wall clock. A record that cannot be read leaves the clock as the floor; a record
 * that cannot be written fails the start, so no incarnation is used without being on disk, and a power loss right
 * after the start cannot bring back the file's earlier value.
 */
public final class IncarnationFile
{
    private IncarnationFile()
    {
    }

    /** Appended to the Aeron directory's name for the directory beside it that keeps the incarnation files. */
    public static final String STATE_DIR_SUFFIX = ".ringwatch";

    /**
     * The file lives beside the Aeron directory, not in it: a media driver deletes its directory when it starts, so
     * a record kept there was lost with every driver restart, and a seed rank then came back as a fresh seed and
     * formed a second cluster beside the live one (nemesis seed 11, 69 such boots in 30 minutes).
     *
     * @param aeronDir  the node's Aeron directory.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the rank's incarnation file, in {@code <aeronDir>.ringwatch/}.
     */
    public static Path fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        final Path dir = new File(aeronDir).toPath().toAbsolutePath().normalize();
        return dir.resolveSibling(dir.getFileName() + STATE_DIR_SUFFIX)
            .resolve("ringwatch-" + clusterId + "-incarnation-" + rank);
    }

    /**
     * @param file incarnation file.
     * @return the last incarnation recorded, 0 if none (no file, or not a non-negative decimal).
     */
    public static long last(final Path file)
    {
        try
        {
            final long last = Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim());
            return Math.max(0, last);
        }
        catch (final NoSuchFileException | NumberFormatException ex)
        {
            return 0;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read incarnation file " + file, ex);
        }
    }

    /**
     * Take the next incarnation and record it, durably, before it is used.
     *
     * @param file        incarnation file.
     * @param epochMillis the wall clock, milliseconds since the epoch: the floor.
     * @return {@code max(last + 1, epochMillis << 16)}, recorded.
     * @throws UncheckedIOException if it cannot be recorded: the start must fail.
     */
    public static long next(final Path file, final long epochMillis)
    {
        final long incarnation = StartIncarnation.next(last(file), epochMillis);
        write(file, incarnation);
        return incarnation;
    }

    private static void write(final Path file, final long incarnation)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (!Files.isDirectory(parent))
            {
                // the owner's alone, as the view and slot files are
                Files.createDirectories(parent,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            final Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE))
            {
                final ByteBuffer text = ByteBuffer.wrap(
                    (incarnation + System.lineSeparator()).getBytes(StandardCharsets.US_ASCII));
                while (text.hasRemaining())
                {
                    channel.write(text);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            // the rename is durable only once the directory entry is
            try (FileChannel directory = FileChannel.open(parent, StandardOpenOption.READ))
            {
                directory.force(true);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot record incarnation " + incarnation + " in " + file, ex);
        }
    }
}
