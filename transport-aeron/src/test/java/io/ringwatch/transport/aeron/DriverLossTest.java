package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.internal.cli.Main;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The media driver of a cluster on one host is SIGKILLed: every node takes it as its own fault, stops at once
 * (excluded, cause DRIVER_LOST, in its view file) without reporting any death, and exits
 * {@link RingwatchConfiguration#EXIT_DRIVER_LOST} well within δ, not after Aeron's 5 s client timeout.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DriverLossTest
{
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(25);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(250);

    /**
     * The driver reclaims a SIGKILLed client's resources once its liveness timeout (5 s) passes: that must not
     * stall its heartbeat long enough for the other nodes of the host to take it for lost.
     */
    @Test
    void shouldKeepTheDriverWhenAnotherClientOfItIsKilled() throws Exception
    {
        final int n = 4;
        try (LocalCluster cluster = LocalClusters.startAllUp(options(n)))
        {
            cluster.kill(1);
            LocalClusters.awaitExactly(cluster, java.util.Set.of(1), "kill 1", 0);
            // past the driver's client liveness timeout, when it frees the dead client's publications and images
            Thread.sleep(8_000);
            LocalClusters.awaitExactly(cluster, java.util.Set.of(1), "8 s after the kill", 0);
        }
    }

    @Test
    void shouldStopEveryNodeAsDriverLostWithinDeltaWithoutReportingDeaths() throws Exception
    {
        final int n = 4;
        try (LocalCluster cluster = LocalClusters.startAllUp(options(n)))
        {
            final long killedAtNs = cluster.killDriver();
            final long driverTimeoutMs = TimeUnit.NANOSECONDS.toMillis(
                RingwatchConfiguration.driverTimeoutNs(SUSPICION_TIMEOUT_NS));
            for (int r = 0; r < n; r++)
            {
                assertTrue(cluster.process(r).waitFor(30, TimeUnit.SECONDS), "node " + r + " exits: " + cluster.log(r));
                final long exitedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAtNs);
                assertEquals(RingwatchConfiguration.EXIT_DRIVER_LOST, cluster.process(r).exitValue(), cluster.log(r));

                final ViewSnapshot view = cluster.view(r);
                final long stoppedAfterMs = TimeUnit.NANOSECONDS.toMillis(view.excludedAtNs() - killedAtNs);
                System.out.printf("node %d: driver lost after %d ms (driver timeout %d ms, delta %d ms), " +
                    "process gone %d ms after the kill%n", r, stoppedAfterMs, driverTimeoutMs,
                    TimeUnit.NANOSECONDS.toMillis(SUSPICION_TIMEOUT_NS), exitedAfterMs);
                assertEquals(NodeState.EXCLUDED, view.state(), view.toString());
                assertEquals(ExclusionCause.DRIVER_LOST, view.exclusionCause(), view.toString());
                assertEquals(0, view.deadCount(), "reported no death: " + view);
                assertTrue(stoppedAfterMs < TimeUnit.NANOSECONDS.toMillis(SUSPICION_TIMEOUT_NS),
                    "stopped within δ: " + stoppedAfterMs + " ms; " + view);
                assertTrue(cluster.log(r).contains("DRIVER_LOST"), cluster.log(r));
                assertFalse(cluster.log(r).contains("Exception"), "an expected stop prints no stack trace: " +
                    cluster.log(r));
            }

            // what an operator runs on the host: the driver is gone, its CnC file and the view files are not
            final List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
            cmd.addAll(cluster.options().jvmOptions());
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "stat",
                "--aeron-dir", cluster.aeronDir().getAbsolutePath()));
            final Process stat = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final String printed = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(stat.waitFor(60, TimeUnit.SECONDS), printed);
            assertEquals(0, stat.exitValue(), printed);
            for (int r = 0; r < n; r++)
            {
                assertEquals("EXCLUDED(DRIVER_LOST)", Cli.statRow(printed, r)[4], printed);
            }
        }
    }

    /** n nodes over UDP on one driver, with a grace long enough for their JVMs to start on a busy host. */
    private static LocalCluster.Options options(final int n)
    {
        return new LocalCluster.Options()
            .nodes(n).transport(TransportMode.UDP).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(5));
    }
}
