package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.transport.aeron.EmbeddedCluster;
import io.ringwatch.transport.aeron.ThreadingMode;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A daemon started with another job (same cluster file, other process counts) is refused like one started from
 * another cluster file: its frames count as CONFIG_MISMATCH, the log names the job, and {@code stat} shows the counter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JobMismatchTest
{
    private static final int CLUSTER_ID = 4711;

    @Test
    void shouldRefuseFramesFromADaemonRunningAnotherJob() throws InterruptedException
    {
        final JobLayout job = JobLayout.uniform(3, 2);
        final JobLayout other = JobLayout.of(2, 2, 3);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        final String stat;
        try (EmbeddedCluster cluster = new EmbeddedCluster(3, CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(5),
            TimeUnit.MILLISECONDS.toNanos(200), TransportMode.UDP,
            ctx -> ctx.threadingMode(ThreadingMode.UNSTARTED).jobLayout(ctx.rank() == 2 ? other : job)))
        {
            assertEquals(cluster.nodes[0].context().configDigest(), cluster.nodes[1].context().configDigest());
            assertNotEquals(cluster.nodes[0].context().configDigest(), cluster.nodes[2].context().configDigest());
            cluster.run(500, 0, 1, 2);

            assertTrue(NodeInternals.agent(cluster.nodes[0]).counters().rejected(RejectReason.CONFIG_MISMATCH) > 0,
                "rank 0 refused rank 2's frames");
            assertTrue(NodeInternals.agent(cluster.nodes[2]).counters().rejected(RejectReason.CONFIG_MISMATCH) > 0,
                "rank 2 refused the others' frames");

            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final PrintStream originalOut = System.out;
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            try
            {
                StatCommand.run(new String[]{"stat", "--counters", "--aeron-dir", cluster.dir.getAbsolutePath(),
                    "--cluster-id", Integer.toString(CLUSTER_ID)});
            }
            finally
            {
                System.setOut(originalOut);
            }
            stat = out.toString(StandardCharsets.UTF_8);
        }
        finally
        {
            System.setErr(originalErr);
        }
        final String log = err.toString(StandardCharsets.UTF_8);
        System.out.println(log);
        System.out.println(stat);
        assertTrue(log.contains("ringwatch rank 0: refusing frames from rank 2, whose configuration differs"), log);
        assertTrue(log.contains(String.format("job %08x, seeds", job.digest())), log);
        assertTrue(log.contains("ringwatch rank 2: refusing frames from rank 0") ||
            log.contains("ringwatch rank 2: refusing frames from rank 1"), log);
        assertTrue(stat.matches("(?s).*  cluster " + CLUSTER_ID + " rank 0:\n(    [^\n]*\n)*?" +
            "    frames rejected CONFIG_MISMATCH +[1-9][0-9,]*\n.*"), stat);
    }
}
