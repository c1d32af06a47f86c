package io.ringwatch.perf.live;

import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

/**
 * One node process per rank ({@link LocalCluster}): a crash is SIGKILL, a leave is SIGTERM.
 */
public final class ProcessCluster implements LiveCluster
{
    private final LocalCluster cluster;

    /**
     * @param cluster node processes, not started yet.
     */
    public ProcessCluster(final LocalCluster cluster)
    {
        this.cluster = cluster;
    }

    public void start() throws InterruptedException
    {
        cluster.start();
    }

    public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
    {
        return cluster.awaitAllUp(timeoutMs);
    }

    public long kill(final int rank)
    {
        return cluster.kill(rank);
    }

    public long terminate(final int rank)
    {
        return cluster.terminate(rank);
    }

    public ViewSnapshot view(final int rank)
    {
        return cluster.view(rank);
    }

    public String stopped(final int rank)
    {
        final Process process = cluster.process(rank);
        return process.isAlive() ? null :
            "exited by itself with code " + process.exitValue() + " (3 = fenced after being declared dead)";
    }

    public void close()
    {
        cluster.close();
    }
}
