package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.launch.NetnsHosts;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.File;
import java.util.List;

/**
 * What the nemesis needs of a cluster of node processes: namespace hosts ({@link NetnsCluster}, every fault) or one
 * host sharing one driver ({@link LocalCluster}, shared memory or UDP; node faults only, for the soak, where a restart
 * always joins and the driver is not restarted).
 */
final class NemesisCluster implements AutoCloseable
{
    private final NetnsCluster netns;
    private final LocalCluster local;

    NemesisCluster(final NetnsCluster netns)
    {
        this.netns = netns;
        this.local = null;
    }

    NemesisCluster(final LocalCluster local)
    {
        this.netns = null;
        this.local = local;
    }

    int size()
    {
        return netns != null ? netns.size() : local.options().nodes();
    }

    int hostCount()
    {
        return netns != null ? netns.hostCount() : 1;
    }

    int hostOf(final int rank)
    {
        return netns != null ? netns.hostOf(rank) : 0;
    }

    /**
     * @param host a host.
     * @return its Aeron directory: view files and journals of its nodes.
     */
    File aeronDir(final int host)
    {
        return netns != null ? netns.aeronDir(host) : local.aeronDir();
    }

    int clusterId()
    {
        return netns != null ? netns.options().clusterId() : local.options().clusterId();
    }

    void start() throws InterruptedException
    {
        if (netns != null)
        {
            netns.start();
        }
        else
        {
            local.start();
        }
    }

    boolean awaitAllUp(final long timeoutMs) throws InterruptedException
    {
        return netns != null ? netns.awaitAllUp(timeoutMs) : local.awaitAllUp(timeoutMs);
    }

    Process process(final int rank)
    {
        return netns != null ? netns.process(rank) : local.process(rank);
    }

    /**
     * @return {@code System.nanoTime()} just before the SIGKILL.
     */
    long kill(final int rank)
    {
        return netns != null ? netns.kill(rank) : local.kill(rank);
    }

    /**
     * Start an exited node again as its supervisor would.
     *
     * @param rank a node whose process exited.
     * @return {@code System.nanoTime()} just before the launch.
     * @throws InterruptedException if interrupted.
     */
    long restart(final int rank) throws InterruptedException
    {
        return netns != null ? netns.restart(rank) : local.restart(rank);
    }

    String nodeLog(final int rank)
    {
        return netns != null ? netns.log(rank) : local.log(rank);
    }

    /**
     * @return the host's driver process, or null on one host (its driver is not restarted).
     */
    Process driverProcess(final int host)
    {
        return netns != null ? netns.driverProcess(host) : null;
    }

    long killDriver(final int host)
    {
        return netns != null ? netns.killDriver(host) : local.killDriver();
    }

    void restartDriver(final int host) throws InterruptedException
    {
        if (netns == null)
        {
            throw new UnsupportedOperationException("one host: the driver is not restarted");
        }
        netns.restartDriver(host);
    }

    String driverLog(final int host)
    {
        return netns != null ? netns.driverLog(host) : "";
    }

    ViewSnapshot tryView(final int rank, final ViewSnapshot into)
    {
        return netns != null ? netns.tryView(rank, into) : local.tryView(rank, into);
    }

    /**
     * @return the namespace hosts for network faults, or null on one host.
     */
    NetnsHosts hosts()
    {
        return netns != null ? netns.hosts() : null;
    }

    /**
     * @return what a command must run under to run on that host.
     */
    List<String> launcher(final int host)
    {
        return netns != null ? netns.hosts().launcher(host) : List.of();
    }

    public void close()
    {
        if (netns != null)
        {
            netns.close();
        }
        else
        {
            local.close();
        }
    }
}
