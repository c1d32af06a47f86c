package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.launch.FreePorts;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A notice whose dead set is as fragmented as a notice may be ({@link FailureNoticeFlyweight#MAX_RANGES} runs: every
 * other rank dead) is several times the MTU: Aeron splits it into fragments, and the receiver must put them back
 * together before decoding. Two real nodes of a 2,049-rank cluster, UDP on loopback (and IPC), one embedded driver.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LargeNoticeTest
{
    private static final int RUNS = FailureNoticeFlyweight.MAX_RANGES;
    private static final int N = 2 * RUNS + 1;

    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"UDP", "IPC"})
    void shouldDeliverNoticeWithMaximallyFragmentedDeadSet(final TransportMode transport)
    {
        final File dir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-large-notice-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        final ClusterConfig cluster = new ClusterConfig(31, TimeUnit.MILLISECONDS.toNanos(5),
            TimeUnit.MILLISECONDS.toNanos(100), FreePorts.localhostMembers(N));
        MediaDriver driver = null;
        RingwatchNode sender = null;
        RingwatchNode receiver = null;
        try
        {
            driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
            sender = RingwatchNode.launch(context(cluster, dir, 0, transport));
            receiver = RingwatchNode.launch(context(cluster, dir, 1, transport));

            // D = {2, 4, ..., 2N-2}: RUNS runs of one rank each; rank 0 (the source) and 1 (the receiver) alive
            final RankArray dead = new RankArray(RUNS);
            for (int r = 2; r < N; r += 2)
            {
                dead.add(r);
            }
            final int length = FailureNoticeFlyweight.lengthOf(RUNS);
            assertTrue(length > 4 * 1408, "the notice spans several MTUs: " + length + " bytes");

            final ReusableNotice notice = new ReusableNotice();
            long sequence = 0;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long nextSendNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            while (NodeInternals.agent(receiver).node().deadSet().size() < RUNS && System.nanoTime() - deadline < 0)
            {
                if (System.nanoTime() - nextSendNs >= 0)
                {
                    // a frame offered before the publication connects is dropped (too long for the retry queue): resend
                    NodeInternals.agent(sender).control().sendNotice(1, notice.set(2, 0, 0, ++sequence, dead));
                    nextSendNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                }
                NodeInternals.agent(sender).doWork();
                NodeInternals.agent(receiver).doWork();
                Thread.onSpinWait();
            }

            assertEquals(RUNS, NodeInternals.agent(receiver).node().deadSet().size(), "receiver learned the whole dead set of a " +
                length + "-byte notice over " + transport + " after " + sequence + " send(s)");
            for (int r = 2; r < N; r += 2)
            {
                assertTrue(!NodeInternals.agent(receiver).node().isAlive(r), "rank " + r);
            }
            assertTrue(NodeInternals.agent(receiver).node().isAlive(0) && NodeInternals.agent(receiver).node().isAlive(3), "others alive");
            try (ViewReader reader = new ViewReader(ViewLayout.fileFor(dir.getAbsolutePath(), 31, 1)))
            {
                final ViewSnapshot view = reader.read(new ViewSnapshot());
                assertEquals(RUNS, view.deadCount(), "view file");
            }
            System.out.printf("%s: %d-byte notice (%d runs) delivered after %d send(s)%n",
                transport, length, RUNS, sequence);
        }
        finally
        {
            CloseHelper.closeAll(receiver, sender, driver);
            IoUtil.delete(dir, true);
        }
    }

    private static RingwatchContext context(
        final ClusterConfig cluster, final File dir, final int rank, final TransportMode transport)
    {
        return new RingwatchContext().authMode(AuthMode.OFF)
            .cluster(cluster)
            .rank(rank)
            .transport(transport)
            .embeddedDriver(false)
            .aeronDirectoryName(dir.getAbsolutePath())
            .threadingMode(ThreadingMode.UNSTARTED)
            // nobody is judged during the test: the other 2,047 ranks never run
            .startupGraceNs(TimeUnit.MINUTES.toNanos(5));
    }
}
