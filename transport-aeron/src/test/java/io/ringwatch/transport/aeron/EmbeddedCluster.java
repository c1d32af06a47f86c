package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.launch.FreePorts;
import io.ringwatch.transport.rdma.InMemoryFabric;
import io.ringwatch.transport.rdma.RdmaHeartbeats;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;

import java.io.File;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Test fixture: one embedded media driver and n nodes in this JVM, by default launched {@link ThreadingMode#UNSTARTED}
 * so the test drives the duty cycles. With {@link TransportMode#RDMA} the nodes' heartbeats go over transport-rdma's
 * {@link InMemoryFabric} (connections ready at once, one per node in rank order), since the test host has no RDMA;
 * control frames go on loopback UDP as for real.
 */
public final class EmbeddedCluster implements AutoCloseable
{
    public final File dir;
    public final MediaDriver driver;
    public final ClusterConfig cluster;
    public final RingwatchNode[] nodes;
    public final TransportMode transport;
    /** The RDMA fabric with transport RDMA (node r's verbs are {@code fabric.nodeOf(r)}), else null. */
    public final InMemoryFabric fabric;

    public EmbeddedCluster(final int n, final int clusterId, final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        this(n, clusterId, heartbeatPeriodNs, suspicionTimeoutNs, TransportMode.IPC);
    }

    public EmbeddedCluster(
        final int n,
        final int clusterId,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final TransportMode transport)
    {
        this(n, clusterId, heartbeatPeriodNs, suspicionTimeoutNs, transport,
            ctx -> ctx.threadingMode(ThreadingMode.UNSTARTED));
    }

    /**
     * @param settings applied to each node's context before launch, e.g. its threading mode.
     */
    public EmbeddedCluster(
        final int n,
        final int clusterId,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final TransportMode transport,
        final UnaryOperator<RingwatchContext> settings)
    {
        this.transport = transport;
        dir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        final List<ClusterConfig.Member> members = FreePorts.localhostMembers(n);
        cluster = new ClusterConfig(clusterId, heartbeatPeriodNs, suspicionTimeoutNs, transport == TransportMode.RDMA ?
            FreePorts.withRdmaEndpoints(members, InetAddress.getLoopbackAddress()) : members);
        fabric = transport == TransportMode.RDMA ? new InMemoryFabric(0) : null;
        nodes = new RingwatchNode[n];
        try
        {
            for (int r = 0; r < n; r++)
            {
                final RingwatchContext ctx = settings.apply(context(r));
                if (ctx.authKeyFile() == null && ctx.authMode() == null)
                {
                    // unsigned unless a test gives a key, as before the default closed: tests inject hand-made
                    // frames into these nodes
                    ctx.authMode(AuthMode.OFF);
                }
                nodes[r] = RingwatchNode.launch(ctx);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    public RingwatchContext context(final int rank)
    {
        return new RingwatchContext()
            .cluster(cluster)
            .rank(rank)
            .transport(transport)
            .embeddedDriver(false)
            .aeronDirectoryName(dir.getAbsolutePath())
            .startupGraceNs(TimeUnit.SECONDS.toNanos(1))
            // every node of this JVM boots here for the first time: nothing to ask (and nobody answers before the
            // test drives the duty cycles)
            .listenFirst(false)
            .rdmaVerbs(fabric == null ? null : fabric.node(RdmaHeartbeats.preConnectCount(cluster.size()) + 1));
    }

    /**
     * Run duty cycles of the given nodes for a while.
     */
    public void run(final long millis, final int... ranks)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            for (final int r : ranks)
            {
                NodeInternals.agent(nodes[r]).doWork();
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
