package io.ringwatch.transport.aeron.internal;

import io.ringwatch.transport.aeron.RingwatchConfiguration;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One live node per rank, cluster and Aeron directory on a host: an exclusive lock on a small file, taken before the
 * node touches any of its files (incarnation, view, slots), held until it is closed, and released by the kernel when
 * its process dies however it dies. A second start of the rank finds the lock held and is refused before it can
 * truncate the live node's view or record an incarnation.
 * <p>
 * The file lies beside the Aeron directory, not in it: a media driver deletes its whole directory when it starts
 * (an embedded driver right after the node took its lock), and a lock on a file unlinked under it locks nothing the
 * next process can find. The holder writes its pid into the file, for the refusal's message only.
 */
public final class RankLock implements AutoCloseable
{
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private RankLock(final Path file, final FileChannel channel, final FileLock lock)
    {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @param aeronDir  the node's Aeron directory.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the rank's lock file, a sibling of the Aeron directory.
     */
    public static Path fileFor(final String aeronDir, final int clusterId, final int rank)
    {
        final File dir = new File(aeronDir).getAbsoluteFile();
        return new File(dir.getParentFile(), dir.getName() + "-ringwatch-" + clusterId + "-" + rank + ".lock")
            .toPath();
    }

    /**
     * Take the rank's lock now or fail.
     *
     * @param aeronDir  the node's Aeron directory.
     * @param clusterId cluster.
     * @param rank      node.
     * @return the lock, held until {@link #close()}.
     * @throws RankRunningException if another process (or another node of this JVM) holds it.
     */
    public static RankLock acquire(final String aeronDir, final int clusterId, final int rank)
    {
        final Path file = fileFor(aeronDir, clusterId, rank);
        final FileChannel channel;
        try
        {
            Files.createDirectories(file.getParent());
            SharedFiles.prepare(file.toFile(), RingwatchConfiguration.filesGroup());
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the lock file " + file + " of rank " + rank, ex);
        }
        FileLock lock = null;
        try
        {
            lock = channel.tryLock();
        }
        catch (final OverlappingFileLockException ex)
        {
            // this JVM holds it: another node of the same rank embedded in the same process
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + file + " for rank " + rank, ex);
        }
        if (lock == null)
        {
            final String holder = holder(channel);
            closeQuietly(channel);
            throw new RankRunningException("rank " + rank + " of cluster " + clusterId + " is already running on " +
                "this host with aeron.dir=" + aeronDir + " (" + holder + " holds " + file + "): refusing to start " +
                "a second one, nothing was touched; stop the running one first (systemctl stop " +
                "ringwatch-node@" + rank + ", or kill " + (holder.startsWith("pid ") ? holder.substring(4) : "it") +
                ")");
        }
        try
        {
            final byte[] pid = (ProcessHandle.current().pid() + System.lineSeparator())
                .getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot write the pid into the lock file " + file, ex);
        }
        return new RankLock(file, channel, lock);
    }

    /**
     * @return the lock file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Release the lock; the file stays (removing it would let two starters lock two different files).
     */
    public void close()
    {
        if (channel.isOpen())
        {
            try
            {
                lock.release();
            }
            catch (final IOException ignore)
            {
                // closing the channel releases it too
            }
            closeQuietly(channel);
        }
    }

    private static String holder(final FileChannel channel)
    {
        try
        {
            final ByteBuffer buffer = ByteBuffer.allocate(32);
            final int read = channel.read(buffer, 0);
            final String pid = read <= 0 ? "" :
                new String(buffer.array(), 0, read, StandardCharsets.US_ASCII).trim();
            return pid.isEmpty() ? "another process" : "pid " + pid;
        }
        catch (final IOException ex)
        {
            return "another process";
        }
    }

    private static void closeQuietly(final FileChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // nothing held
        }
    }

    /**
     * The rank is running here already: a start refused before it touched anything. Not a configuration error and
     * nothing a restart fixes while the other one runs.
     */
    public static final class RankRunningException extends IllegalStateException
    {
        private static final long serialVersionUID = 1L;

        RankRunningException(final String message)
        {
            super(message);
        }
    }
}
