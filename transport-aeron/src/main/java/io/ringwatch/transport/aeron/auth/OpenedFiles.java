package io.ringwatch.transport.aeron.auth;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The attributes of an open file, {@code fstat} in effect, which Java offers no public call for. On Linux the open
 * descriptor is found among {@code /proc/self/fdinfo} by a file position nobody else uses, set on the channel for the
 * look-up, and its attributes are read through {@code /proc/self/fd/N}, which names the opened file itself whatever
 * has happened to its path since. Elsewhere the path's attributes are read before and after, and must name the same
 * file ({@code fileKey}), which narrows the window without closing it.
 */
final class OpenedFiles
{
    private static final Path FD = Path.of("/proc/self/fd");
    private static final Path FDINFO = Path.of("/proc/self/fdinfo");
    // far beyond a key file's length, so no other descriptor sits there, and inside every file system's largest
    // offset (ext4: 16 TiB)
    private static final long MARKER_BASE = 1L << 40;

    private OpenedFiles()
    {
    }

    /**
     * @param channel open on the file; its position is left at 0.
     * @param path    the path it was opened by, for the fallback and messages.
     * @return the opened file's attributes.
     * @throws IOException if they cannot be read, or (without /proc) the path named another file meanwhile.
     */
    static PosixFileAttributes attributes(final FileChannel channel, final Path path) throws IOException
    {
        if (!Files.isDirectory(FDINFO))
        {
            final PosixFileAttributes before = Files.readAttributes(path, PosixFileAttributes.class);
            final PosixFileAttributes after = Files.readAttributes(path, PosixFileAttributes.class);
            if (before.fileKey() == null || !before.fileKey().equals(after.fileKey()))
            {
                throw new IOException(path + " changed while it was being checked");
            }
            return after;
        }
        final long marker = MARKER_BASE + ThreadLocalRandom.current().nextLong(1L << 32);
        channel.position(marker);
        try (DirectoryStream<Path> infos = Files.newDirectoryStream(FDINFO))
        {
            for (final Path info : infos)
            {
                if (position(info) == marker)
                {
                    return Files.readAttributes(FD.resolve(info.getFileName().toString()), PosixFileAttributes.class);
                }
            }
        }
        finally
        {
            channel.position(0);
        }
        throw new IOException("the descriptor open on " + path + " is not among /proc/self/fdinfo");
    }

    private static long position(final Path info)
    {
        try
        {
            final List<String> lines = Files.readAllLines(info, StandardCharsets.US_ASCII);
            for (final String line : lines)
            {
                if (line.startsWith("pos:"))
                {
                    return Long.parseLong(line.substring("pos:".length()).strip());
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // a descriptor closed meanwhile, or not a file: not ours
        }
        return -1;
    }
}
