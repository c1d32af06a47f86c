package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.codec.RejectReason;
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
 * Nodes told different seed counts disagree on who is a member at boot and who must join: they refuse each other's
 * frames as CONFIG_MISMATCH, and the log says which setting differs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SeedsMismatchTest
{
    private static final int CLUSTER_ID = 4712;

    @Test
    void shouldRefuseFramesFromANodeGivenOtherSeeds()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        // UDP: every heartbeat datagram goes through the receiver's decoder, so both directions are judged
        try (EmbeddedCluster cluster = udpCluster())
        {
            assertEquals(cluster.nodes[0].context().configDigest(), cluster.nodes[1].context().configDigest());
            assertNotEquals(cluster.nodes[0].context().configDigest(), cluster.nodes[3].context().configDigest());
            cluster.run(500, 0, 1, 2, 3);

            assertTrue(NodeInternals.agent(cluster.nodes[3]).counters().rejected(RejectReason.CONFIG_MISMATCH) > 0,
                "rank 3 refused the others' frames");
            long refusedByOthers = 0;
            for (int r = 0; r < 3; r++)
            {
                refusedByOthers += NodeInternals.agent(cluster.nodes[r]).counters().rejected(RejectReason.CONFIG_MISMATCH);
            }
            assertTrue(refusedByOthers > 0, "the others refused rank 3's frames");
        }
        finally
        {
            System.setErr(originalErr);
        }
        final String log = err.toString(StandardCharsets.UTF_8);
        System.out.println(log);
        assertTrue(log.contains("seeds 4)"), log);
        assertTrue(log.contains("seeds 3)"), log);
    }

    private static EmbeddedCluster udpCluster()
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return new EmbeddedCluster(4, CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(5),
                    TimeUnit.MILLISECONDS.toNanos(200), TransportMode.UDP,
                    ctx -> ctx.threadingMode(ThreadingMode.UNSTARTED).seeds(ctx.rank() == 3 ? 4 : 3));
            }
            catch (final IllegalStateException ex)
            {
                // a free port picked for the cluster file can be taken by another process before the node binds it
                if (attempt == 3 || !String.valueOf(ex.getMessage()).contains("Address already in use"))
                {
                    throw ex;
                }
            }
        }
    }
}
