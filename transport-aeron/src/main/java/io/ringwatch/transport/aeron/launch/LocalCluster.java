package io.ringwatch.transport.aeron.launch;

import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.rdma.RdmaDevices;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A cluster of real node processes on this host sharing one media driver, itself a process of its own
 * ({@code ringwatch.jar driver}): what {@code ringwatch demo}, the multi-process tests and the detection benchmarks
 * run. It composes the {@link ClusterDirectory}, the {@link DriverProcess}, the {@link NodeProcesses} and the
 * {@link ClusterViews}; as a {@link LaunchedCluster} it is one host, host 0.
 * <pre>{@code
 * try (LocalCluster cluster = new LocalCluster(new LocalCluster.Options().nodes(8).transport(TransportMode.UDP)))
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
public final class LocalCluster extends NodeProcessCluster
{
    /** Nodes poll the barrier file every millisecond; this covers them all having started their agents. */
    public static final long ARM_MARGIN_NS = TimeUnit.MILLISECONDS.toNanos(200);

    // the media driver releases a killed client's ports when it times the client out (~10 s)

    /**
     * What to launch.
     */
    public static final class Options
    {
        private int nodes = 8;
        private TransportMode transport = TransportMode.IPC;
        private long heartbeatPeriodNs = TimeUnit.MILLISECONDS.toNanos(5);
        private long suspicionTimeoutNs = TimeUnit.MILLISECONDS.toNanos(50);
        private long graceNs = TimeUnit.SECONDS.toNanos(3);
        private String profile = "low-noise";
        private int realtimePriority;
        private int clusterId = 1;
        private String classpath = System.getProperty("java.class.path");
        private List<String> nodeArgs = new ArrayList<>();
        private List<String> jvmOptions = new ArrayList<>(List.of(
            "-XX:+UseSerialGC", "-Xms128m", "-Xmx128m", "-Xmn96m", "-XX:TieredStopAtLevel=1", "-Xss512k",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0",
            // the JVM's periodic wake-ups on the cores it shares with the application: perf-data sampling every
            // 50 ms (jstat and jps cannot see these JVMs; jcmd still can) and idle-monitor deflation every 250 ms
            "-XX:-UsePerfData", "-XX:AsyncDeflationInterval=0",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"));
        private boolean inheritOutput;
        private boolean authenticated = true;
        private byte[] key;
        private final Map<Integer, List<String>> rankJvmOptions = new HashMap<>();
        private int driverNice;
        private InetAddress rdmaAddress;

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
         * @param transport ipc, udp or rdma (needs a usable RDMA device on this host: the cluster file gets an
         *                  {@code rdma=} endpoint per node on its interface).
         * @return this.
         */
        public Options transport(final TransportMode transport)
        {
            this.transport = transport;
            return this;
        }

        /**
         * @param ns η, the heartbeat period.
         * @return this.
         */
        public Options heartbeatPeriodNs(final long ns)
        {
            this.heartbeatPeriodNs = ns;
            return this;
        }

        /**
         * @param ns δ, the suspicion timeout.
         * @return this.
         */
        public Options suspicionTimeoutNs(final long ns)
        {
            this.suspicionTimeoutNs = ns;
            return this;
        }

        /**
         * @param ns startup grace of each node, counted from its release at the start barrier.
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

        /**
         * @param classpath classpath of the driver and node JVMs; default this JVM's {@code java.class.path}
         *                  (the executable jar, or under Maven the test classpath).
         * @return this.
         */
        public Options classpath(final String classpath)
        {
            this.classpath = classpath;
            return this;
        }

        /**
         * @param args extra arguments for every {@code node} command (e.g. {@code --procs-per-node 4 --exec ...}).
         * @return this.
         */
        public Options nodeArgs(final List<String> args)
        {
            this.nodeArgs = new ArrayList<>(args);
            return this;
        }

        /**
         * @return extra arguments for every {@code node} command.
         */
        public List<String> nodeArgs()
        {
            return nodeArgs;
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
         * @param clusterId cluster id in the cluster file.
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
         * @param authenticated true (default) to give every node the cluster's own key; false to run them with
         *                      authentication off (tests of what an unauthenticated cluster lets through).
         * @return this.
         */
        public Options authenticated(final boolean authenticated)
        {
            this.authenticated = authenticated;
            return this;
        }

        /**
         * @param rank    a node.
         * @param options JVM options for that node alone, after the common ones (e.g. a negative control's
         *                {@code -Dringwatch.test.broken.rules=...} on one rank).
         * @return this.
         */
        public Options rankJvmOptions(final int rank, final List<String> options)
        {
            rankJvmOptions.put(rank, List.copyOf(options));
            return this;
        }

        /**
         * @param rank a node.
         * @return the JVM options for that node alone, empty if none.
         */
        public List<String> rankJvmOptions(final int rank)
        {
            return rankJvmOptions.getOrDefault(rank, List.of());
        }

        /**
         * @param key the cluster key to give the nodes (a later run of a cluster with the key it had), or null
         *            (default) for a fresh one.
         * @return this.
         */
        public Options key(final byte[] key)
        {
            this.key = key == null ? null : key.clone();
            return this;
        }

        /**
         * @return the cluster key given, or null for a fresh one.
         */
        public byte[] key()
        {
            return key == null ? null : key.clone();
        }

        /**
         * @return true if the nodes sign and check frames under the cluster's key.
         */
        public boolean authenticated()
        {
            return authenticated;
        }

        /**
         * @param nice niceness (0 to 19) of the media driver process, 0 (default) to leave it as this process's. With
         *             UDP the driver carries control frames only (heartbeats are datagrams the agents read), and a
         *             driver busy with hostile Aeron frames (DATA or SETUP for unknown sessions) on cores it shares
         *             with the agents must not take their time: reliable control frames can wait, heartbeats cannot.
         * @return this.
         */
        public Options driverNice(final int nice)
        {
            if (nice < 0 || nice > 19)
            {
                throw new IllegalArgumentException("driver niceness must be in [0, 19]: " + nice);
            }
            this.driverNice = nice;
            return this;
        }

        /**
         * @return niceness of the media driver process, 0 for this process's.
         */
        public int driverNice()
        {
            return driverNice;
        }

        /**
         * @param address the RDMA interface address the nodes listen on with transport rdma; null (default) for the
         *                first IPv4 address of an RDMA device's interface.
         * @return this.
         */
        public Options rdmaAddress(final InetAddress address)
        {
            this.rdmaAddress = address;
            return this;
        }

        /**
         * @return the RDMA interface address for transport rdma, or null to find one.
         */
        public InetAddress rdmaAddress()
        {
            return rdmaAddress;
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
         * @return η, the heartbeat period.
         */
        public long heartbeatPeriodNs()
        {
            return heartbeatPeriodNs;
        }

        /**
         * @return δ, the suspicion timeout.
         */
        public long suspicionTimeoutNs()
        {
            return suspicionTimeoutNs;
        }

        /**
         * @return the nodes' startup grace, counted from their release.
         */
        public long graceNs()
        {
            return graceNs;
        }

        /**
         * @return profile name.
         */
        public String profile()
        {
            return profile;
        }

        /**
         * @return SCHED_FIFO priority of the agents and the driver, 0 for none.
         */
        public int realtimePriority()
        {
            return realtimePriority;
        }

        /**
         * @return classpath of the driver and node JVMs.
         */
        public String classpath()
        {
            return classpath;
        }

        /**
         * @return JVM options of the node processes.
         */
        public List<String> jvmOptions()
        {
            return jvmOptions;
        }

        /**
         * @return the cluster id in the cluster file.
         */
        public int clusterId()
        {
            return clusterId;
        }

        /**
         * @return true if node processes print to this process's stdout/stderr.
         */
        public boolean inheritOutput()
        {
            return inheritOutput;
        }
    }

    private final ClusterConfig clusterConfig;
    private final Thread cleanup;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Held while the constructor creates the driver and files and while {@link #close()} removes them, so a
     * shutdown hook that fires mid-construction waits for what is being created and then deletes it.
     */
    private final Object lifecycleLock = new Object();

    /** Guarded by {@link #lifecycleLock}: null before the launch, after close, or if the launch never happened. */
    private DriverProcess driver;

    /**
     * Start the media driver and write the cluster file; no node runs yet.
     *
     * @param options what to launch.
     */
    public LocalCluster(final Options options)
    {
        super(atLeastTwoNodes(options), ClusterDirectory.unique("ringwatch-cluster"));
        // before anything is launched or written: with transport rdma this is where an unusable host says why
        this.clusterConfig = new ClusterConfig(options.clusterId(), options.heartbeatPeriodNs(),
            options.suspicionTimeoutNs(), members(options));

        // The hook goes in before anything exists on disk: were the driver launched first, a Ctrl-C between the
        // launch and the registration would leave the directory under /dev/shm with nobody to delete it.
        this.cleanup = new Thread(this::close, "ringwatch-cluster-cleanup");
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

    private static Options atLeastTwoNodes(final Options options)
    {
        if (options.nodes() < 2)
        {
            throw new IllegalArgumentException("a local cluster needs at least 2 nodes: " + options.nodes());
        }
        return options;
    }

    private void createOnDisk()
    {
        final DriverProcess launched;
        synchronized (lifecycleLock)
        {
            // The hook may already have run close() while this thread was between registering it and here.
            if (closed.get())
            {
                throw new IllegalStateException("closed before the driver was launched: JVM shutting down");
            }
            directory.create(clusterConfig, options.key());
            driver = DriverProcess.launch(options, directory);
            launched = driver;
        }
        try
        {
            launched.awaitReady();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the media driver", ex);
        }
    }

    private static List<ClusterConfig.Member> members(final Options options)
    {
        final List<ClusterConfig.Member> members = FreePorts.localhostMembers(options.nodes());
        if (options.transport() != TransportMode.RDMA)
        {
            return members;
        }
        InetAddress address = options.rdmaAddress();
        if (address == null)
        {
            final RdmaDevices.Availability rdma = RdmaDevices.probe();
            if (!rdma.usable())
            {
                throw new IllegalStateException("transport rdma, but RDMA is unusable on this host: " +
                    rdma.reason() + " (java -jar ringwatch.jar doctor lists what is missing and how to fix it)");
            }
            address = RdmaDevices.firstIpv4Address(rdma.netDevices());
            if (address == null)
            {
                throw new IllegalStateException("transport rdma: no IPv4 address on the RDMA interfaces " +
                    rdma.netDevices() + " (DiSNI 2.1 connects over IPv4 only); give the interface one");
            }
        }
        return FreePorts.withRdmaEndpoints(members, address);
    }

    /**
     * {@inheritDoc}
     */
    public int hostCount()
    {
        return 1;
    }

    /**
     * {@inheritDoc}
     */
    public int hostOf(final int rank)
    {
        Objects.checkIndex(rank, options.nodes());
        return 0;
    }

    /**
     * {@inheritDoc}
     */
    public File aeronDir(final int host)
    {
        Objects.checkIndex(host, 1);
        return directory.aeronDir();
    }

    /**
     * {@inheritDoc}
     */
    public List<String> launcher(final int host)
    {
        Objects.checkIndex(host, 1);
        return List.of();
    }

    /**
     * SIGKILL the media driver every node of this cluster uses.
     *
     * @return {@code System.nanoTime()} just before the signal.
     * @throws IllegalStateException if the cluster is closed.
     */
    public long killDriver()
    {
        synchronized (lifecycleLock)
        {
            if (driver == null)
            {
                throw new IllegalStateException("no driver: the cluster is closed");
            }
            return driver.kill();
        }
    }

    /**
     * @return the pid of the cluster's media driver process.
     * @throws IllegalStateException if the cluster is closed.
     */
    public long driverPid()
    {
        synchronized (lifecycleLock)
        {
            if (driver == null)
            {
                throw new IllegalStateException("no driver: the cluster is closed");
            }
            return driver.process().pid();
        }
    }

    /**
     * SIGTERM a node: its shutdown hook sends LEAVE, so the others learn of it without waiting δ.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long terminate(final int rank)
    {
        return nodes.terminate(rank);
    }

    /**
     * Send a signal to a node by pid (e.g. STOP, CONT).
     *
     * @param rank   node.
     * @param signal signal name without SIG.
     * @return {@code System.nanoTime()} just before the signal.
     * @throws IOException          if {@code kill} fails.
     * @throws InterruptedException if interrupted.
     */
    public long signal(final int rank, final String signal) throws IOException, InterruptedException
    {
        return nodes.signal(rank, signal);
    }

    /**
     * @param rank node.
     * @return when it was killed by {@link #kill(int)} or terminated by {@link #terminate(int)}, 0 if not.
     */
    public long killedAtNs(final int rank)
    {
        return nodes.killedAtNs(rank);
    }

    /**
     * @return the Aeron directory shared by the driver, slot and view files.
     */
    public File aeronDir()
    {
        return directory.aeronDir();
    }

    /**
     * @return the cluster's key file, given to the nodes when {@link Options#authenticated()}.
     */
    public File keyFile()
    {
        return directory.keyFile();
    }

    /**
     * Destroy every node process, stop the driver and delete the directory. Safe to call from a failed
     * constructor or from the shutdown hook at any point of construction: whatever was not created is skipped.
     */
    public void close()
    {
        if (!ClusterStart.beginClose(closed, cleanup))
        {
            return;
        }
        synchronized (lifecycleLock)
        {
            nodes.destroyAll();
            views.close();
            if (null != driver)
            {
                driver.stop();
                driver = null;
            }
            directory.delete();
        }
    }
}
