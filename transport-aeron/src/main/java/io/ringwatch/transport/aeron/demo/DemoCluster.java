package io.ringwatch.transport.aeron.demo;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.Drivers;
import io.ringwatch.transport.aeron.StartBarrier;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of real node processes on this host sharing one media driver, itself a process of its own
 * ({@code ringwatch.jar driver}): the engine of {@code ringwatch demo}, of the multi-process tests and of the
 * detection benchmarks. The driver stays out of the calling JVM because with UDP every heartbeat crosses it, and a
 * garbage collection in a busy harness would stop it for longer than δ.
 * <pre>{@code
 * try (DemoCluster cluster = new DemoCluster(new DemoCluster.Options().nodes(8).transport(TransportMode.UDP)))
 * {
 *     cluster.start();
 *     cluster.awaitAllUp(30_000);
 *     long killedAtNs = cluster.kill(3);                  // SIGKILL, System.nanoTime() just before
 *     cluster.awaitViews(Set.of(3), 10_000);              // every live node holds exactly {3}
 *     long learnedAtNs = cluster.view(4).detectedAtNs(3); // same host, same monotonic clock
 * }
 * }</pre>
 * Every process is destroyed, the driver stopped and the directory deleted on {@link #close()}, on a failed
 * start, and by a shutdown hook if the caller exits without closing (e.g. Ctrl-C on {@code ringwatch demo}).
 */
public final class DemoCluster implements AutoCloseable
{
    /**
     * What to launch.
     */
    public static final class Options
    {
        int nodes = 8;
        TransportMode transport = TransportMode.IPC;
        long heartbeatNs = TimeUnit.MILLISECONDS.toNanos(5);
        long timeoutNs = TimeUnit.MILLISECONDS.toNanos(50);
        long graceNs = TimeUnit.SECONDS.toNanos(3);
        String profile = "low-noise";
        int realtimePriority;
        int clusterId = 1;
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> jvmOptions = new ArrayList<>(List.of(
            "-XX:+UseSerialGC", "-Xms128m", "-Xmx128m", "-Xmn96m", "-XX:TieredStopAtLevel=1", "-Xss512k",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        boolean inheritOutput;
        File logDir;

        /**
         * @param nodes number of node processes.
         * @return this.
         */
        public Options nodes(final int nodes)
        {
            this.nodes = nodes;
            return this;
        }

        /**
         * @param transport ipc or udp.
         * @return this.
         */
        public Options transport(final TransportMode transport)
        {
            this.transport = transport;
            return this;
        }

        /**
         * @param ns η.
         * @return this.
         */
        public Options heartbeatNs(final long ns)
        {
            this.heartbeatNs = ns;
            return this;
        }

        /**
         * @param ns δ.
         * @return this.
         */
        public Options timeoutNs(final long ns)
        {
            this.timeoutNs = ns;
            return this;
        }

        /**
         * @param ns startup grace of each node.
         * @return this.
         */
        public Options graceNs(final long ns)
        {
            this.graceNs = ns;
            return this;
        }

        /**
         * @param profile low-latency or low-noise.
         * @return this.
         */
        public Options profile(final String profile)
        {
            this.profile = profile;
            return this;
        }

        /**
         * @param classpath classpath of the node JVMs.
         * @return this.
         */
        /**
         * @param priority SCHED_FIFO priority for the node agents and the driver's thread; 0 (default) for none.
         * @return this.
         */
        public Options realtimePriority(final int priority)
        {
            if (priority != 0)
            {
                RealtimePriority.validate(priority);
            }
            this.realtimePriority = priority;
            return this;
        }

        public int realtimePriority()
        {
            return realtimePriority;
        }

        public Options classpath(final String classpath)
        {
            this.classpath = classpath;
            return this;
        }

        /**
         * @param options JVM options of the node processes, replacing the defaults (small serial-GC heap, C1 only,
         *                the opens Agrona needs).
         * @return this.
         */
        public Options jvmOptions(final List<String> options)
        {
            this.jvmOptions = new ArrayList<>(options);
            return this;
        }

        /**
         * @return JVM options of the node processes.
         */
        public List<String> jvmOptions()
        {
            return jvmOptions;
        }

        /**
         * @param clusterId cluster id of the demo cluster.
         * @return this.
         */
        public Options clusterId(final int clusterId)
        {
            this.clusterId = clusterId;
            return this;
        }

        /**
         * @param inherit true to let node processes print to this process's stdout/stderr.
         * @return this.
         */
        public Options inheritOutput(final boolean inherit)
        {
            this.inheritOutput = inherit;
            return this;
        }

        /**
         * @return η.
         */
        public long heartbeatNs()
        {
            return heartbeatNs;
        }

        /**
         * @return δ.
         */
        public long timeoutNs()
        {
            return timeoutNs;
        }

        /**
         * @return the nodes' startup grace, counted from their release.
         */
        public long graceNs()
        {
            return graceNs;
        }

        /**
         * @return the cluster id in the cluster file.
         */
        public int clusterId()
        {
            return clusterId;
        }

        /**
         * @return N.
         */
        public int nodes()
        {
            return nodes;
        }

        /**
         * @return transport.
         */
        public TransportMode transport()
        {
            return transport;
        }

        /**
         * @return profile name.
         */
        public String profile()
        {
            return profile;
        }
    }

    private final Options options;
    private final File dir;
    private final File aeronDir;
    private final File clusterFile;
    private final Process[] processes;
    private final long[] killedAtNs;
    private volatile long releasedAtNs;

    /** Nodes poll the barrier file every millisecond; this covers them all having started their agents. */
    public static final long ARM_MARGIN_NS = TimeUnit.MILLISECONDS.toNanos(200);
    private final ViewReader[] readers;
    private final Thread cleanup;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Held while the constructor creates the driver and files and while {@link #close()} removes them, so a
     * shutdown hook that fires mid-construction waits for what is being created and then deletes it.
     */
    private final Object lifecycleLock = new Object();

    /** Guarded by {@link #lifecycleLock}: null before the launch, after close, or if the launch never happened. */
    private Process driver;

    /**
     * Start the media driver and write the cluster file; no node runs yet.
     *
     * @param options what to launch.
     */
    public DemoCluster(final Options options)
    {
        if (options.nodes < 2)
        {
            throw new IllegalArgumentException("a demo cluster needs at least 2 nodes: " + options.nodes);
        }
        this.options = options;
        final File base = new File("/dev/shm").isDirectory() ? new File("/dev/shm") : new File(IoUtil.tmpDirName());
        this.dir = new File(base, "ringwatch-demo-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        this.aeronDir = new File(dir, "aeron");
        this.clusterFile = new File(dir, "cluster.txt");
        this.options.logDir = new File(dir, "logs");
        this.processes = new Process[options.nodes];
        this.killedAtNs = new long[options.nodes];
        this.readers = new ViewReader[options.nodes];

        // The hook goes in before anything exists on disk: were the driver launched first, a Ctrl-C between the
        // launch and the registration would leave the directory under /dev/shm with nobody to delete it.
        this.cleanup = new Thread(this::close, "ringwatch-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);

        try
        {
            createOnDisk();
        }
        catch (final Throwable ex)
        {
            // Nobody gets a reference to close, so undo here: remove the hook, stop the driver, delete the directory.
            try
            {
                close();
            }
            catch (final Throwable closeEx)
            {
                ex.addSuppressed(closeEx);
            }
            throw ex;
        }
    }

    private void createOnDisk()
    {
        synchronized (lifecycleLock)
        {
            // The hook may already have run close() while this thread was between registering it and here.
            if (closed.get())
            {
                throw new IllegalStateException("closed before the driver was launched: JVM shutting down");
            }
            if (!options.logDir.mkdirs())
            {
                throw new IllegalStateException("cannot create " + options.logDir);
            }
            try
            {
                Files.writeString(clusterFile.toPath(), clusterConfig().render(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            driver = launchDriver();
        }
        awaitDriverReady();
    }

    private Process launchDriver()
    {
        final List<String> cmd = javaCommand();
        cmd.add("driver");
        cmd.add("--aeron-dir");
        cmd.add(aeronDir.getAbsolutePath());
        if (options.realtimePriority > 0)
        {
            cmd.add("--rt-priority");
            cmd.add(Integer.toString(options.realtimePriority));
        }
        // always to its file, even when nodes inherit the console: the file is how the launch is known to be done
        return start(cmd, driverLog(), "the media driver", false);
    }

    private File driverLog()
    {
        return new File(options.logDir, "driver.log");
    }

    private void awaitDriverReady()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try
        {
            while (!(driverLog().exists() && Files.readString(driverLog().toPath()).contains(Drivers.READY_LINE)))
            {
                if (!driver.isAlive())
                {
                    throw new IllegalStateException("the media driver exited with " + driver.exitValue() +
                        " during start; log: " + readLog(driverLog()));
                }
                if (System.nanoTime() - deadline >= 0)
                {
                    throw new IllegalStateException("the media driver was not ready within 60s; log: " +
                        readLog(driverLog()));
                }
                Thread.sleep(5);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the media driver", ex);
        }
    }

    private ClusterConfig clusterConfig()
    {
        final int[] ports = freeUdpPorts(2 * options.nodes);
        final List<ClusterConfig.Member> members = new ArrayList<>();
        for (int r = 0; r < options.nodes; r++)
        {
            members.add(new ClusterConfig.Member(r, "localhost", ports[2 * r], ports[2 * r + 1]));
        }
        return new ClusterConfig(options.clusterId, options.heartbeatNs, options.timeoutNs, members);
    }

    /**
     * @param count how many.
     * @return distinct UDP ports on localhost that were free a moment ago.
     */
    public static int[] freeUdpPorts(final int count)
    {
        final DatagramSocket[] sockets = new DatagramSocket[count];
        final int[] ports = new int[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                sockets[i] = new DatagramSocket(new InetSocketAddress("localhost", 0));
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot find free UDP ports", ex);
        }
        finally
        {
            for (final DatagramSocket s : sockets)
            {
                if (s != null)
                {
                    s.close();
                }
            }
        }
    }

    /**
     * Launch every node process and release them together: each node gets ready (JVM started, classes loaded,
     * driver connected) and waits at a start barrier ({@code node --start-after}); once all are ready the barrier
     * file is created and they start watching at the same moment. Launching JVMs is the noisiest thing that happens
     * on a host (tens of ms of kernel and JIT work per JVM on two cores), and with the barrier it happens before
     * anyone is judged. Their startup grace then runs from the release (see {@link #awaitAllUp(long)}).
     *
     * @throws InterruptedException if interrupted; the processes started so far are destroyed.
     * @throws IllegalStateException if a node exits or is not ready within 120 s.
     */
    public void start() throws InterruptedException
    {
        try
        {
            for (int r = 0; r < options.nodes; r++)
            {
                processes[r] = launch(r);
            }
            for (int r = 0; r < options.nodes; r++)
            {
                awaitReady(r);
            }
            Files.writeString(startFile().toPath(), "go");
            releasedAtNs = System.nanoTime();
        }
        catch (final IOException ex)
        {
            destroyAll();
            throw new UncheckedIOException("cannot create the start barrier " + startFile(), ex);
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            destroyAll();
            throw ex;
        }
    }

    private File startFile()
    {
        return new File(dir, "start");
    }

    private void requireAliveDuringStart(final int rank)
    {
        if (!processes[rank].isAlive())
        {
            throw new IllegalStateException("node " + rank + " exited with " + processes[rank].exitValue() +
                " during start; log: " + log(rank));
        }
    }

    private void awaitReady(final int rank) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        final File ready = StartBarrier.readyFile(startFile().toPath(), rank).toFile();
        while (!ready.exists())
        {
            requireAliveDuringStart(rank);
            if (System.nanoTime() - deadline >= 0)
            {
                throw new IllegalStateException("node " + rank + " not ready within 120s; log: " + log(rank));
            }
            Thread.sleep(5);
        }
    }

    private Process launch(final int rank)
    {
        final List<String> cmd = javaCommand();
        cmd.add("node");
        cmd.add("--cluster");
        cmd.add(clusterFile.getAbsolutePath());
        cmd.add("--rank");
        cmd.add(Integer.toString(rank));
        cmd.add("--transport");
        cmd.add(options.transport.name().toLowerCase());
        cmd.add("--driver");
        cmd.add("external");
        cmd.add("--profile");
        cmd.add(options.profile);
        cmd.add("--grace");
        cmd.add(options.graceNs + "ns");
        cmd.add("--start-after");
        cmd.add(startFile().getAbsolutePath());
        if (options.realtimePriority > 0)
        {
            cmd.add("--rt-priority");
            cmd.add(Integer.toString(options.realtimePriority));
        }
        return start(cmd, nodeLog(rank), "node " + rank, options.inheritOutput);
    }

    /**
     * @return the start of a {@code ringwatch.jar} command line in a quiet JVM of its own (the node options).
     */
    private List<String> javaCommand()
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        cmd.addAll(options.jvmOptions);
        cmd.add("-Daeron.dir=" + aeronDir.getAbsolutePath());
        cmd.add("-cp");
        cmd.add(options.classpath);
        cmd.add("io.ringwatch.transport.aeron.cli.Main");
        return cmd;
    }

    private static Process start(final List<String> cmd, final File log, final String what, final boolean inherit)
    {
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (inherit)
        {
            pb.inheritIO();
        }
        else
        {
            pb.redirectOutput(log);
        }
        try
        {
            return pb.start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + what, ex);
        }
    }

    /**
     * Wait until every node has seen heartbeats from its emitter at least twice and the startup grace, counted from
     * the release at the start barrier, is over: from then on a kill is judged at once.
     *
     * @param timeoutMs how long to wait.
     * @return true if all are up.
     */
    public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final ViewSnapshot snapshot = new ViewSnapshot();
        while (System.nanoTime() - deadline < 0)
        {
            int up = 0;
            for (int r = 0; r < options.nodes; r++)
            {
                requireAliveDuringStart(r);
                if (isUp(tryView(r, snapshot)))
                {
                    up++;
                }
            }
            if (up == options.nodes && System.nanoTime() - (releasedAtNs + options.graceNs + ARM_MARGIN_NS) >= 0)
            {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /**
     * SIGKILL a node.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long kill(final int rank)
    {
        final long nowNs = System.nanoTime();
        processes[rank].destroyForcibly();
        killedAtNs[rank] = nowNs;
        return nowNs;
    }

    /**
     * SIGTERM a node: its shutdown hook sends LEAVE, so the others learn of it without waiting δ.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long terminate(final int rank)
    {
        final long nowNs = System.nanoTime();
        processes[rank].destroy();
        killedAtNs[rank] = nowNs;
        return nowNs;
    }

    /**
     * Send a signal to a node by pid (e.g. STOP, CONT).
     *
     * @param rank   node.
     * @param signal signal name without SIG.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long signal(final int rank, final String signal) throws IOException, InterruptedException
    {
        final long nowNs = System.nanoTime();
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes[rank].pid()))
            .inheritIO().start();
        if (kill.waitFor() != 0)
        {
            throw new IOException("kill -" + signal + " " + processes[rank].pid() + " failed");
        }
        return nowNs;
    }

    /**
     * Wait until every live node's view holds exactly {@code expectedDead}.
     *
     * @param expectedDead the dead set all live nodes must hold.
     * @param timeoutMs    how long to wait.
     * @return true if all agree.
     */
    public boolean awaitViews(final Set<Integer> expectedDead, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final ViewSnapshot snapshot = new ViewSnapshot();
        while (true)
        {
            boolean all = true;
            for (int r = 0; r < options.nodes && all; r++)
            {
                if (expectedDead.contains(r) || !processes[r].isAlive())
                {
                    continue;
                }
                final ViewSnapshot v = tryView(r, snapshot);
                all = v != null && v.deadCount() == expectedDead.size() && expectedDead.stream().allMatch(v::isDead);
            }
            if (all)
            {
                return true;
            }
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            Thread.sleep(5);
        }
    }

    /**
     * @param rank node.
     * @return a fresh consistent snapshot of its view file (also readable after the process died).
     */
    public ViewSnapshot view(final int rank)
    {
        final ViewSnapshot v = tryView(rank, new ViewSnapshot());
        if (v == null)
        {
            throw new IllegalStateException("no view file for rank " + rank);
        }
        return v;
    }

    /**
     * @param view a node's view, or null if it has none yet.
     * @return true if the node is active and has seen its emitter's heartbeat progress at least twice.
     */
    public static boolean isUp(final ViewSnapshot view)
    {
        return view != null && view.state() == NodeState.ACTIVE && view.heartbeatProgress() >= 2;
    }

    /**
     * @param rank node.
     * @param into snapshot to fill.
     * @return {@code into} filled from the node's view file, or null while the node has not created it yet.
     */
    public ViewSnapshot tryView(final int rank, final ViewSnapshot into)
    {
        if (readers[rank] == null)
        {
            try
            {
                readers[rank] = new ViewReader(ViewLayout.fileFor(aeronDir.getAbsolutePath(), options.clusterId, rank));
            }
            catch (final IllegalStateException ex)
            {
                return null;
            }
        }
        return readers[rank].read(into);
    }

    /**
     * @param rank node.
     * @return its process.
     */
    public Process process(final int rank)
    {
        return processes[rank];
    }

    /**
     * @param rank node.
     * @return when it was killed by {@link #kill(int)} or terminated by {@link #terminate(int)}, 0 if not.
     */
    public long killedAtNs(final int rank)
    {
        return killedAtNs[rank];
    }

    /**
     * @return the Aeron directory shared by the driver, slot and view files.
     */
    public File aeronDir()
    {
        return aeronDir;
    }

    /**
     * @return the cluster file given to the nodes.
     */
    public File clusterFile()
    {
        return clusterFile;
    }

    /**
     * @return options.
     */
    public Options options()
    {
        return options;
    }

    /**
     * @param rank node.
     * @return the node's output so far.
     */
    public String log(final int rank)
    {
        return readLog(nodeLog(rank));
    }

    private File nodeLog(final int rank)
    {
        return new File(options.logDir, "node-" + rank + ".log");
    }

    private static String readLog(final File f)
    {
        try
        {
            return f.exists() ? Files.readString(f.toPath()) : "(no log)";
        }
        catch (final IOException ex)
        {
            return "(unreadable log: " + ex + ")";
        }
    }

    /**
     * SIGTERM first, so the driver removes its files and says goodbye to its clients; SIGKILL if it does not go.
     */
    private static void stopDriver(final Process driver)
    {
        driver.destroy();
        try
        {
            if (!driver.waitFor(5, TimeUnit.SECONDS))
            {
                driver.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            driver.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void destroyAll()
    {
        for (final Process p : processes)
        {
            if (p != null && p.isAlive())
            {
                p.destroyForcibly();
            }
        }
        for (final Process p : processes)
        {
            if (p != null)
            {
                try
                {
                    p.waitFor(5, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Destroy every node process, stop the driver and delete the directory. Safe to call from a failed
     * constructor or from the shutdown hook at any point of construction: whatever was not created is skipped.
     */
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        try
        {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        catch (final IllegalStateException ignore)
        {
            // already shutting down: the hook is running or has run
        }
        synchronized (lifecycleLock)
        {
            destroyAll();
            CloseHelper.closeAll(readers);
            if (null != driver)
            {
                stopDriver(driver);
                driver = null;
            }
            if (null != dir)
            {
                IoUtil.delete(dir, true);
            }
        }
    }
}
