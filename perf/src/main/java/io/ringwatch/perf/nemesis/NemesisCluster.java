package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.internal.launch.LocalCluster;
import io.ringwatch.transport.aeron.internal.launch.NetnsCluster;
import io.ringwatch.transport.aeron.internal.launch.NetnsHosts;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.File;
import java.util.List;

/**
 * What the nemesis needs of a cluster of node processes: namespace hosts ({@link NetnsCluster}, every fault) or one
 * host sharing one driver ({@link LocalCluster}, shared memory or UDP; node faults only, for the soak).
 */
public interface NemesisCluster extends AutoCloseable
{
    /**
     * @return N.
     */
    int size();

    /**
     * @return how many hosts (drivers).
     */
    int hostCount();

    /**
     * @param rank a node.
     * @return its host.
     */
    int hostOf(int rank);

    /**
     * @param host a host.
     * @return its Aeron directory: view files and journals of its nodes.
     */
    File aeronDir(int host);

    /**
     * @return the cluster id.
     */
    int clusterId();

    /**
     * Launch every node and release them together.
     *
     * @throws InterruptedException if interrupted.
     */
    void start() throws InterruptedException;

    /**
     * @param timeoutMs how long to wait.
     * @return true once every node is up.
     * @throws InterruptedException if interrupted.
     */
    boolean awaitAllUp(long timeoutMs) throws InterruptedException;

    /**
     * @param rank a node.
     * @return its current process.
     */
    Process process(int rank);

    /**
     * SIGKILL a node.
     *
     * @param rank a node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    long kill(int rank);

    /**
     * Start an exited node again as its supervisor would.
     *
     * @param rank a node whose process exited.
     * @param join add {@code --join}.
     * @return {@code System.nanoTime()} just before the launch.
     * @throws InterruptedException if interrupted.
     */
    long restart(int rank, boolean join) throws InterruptedException;

    /**
     * @param rank a node.
     * @return the output of its current process so far.
     */
    String nodeLog(int rank);

    /**
     * @param host a host.
     * @return its driver's process, or null when the launcher cannot restart it (one host).
     */
    Process driverProcess(int host);

    /**
     * SIGKILL a host's driver.
     *
     * @param host a host.
     * @return {@code System.nanoTime()} just before the signal.
     */
    long killDriver(int host);

    /**
     * Start a host's driver again.
     *
     * @param host a host whose driver exited.
     * @throws InterruptedException if interrupted.
     */
    void restartDriver(int host) throws InterruptedException;

    /**
     * @param host a host.
     * @return its current driver's output so far.
     */
    String driverLog(int host);

    /**
     * @param rank a node.
     * @param into snapshot to fill.
     * @return {@code into}, or null while the node has no view file.
     */
    ViewSnapshot tryView(int rank, ViewSnapshot into);

    /**
     * @return the namespace hosts for network faults, or null on one host.
     */
    NetnsHosts hosts();

    /**
     * @param host a host.
     * @return what a command must run under to run on that host.
     */
    List<String> launcher(int host);

    /**
     * Kill everything and delete the cluster's files.
     */
    void close();

    /**
     * @param cluster namespace hosts.
     * @return it as a nemesis cluster.
     */
    static NemesisCluster of(final NetnsCluster cluster)
    {
        return new NemesisCluster()
        {
            public int size()
            {
                return cluster.size();
            }

            public int hostCount()
            {
                return cluster.hostCount();
            }

            public int hostOf(final int rank)
            {
                return cluster.hostOf(rank);
            }

            public File aeronDir(final int host)
            {
                return cluster.aeronDir(host);
            }

            public int clusterId()
            {
                return cluster.options().clusterId();
            }

            public void start() throws InterruptedException
            {
                cluster.start();
            }

            public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
            {
                return cluster.awaitAllUp(timeoutMs);
            }

            public Process process(final int rank)
            {
                return cluster.process(rank);
            }

            public long kill(final int rank)
            {
                return cluster.kill(rank);
            }

            public long restart(final int rank, final boolean join) throws InterruptedException
            {
                return cluster.restartAsSupervised(rank, join);
            }

            public String nodeLog(final int rank)
            {
                return cluster.log(rank);
            }

            public Process driverProcess(final int host)
            {
                return cluster.driverProcess(host);
            }

            public long killDriver(final int host)
            {
                return cluster.killDriver(host);
            }

            public void restartDriver(final int host) throws InterruptedException
            {
                cluster.restartDriver(host);
            }

            public String driverLog(final int host)
            {
                return cluster.driverLog(host);
            }

            public ViewSnapshot tryView(final int rank, final ViewSnapshot into)
            {
                return cluster.tryView(rank, into);
            }

            public NetnsHosts hosts()
            {
                return cluster.hosts();
            }

            public List<String> launcher(final int host)
            {
                return cluster.hosts().launcher(host);
            }

            public void close()
            {
                cluster.close();
            }
        };
    }

    /**
     * @param cluster one host, one driver.
     * @return it as a nemesis cluster: a restart always joins ({@link LocalCluster#restart(int)}), and its driver is
     * not restarted.
     */
    static NemesisCluster of(final LocalCluster cluster)
    {
        return new NemesisCluster()
        {
            public int size()
            {
                return cluster.options().nodes();
            }

            public int hostCount()
            {
                return 1;
            }

            public int hostOf(final int rank)
            {
                return 0;
            }

            public File aeronDir(final int host)
            {
                return cluster.aeronDir();
            }

            public int clusterId()
            {
                return cluster.options().clusterId();
            }

            public void start() throws InterruptedException
            {
                cluster.start();
            }

            public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
            {
                return cluster.awaitAllUp(timeoutMs);
            }

            public Process process(final int rank)
            {
                return cluster.process(rank);
            }

            public long kill(final int rank)
            {
                return cluster.kill(rank);
            }

            public long restart(final int rank, final boolean join) throws InterruptedException
            {
                return cluster.restart(rank);
            }

            public String nodeLog(final int rank)
            {
                return cluster.log(rank);
            }

            public Process driverProcess(final int host)
            {
                return null;
            }

            public long killDriver(final int host)
            {
                return cluster.killDriver();
            }

            public void restartDriver(final int host)
            {
                throw new UnsupportedOperationException("one host: the driver is not restarted");
            }

            public String driverLog(final int host)
            {
                return "";
            }

            public ViewSnapshot tryView(final int rank, final ViewSnapshot into)
            {
                return cluster.tryView(rank, into);
            }

            public NetnsHosts hosts()
            {
                return null;
            }

            public List<String> launcher(final int host)
            {
                return List.of();
            }

            public void close()
            {
                cluster.close();
            }
        };
    }
}
