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

    /**
     * @param aeronDir  the node's Aeron directory, where its view file lives.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the rank's incarnation file.
     */
    public static Path fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        return new File(aeronDir, "ringwatch-" + clusterId + "-incarnation-" + rank).toPath();
    }

    /**
     * @param file incarnation file.
     * @return the last incarnation recorded, 0 if none (no file, or unreadable).
     */
    public static int last(final Path file)
    {
        try
        {
            return Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).trim());
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
    public static void record(final Path file, final int incarnation)
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
    public static int next(final Path file, final long epochSeconds)
    {
        final int incarnation = StartIncarnation.ofJoiner(last(file), epochSeconds);
        write(file, incarnation);
        return incarnation;
    }

    private static void write(final Path file, final int incarnation)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
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
