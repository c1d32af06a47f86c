package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.StartBarrier;
import org.agrona.IoUtil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;

/**
 * Where one local cluster keeps its files, all below one directory so that deleting it leaves nothing behind:
 * <pre>
 *   ringwatch-cluster-&lt;pid&gt;-&lt;n&gt;/
 *     aeron/                  the media driver's directory; the nodes' slot and view files go here too
 *     cluster.txt             the cluster file every node reads
 *     logs/driver.log         the driver's output (its ready line says the launch is done)
 *     logs/node-&lt;rank&gt;.log    each node's output
 *     start                   the start barrier, created once every node is ready
 *     start.&lt;rank&gt;.ready     created by each node when it is ready
 * </pre>
 * Under {@code /dev/shm} when the host has it, so the slot and view files live in memory.
 */
public final class ClusterDirectory
{
    private final File root;

    /**
     * @param root the directory; nothing is created until {@link #create(ClusterConfig)}.
     */
    public ClusterDirectory(final File root)
    {
        this.root = root;
    }

    /**
     * @param prefix start of the directory's name.
     * @return a directory name no other process or earlier call of this one uses, under {@link #defaultParent()}.
     */
    public static ClusterDirectory unique(final String prefix)
    {
        return new ClusterDirectory(
            new File(defaultParent(), prefix + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime()));
    }

    /**
     * @return {@code /dev/shm} if it exists, else the temporary directory.
     */
    public static File defaultParent()
    {
        final File shm = new File("/dev/shm");
        return shm.isDirectory() ? shm : new File(IoUtil.tmpDirName());
    }

    /**
     * Create the directory and its {@code logs/}, write the cluster file and a fresh cluster key (owner-only, so the
     * nodes run with frame authentication); the driver creates {@code aeron/}.
     *
     * @param cluster the cluster the nodes will read.
     * @throws IllegalStateException if the directory cannot be created.
     * @throws UncheckedIOException  if the cluster file cannot be written.
     */
    public void create(final ClusterConfig cluster)
    {
        create(cluster, null);
    }

    /**
     * As {@link #create(ClusterConfig)}, with a given cluster key: a later run of a cluster that ran before.
     *
     * @param cluster the cluster the nodes will read.
     * @param key     the cluster key to write, or null for a fresh one.
     * @throws IllegalStateException if the directory cannot be created.
     * @throws UncheckedIOException  if the cluster file cannot be written.
     */
    public void create(final ClusterConfig cluster, final byte[] key)
    {
        final File logs = logDir();
        if (!logs.mkdirs())
        {
            throw new IllegalStateException("cannot create " + logs);
        }
        try
        {
            Files.writeString(clusterFile().toPath(), cluster.render(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + clusterFile(), ex);
        }
        KeyFile.create(keyFile().toPath(), key != null ? key : KeyFile.generate(new SecureRandom()));
    }

    /**
     * Delete the directory and everything in it; nothing happens if it does not exist.
     */
    public void delete()
    {
        IoUtil.delete(root, true);
    }

    /**
     * @return the directory itself.
     */
    public File root()
    {
        return root;
    }

    /**
     * @return the Aeron directory shared by the driver, slot and view files.
     */
    public File aeronDir()
    {
        return new File(root, "aeron");
    }

    /**
     * @return the cluster key given to the nodes.
     */
    public File keyFile()
    {
        return new File(root, "cluster.key");
    }

    /**
     * @return the cluster file given to the nodes.
     */
    public File clusterFile()
    {
        return new File(root, "cluster.txt");
    }

    /**
     * @return the directory of the driver's and nodes' logs.
     */
    public File logDir()
    {
        return new File(root, "logs");
    }

    /**
     * @return the driver's log.
     */
    public File driverLog()
    {
        return new File(logDir(), "driver.log");
    }

    /**
     * @param rank a node.
     * @return its log.
     */
    public File nodeLog(final int rank)
    {
        return new File(logDir(), "node-" + rank + ".log");
    }

    /**
     * @return the start barrier: the nodes start watching once it exists.
     */
    public File startFile()
    {
        return new File(root, "start");
    }

    /**
     * @param rank a node.
     * @return the file the node creates when it is ready and waiting at the barrier.
     */
    public File readyFile(final int rank)
    {
        return StartBarrier.readyFile(startFile().toPath(), rank).toFile();
    }

    /**
     * @param log a log file.
     * @return its content, or a note saying why there is none; never throws, since it goes into error messages.
     */
    public static String read(final File log)
    {
        try
        {
            return log.exists() ? Files.readString(log.toPath()) : "(no log)";
        }
        catch (final IOException ex)
        {
            return "(unreadable log: " + ex + ")";
        }
    }

    /**
     * @param log  a log file.
     * @param line what to add at its end, e.g. a marker between a node's lives.
     * @throws UncheckedIOException if it cannot be written.
     */
    public static void append(final File log, final String line)
    {
        try
        {
            Files.writeString(log.toPath(), line, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
