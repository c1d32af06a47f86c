package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.protocol.StartIncarnation;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where a rank keeps the last incarnation it joined under, so the next one is greater: a one-line text file next
 * to the node's view and slot files, replaced atomically (write a temporary file, then rename over).
 * <p>
 * A joining node takes the next incarnation by core's rule ({@link StartIncarnation#ofJoiner}), from the last one
 * recorded here. If the file cannot be read the clock still applies; a write that fails fails the start, so no
 * incarnation is ever used without being recorded.
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
     * @return the last incarnation recorded, 0 if none (no file, or unreadable).
     */
    public static long last(final Path file)
    {
        try
        {
            return Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim());
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
     * Record a seed's boot incarnation (its pid), so its next start is known for a restart and takes a greater one.
     *
     * @param file        incarnation file.
     * @param incarnation the boot incarnation.
     */
    public static void record(final Path file, final long incarnation)
    {
        write(file, incarnation);
    }

    /**
     * Take the next incarnation and record it before it is used.
     *
     * @param file         incarnation file.
     * @param epochSeconds seconds since the epoch now: the floor.
     * @return {@code max(last + 1, epochSeconds)}, recorded.
     */
    public static long next(final Path file, final long epochSeconds)
    {
        final long incarnation = StartIncarnation.ofJoiner(last(file), epochSeconds);
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
            Files.writeString(temporary, incarnation + System.lineSeparator(), StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot record incarnation " + incarnation + " in " + file, ex);
        }
    }
}
