package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.TransportMode;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A cluster deployed as if across real hosts, on this machine: {@link NetnsHosts} test hosts, one media driver per host
 * ({@code ringwatch.jar driver} inside the host's namespace, an Aeron directory of its own), and node processes over
 * UDP, ranks placed on hosts in contiguous blocks, the cluster file naming each host's
 * address. What {@link LocalCluster} is for one host, with the faults of a network on top: a node or a driver
 * SIGKILLed, a link down, a one-way fault, a partition of host groups.
 * <pre>{@code
 * try (NetnsCluster cluster = new NetnsCluster(4, 2, options))   // 4 hosts x 2 nodes, driver up on each
 * {
 *     cluster.start();
 *     cluster.awaitAllUp(90_000);
 *     cluster.hosts().linkDown(3);
 *     ...
 * }
 * }</pre>
 * Files: one {@link ClusterDirectory} (cluster file, key, logs, start barrier) with {@code aeron-h<h>/} per host.
 * {@link #close()} (also a shutdown hook) kills every process, deletes the namespaces and the directory.
 */
public final class NetnsCluster extends NodeProcessCluster
{
    /**
     * Control port of a host's first node; its heartbeat port is the next, then the next node's pair. Below Linux's
     * ephemeral range (32768-60999 by default): at 40,100 an Aeron publication's ephemeral source port on the same
     * host once took a node's heartbeat port first, and that node failed to start ("Address already in use").
     */
    public static final int BASE_PORT = 30_100;

    /** Directories of these clusters start with this, then the creating process's pid. */
    static final String DIRECTORY_PREFIX = "ringwatch-netns-";

    /** Set to true to keep the cluster's directory (logs, view files) after close, to look into a failure. */
    public static final String KEEP_FILES_PROP_NAME = "ringwatch.netns.keep";

    private final int hostCount;
    private final int[] firstRankOnHost;
    private final ClusterConfig clusterConfig;
    private final NetnsHosts hosts;
    private final DriverProcess[] drivers;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread cleanup;

    /**
     * Create the hosts, write the cluster file and start one driver per host; no node runs yet.
     *
     * @param hostCount    how many hosts.
     * @param nodesPerHost nodes on each.
     * @param options      timing, JVM options and classpath; its node count and transport are set here (UDP).
     * @throws IllegalStateException if the hosts or a driver cannot be created; nothing is left behind.
     */
    public NetnsCluster(final int hostCount, final int nodesPerHost, final LocalCluster.Options options)
    {
        this(uniform(hostCount, nodesPerHost), options);
    }

    /**
     * Create the hosts, write the cluster file and start one driver per host; no node runs yet.
     *
     * @param nodesOnHost how many nodes on each host, in rank order: {2, 2, 1, 2, 1} puts ranks 0-1 on host 0, 2-3
     *                    on host 1, 4 on host 2, and so on (host groups of 5 and 3 nodes, or of 4 and 4).
     * @param options     timing, JVM options and classpath; its node count and transport are set here (UDP).
     * @throws IllegalStateException if the hosts or a driver cannot be created; nothing is left behind.
     */
    public NetnsCluster(final int[] nodesOnHost, final LocalCluster.Options options)
    {
        this(options, firstRanks(nodesOnHost));
    }

    private NetnsCluster(final LocalCluster.Options options, final int[] firstRankOnHost)
    {
        super(options.nodes(firstRankOnHost[firstRankOnHost.length - 1]).transport(TransportMode.UDP),
            ClusterDirectory.unique(DIRECTORY_PREFIX.substring(0, DIRECTORY_PREFIX.length() - 1)));
        this.hostCount = firstRankOnHost.length - 1;
        this.firstRankOnHost = firstRankOnHost;
        NetnsHosts.removeLeftovers();
        removeLeftoverDirectories();
        this.hosts = new NetnsHosts(hostCount);
        this.clusterConfig = new ClusterConfig(options.clusterId(), options.heartbeatPeriodNs(),
            options.suspicionTimeoutNs(), members());
        this.drivers = new DriverProcess[hostCount];
        this.cleanup = new Thread(this::close, "netns-cluster-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try
        {
            directory.create(clusterConfig);
            for (int h = 0; h < hostCount; h++)
            {
                drivers[h] = DriverProcess.launch(options, aeronDir(h), driverLogFile(h), launcher(h));
            }
            for (int h = 0; h < hostCount; h++)
            {
                drivers[h].awaitReady();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting the drivers", ex);
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Delete the directories of clusters whose creating process no longer runs (killed before its cleanup); the
     * namespaces of such runs go with {@link NetnsHosts#removeLeftovers()}.
     */
    static void removeLeftoverDirectories()
    {
        final File[] dirs =
            ClusterDirectory.defaultParent().listFiles((dir, name) -> name.startsWith(DIRECTORY_PREFIX));
        if (dirs == null)
        {
            return;
        }
        for (final File dir : dirs)
        {
            final String[] parts = dir.getName().substring(DIRECTORY_PREFIX.length()).split("-");
            try
            {
                final long pid = Long.parseLong(parts[0]);
                if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                {
                    new ClusterDirectory(dir).delete();
                }
            }
            catch (final NumberFormatException ignore)
            {
                // not named by ClusterDirectory.unique: leave it
            }
        }
    }

    /**
     * @return where each host's ranks start, and N last: {2, 2, 1} gives {0, 2, 4, 5}.
     */
    private static int[] firstRanks(final int[] nodesOnHost)
    {
        final int[] firstRankOnHost = new int[nodesOnHost.length + 1];
        for (int h = 0; h < nodesOnHost.length; h++)
        {
            if (nodesOnHost[h] < 1)
            {
                throw new IllegalArgumentException("every host needs a node: host " + h + " has " + nodesOnHost[h]);
            }
            firstRankOnHost[h + 1] = firstRankOnHost[h] + nodesOnHost[h];
        }
        return firstRankOnHost;
    }

    private static int[] uniform(final int hostCount, final int nodesPerHost)
    {
        final int[] nodesOnHost = new int[hostCount];
        java.util.Arrays.fill(nodesOnHost, nodesPerHost);
        return nodesOnHost;
    }

    private List<ClusterConfig.Member> members()
    {
        final List<ClusterConfig.Member> members = new ArrayList<>();
        for (int r = 0; r < options.nodes(); r++)
        {
            final int local = r - firstRankOnHost[hostOf(r)];
            members.add(new ClusterConfig.Member(r, hosts.address(hostOf(r)), BASE_PORT + 2 * local,
                BASE_PORT + 2 * local + 1));
        }
        return members;
    }

    /**
     * @return the hosts, for network faults.
     */
    public NetnsHosts hosts()
    {
        return hosts;
    }

    /**
     * {@inheritDoc}
     */
    public int hostOf(final int rank)
    {
        int h = 0;
        while (firstRankOnHost[h + 1] <= rank)
        {
            h++;
        }
        return h;
    }

    /**
     * @param hostIndices hosts.
     * @return the ranks on them, ascending.
     */
    public Set<Integer> ranksOn(final int... hostIndices)
    {
        final Set<Integer> ranks = new TreeSet<>();
        for (final int h : hostIndices)
        {
            for (int r = firstRankOnHost[h]; r < firstRankOnHost[h + 1]; r++)
            {
                ranks.add(r);
            }
        }
        return ranks;
    }

    /**
     * {@inheritDoc}
     */
    public int hostCount()
    {
        return hostCount;
    }

    /**
     * {@inheritDoc}
     */
    public List<String> launcher(final int host)
    {
        return hosts.launcher(host);
    }

    /**
     * Start a host's media driver again after it exited; it deletes its Aeron directory first (the nodes' view files
     * and journals of that host go with it).
     *
     * @param host a host whose driver exited.
     * @return {@code System.nanoTime()} once it is ready.
     * @throws InterruptedException if interrupted while it starts.
     */
    public long restartDriver(final int host) throws InterruptedException
    {
        if (drivers[host].process().isAlive())
        {
            throw new IllegalStateException("the driver of host " + host + " still runs");
        }
        drivers[host] = DriverProcess.launch(options, aeronDir(host), driverLogFile(host), launcher(host));
        drivers[host].awaitReady();
        return System.nanoTime();
    }

    /**
     * @param rank node.
     * @return the file its processes write their output to (a relaunch appends).
     */
    public File nodeLogFile(final int rank)
    {
        return directory.nodeLog(rank);
    }

    /**
     * SIGKILL a host's media driver; its nodes keep running until they notice.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long killDriver(final int host)
    {
        return drivers[host].kill();
    }

    /**
     * @param host a host.
     * @return its driver's process.
     */
    public Process driverProcess(final int host)
    {
        return drivers[host].process();
    }

    /**
     * @param host a host.
     * @return the output of its driver so far.
     */
    public String driverLog(final int host)
    {
        return ClusterDirectory.read(driverLogFile(host));
    }

    /**
     * {@inheritDoc}
     */
    public File aeronDir(final int host)
    {
        return new File(directory.root(), "aeron-h" + host);
    }

    /**
     * @param host a host.
     * @return the file its current driver writes its output to (overwritten by each launch).
     */
    public File driverLogFile(final int host)
    {
        return new File(directory.logDir(), "driver-h" + host + ".log");
    }

    /**
     * Kill every node and driver, delete the namespaces and the directory. Idempotent.
     */
    public void close()
    {
        if (!ClusterStart.beginClose(closed, cleanup))
        {
            return;
        }
        nodes.destroyAll();
        views.close();
        for (final DriverProcess driver : drivers)
        {
            if (driver != null)
            {
                driver.stop();
            }
        }
        hosts.close();
        if (Boolean.getBoolean(KEEP_FILES_PROP_NAME))
        {
            System.out.println("kept " + directory.root() + " (" + KEEP_FILES_PROP_NAME + "=true)");
        }
        else
        {
            directory.delete();
        }
    }
}
