package io.ringwatch.transport.aeron.client;

import io.aeron.driver.MediaDriver;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.process.ReusableProcessNotice;
import io.ringwatch.core.process.SilentChannels;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.process.ProcessDaemon;
import io.ringwatch.transport.aeron.ProcessCounter;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;
import org.agrona.concurrent.SystemNanoClock;

import java.io.File;
import java.nio.ByteOrder;

/**
 * A daemon's process level on an embedded media driver, driven by the test thread as its agent would be: node 0 of a
 * job of {@code nodes} nodes with {@code perNode} processes each. The node level is silent (no peers); the test
 * plays the other daemons by handing it PROCESS_FAILURE notices and node failures.
 */
final class DaemonFixture implements AutoCloseable
{
    static final int CLUSTER_ID = 91;

    final File aeronDir;
    final MediaDriver driver;
    final JobLayout layout;
    final DetectorNode node;
    final ProcessDaemon daemon;
    private final ReusableProcessNotice notice = new ReusableProcessNotice();
    private final RankArray dead = new RankArray(1, 1 << 20);
    private final RankArray noneExcluded = new RankArray(1);
    private long sequence;

    DaemonFixture(final int nodes, final int perNode)
    {
        aeronDir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-client-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(Drivers.lowFootprint(aeronDir.getAbsolutePath()));
        layout = JobLayout.uniform(nodes, perNode);
        final SilentChannels silent = new SilentChannels();
        node = new DetectorNode(0, 0, ProtocolSettings.of(nodes, 1_000_000, 10_000_000),
            new DoubleHypercubeSchedule(), silent, silent, silent, 0);
        daemon = new ProcessDaemon(node, layout, new DoubleHypercubeSchedule(), (to, n) -> { }, aeronDir.getPath(),
            CLUSTER_ID, SystemNanoClock.INSTANCE);
    }

    /**
     * Play daemon {@code source} announcing that its process {@code process} died.
     */
    void processDied(final int source, final int process)
    {
        dead.clear();
        dead.add(process);
        daemon.onProcessNotice(notice.set(source, 0, ++sequence, noneExcluded, dead), source, 0);
    }

    /**
     * @return the daemon's counter as the driver's counters file holds it (what AeronStat and stat read); -1 if none.
     */
    long counter(final ProcessCounter c)
    {
        final CountersReader counters = driver.context().countersManager();
        final long[] value = {-1};
        counters.forEach((id, typeId, key, label) ->
        {
            if (typeId == c.typeId() && key.getInt(0, ByteOrder.LITTLE_ENDIAN) == CLUSTER_ID &&
                key.getInt(4, ByteOrder.LITTLE_ENDIAN) == 0 && label.endsWith("cluster=" + CLUSTER_ID + " rank=0"))
            {
                value[0] = counters.getCounterValue(id);
            }
        });
        return value[0];
    }

    String dir()
    {
        return aeronDir.getPath();
    }

    public void close()
    {
        CloseHelper.quietCloseAll(daemon, driver);
        IoUtil.delete(aeronDir, true);
    }
}
