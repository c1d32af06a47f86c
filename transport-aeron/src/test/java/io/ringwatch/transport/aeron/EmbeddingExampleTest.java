package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedding example of docs/library.md, compiled and run: the code between the {@code README} markers is copied
 * verbatim into its "Embedding" section, and {@link #shouldMatchTheDocs()} keeps the two the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmbeddingExampleTest
{
    @TempDir
    Path dir;

    // README:begin
    static RingwatchNode start(final Aeron aeron, final Path clusterFile, final Path keyFile, final int rank)
    {
        final MembershipListener listener = new MembershipListener()
        {
            public void onFailure(final int dead, final long nowNs, final FailureCause cause, final int reporter)
            {
                // on the agent thread: hand the rank to the application without blocking or allocating
                DEAD.offer(dead);
            }

            public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporter)
            {
                // this node was declared dead (or fenced, or left): stop acting for the cluster
            }

            public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
            {
            }
        };

        return RingwatchNode.launch(new RingwatchContext()
            .clusterFile(clusterFile)            // cluster-id, heartbeat-period, suspicion-timeout, members
            .rank(rank)
            .transport(TransportMode.UDP)
            .authKeyFile(keyFile)                // the cluster's keyring (KeyFile.create, or ringwatch.jar keygen)
            .profile(TuningProfile.LOW_NOISE)     // sleeps until the protocol's next deadline; LOW_LATENCY spins
            .aeronClient(aeron)                   // the application's client: its driver, its directory
            .errorHandler(ERRORS::add)            // unexpected errors, instead of the log
            .listener(listener));                 // runs on its own thread: ThreadingMode.DEDICATED
    }
    // README:end

    static final ConcurrentLinkedQueue<Integer> DEAD = new ConcurrentLinkedQueue<>();
    static final ConcurrentLinkedQueue<Throwable> ERRORS = new ConcurrentLinkedQueue<>();

    @Test
    void shouldRunTheExampleAndLearnOfADeadNode() throws Exception
    {
        final File aeronDir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-embedding-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        final int[] ports = FreePorts.udp(4);
        final Path clusterFile = dir.resolve("cluster.txt");
        Files.writeString(clusterFile, String.join("\n",
            "cluster-id=77",
            "heartbeat-period=10ms",
            "suspicion-timeout=200ms",
            "0 localhost " + ports[0] + " " + ports[1],
            "1 localhost " + ports[2] + " " + ports[3],
            ""), StandardCharsets.US_ASCII);

        final Path keyFile = dir.resolve("cluster.key");
        KeyFile.create(keyFile, KeyFile.generate(new SecureRandom()));

        DEAD.clear();
        ERRORS.clear();
        // everything through public API: the host's driver, the application's client, the nodes
        final MediaDriver driver = RingwatchDriver.launch(aeronDir.getAbsolutePath());
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir.getAbsolutePath()));
        RingwatchNode node0 = null;
        RingwatchNode node1 = null;
        try
        {
            node0 = start(aeron, clusterFile, keyFile, 0);
            node1 = start(aeron, clusterFile, keyFile, 1);
            assertEquals(AuthMode.REQUIRED, node0.context().authMode());
            Thread.sleep(1500);
            node1.close();

            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!DEAD.contains(1) && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(10);
            }
            assertTrue(DEAD.contains(1), "node 0's listener heard that rank 1 died");
            assertTrue(!DEAD.contains(0), "nobody declared rank 0 dead");
            assertTrue(ERRORS.isEmpty(), ERRORS::toString);
            assertFalse(aeron.isClosed(), "the nodes leave the application's client open");
        }
        finally
        {
            CloseHelper.quietCloseAll(node0, node1, aeron, driver);
            IoUtil.delete(aeronDir, true);
        }
    }

    @Test
    void shouldMatchTheDocs() throws Exception
    {
        DocExamples.assertDocHolds(
            "src/test/java/io/ringwatch/transport/aeron/EmbeddingExampleTest.java", "docs/library.md", "embedding");
    }
}
