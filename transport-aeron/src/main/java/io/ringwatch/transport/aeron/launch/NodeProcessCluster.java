package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.File;
import java.util.Set;

/**
 * What {@link LocalCluster} and {@link NetnsCluster} do alike, written once: the node processes, launched under
 * their host's launcher against their host's driver, and their view files, read from outside. A subclass places
 * ranks on hosts ({@link #hostOf(int)}, {@link #aeronDir(int)}, {@link #launcher(int)}: read only once a node
 * launches or its view is read, never while constructing), owns the drivers and the files, and closes.
 */
abstract class NodeProcessCluster implements LaunchedCluster
{
    final LocalCluster.Options options;
    final ClusterDirectory directory;
    final NodeProcesses nodes;
    final ClusterViews views;
    private volatile long releasedAtNs;

    /**
     * Nothing is launched or written here.
     *
     * @param options   what to launch; its node count is final.
     * @param directory where the cluster's files will live.
     */
    NodeProcessCluster(final LocalCluster.Options options, final ClusterDirectory directory)
    {
        this.options = options;
        this.directory = directory;
        this.nodes = new NodeProcesses(options, directory, rank -> aeronDir(hostOf(rank)),
            rank -> launcher(hostOf(rank)));
        this.views = new ClusterViews(rank -> aeronDir(hostOf(rank)), options.clusterId(), options.nodes());
    }

    /**
     * {@inheritDoc}
     */
    public LocalCluster.Options options()
    {
        return options;
    }

    /**
     * {@inheritDoc}
     */
    public int size()
    {
        return options.nodes();
    }

    /**
     * {@inheritDoc}
     */
    public File clusterFile()
    {
        return directory.clusterFile();
    }

    /**
     * {@inheritDoc}
     */
    public void start() throws InterruptedException
    {
        releasedAtNs = ClusterStart.launchAndRelease(nodes, options.nodes(), directory);
    }

    /**
     * {@inheritDoc}
     */
    public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
    {
        return ClusterStart.awaitAllUp(nodes, views, options.nodes(),
            () -> releasedAtNs + options.graceNs() + LocalCluster.ARM_MARGIN_NS,
            ClusterStart.settleAfterJoinsNs(options.nodes(), options.suspicionTimeoutNs()), timeoutMs);
    }

    /**
     * {@inheritDoc}
     */
    public long kill(final int rank)
    {
        return nodes.kill(rank);
    }

    /**
     * {@inheritDoc}
     */
    public long restart(final int rank) throws InterruptedException
    {
        // No wait for the ports over UDP: the node itself waits while the driver still holds its control port for the
        // killed life, as it must when a supervisor restarts it (RingwatchNode); its heartbeat socket died with it.
        views.forget(rank);
        final long nowNs = System.nanoTime();
        nodes.relaunch(rank);
        return nowNs;
    }

    /**
     * {@inheritDoc}
     */
    public Process process(final int rank)
    {
        return nodes.process(rank);
    }

    /**
     * {@inheritDoc}
     */
    public boolean isAlive(final int rank)
    {
        return nodes.isAlive(rank);
    }

    /**
     * {@inheritDoc}
     */
    public String log(final int rank)
    {
        return nodes.log(rank);
    }

    /**
     * {@inheritDoc}
     */
    public boolean awaitViews(final Set<Integer> expectedDead, final long timeoutMs) throws InterruptedException
    {
        return views.awaitExactly(expectedDead, nodes::isAlive, timeoutMs);
    }

    /**
     * {@inheritDoc}
     */
    public ViewSnapshot view(final int rank)
    {
        return views.view(rank);
    }

    /**
     * {@inheritDoc}
     */
    public ViewSnapshot tryView(final int rank, final ViewSnapshot into)
    {
        return views.tryView(rank, into);
    }

    /**
     * {@inheritDoc}
     */
    public String describeViews()
    {
        final StringBuilder sb = new StringBuilder();
        final ViewSnapshot snapshot = new ViewSnapshot();
        for (int r = 0; r < options.nodes(); r++)
        {
            final ViewSnapshot v = views.tryView(r, snapshot);
            sb.append("\n  host ").append(hostOf(r)).append(": ").append(v == null ? "rank " + r + " (no view)" : v)
                .append(nodes.isAlive(r) ? "" : " (exited " + nodes.process(r).exitValue() + ")");
        }
        return sb.toString();
    }
}
