package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.ringwatch.transport.aeron.demo.DemoCluster;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Test fixture: one embedded media driver and n nodes in this JVM, each built without a thread so the test
 * drives the duty cycles.
 */
final class EmbeddedCluster implements AutoCloseable
{
    final File dir;
    final MediaDriver driver;
    final ClusterConfig cluster;
    final RingwatchNode[] nodes;
    final TransportMode transport;

    EmbeddedCluster(final int n, final int clusterId, final long heartbeatNs, final long timeoutNs)
    {
        this(n, clusterId, heartbeatNs, timeoutNs, TransportMode.IPC);
    }

    EmbeddedCluster(
        final int n, final int clusterId, final long heartbeatNs, final long timeoutNs, final TransportMode transport)
    {
        this(n, clusterId, heartbeatNs, timeoutNs, transport, UnaryOperator.identity());
    }

    /**
     * @param customise applied to each node's context before it is built.
     */
    EmbeddedCluster(
        final int n,
        final int clusterId,
        final long heartbeatNs,
        final long timeoutNs,
        final TransportMode transport,
        final UnaryOperator<RingwatchContext> customise)
    {
        this.transport = transport;
        dir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        final int[] ports = DemoCluster.freeUdpPorts(2 * n);
        final List<ClusterConfig.Member> members = new ArrayList<>();
        for (int r = 0; r < n; r++)
        {
            members.add(new ClusterConfig.Member(r, "localhost", ports[2 * r], ports[2 * r + 1]));
        }
        cluster = new ClusterConfig(clusterId, heartbeatNs, timeoutNs, members);
        nodes = new RingwatchNode[n];
        try
        {
            for (int r = 0; r < n; r++)
            {
                nodes[r] = RingwatchNode.build(customise.apply(context(r)));
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    RingwatchContext context(final int rank)
    {
        return new RingwatchContext()
            .cluster(cluster)
            .rank(rank)
            .transport(transport)
            .embeddedDriver(false)
            .aeronDirectoryName(dir.getAbsolutePath())
            .startupGraceNs(TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * Run duty cycles of the given nodes for a while.
     */
    void run(final long millis, final int... ranks)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            for (final int r : ranks)
            {
                nodes[r].agent().doWork();
            }
            Thread.onSpinWait();
        }
    }

    public void close()
    {
        CloseHelper.closeAll(nodes);
        CloseHelper.quietClose(driver);
        IoUtil.delete(dir, true);
    }
}
