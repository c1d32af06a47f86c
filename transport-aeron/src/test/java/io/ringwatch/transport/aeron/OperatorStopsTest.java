package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an operator does to node processes on one host, with the real command line: start a rank that already runs
 * (refused at once, the live node and its view untouched), stop one with SIGTERM (LEFT, exit 0, its view says it
 * stopped), SIGKILL one (readers see its writer dead), and read it all with {@code stat}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OperatorStopsTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldRefuseADuplicateStartAndReportStoppedAndDeadNodes() throws Exception
    {
        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(3).transport(TransportMode.UDP).heartbeatPeriodNs(TimeUnit.MILLISECONDS.toNanos(25))
            .suspicionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(250)).graceNs(TimeUnit.SECONDS.toNanos(5))
            .authenticated(true);
        try (LocalCluster cluster = LocalClusters.startAllUp(options))
        {
            final File viewFile = ViewLayout.fileFor(cluster.aeronDir().getAbsolutePath(), options.clusterId(), 0);
            final ViewSnapshot before = cluster.view(0);
            final byte[] viewBytesBefore = Files.readAllBytes(viewFile.toPath());
            final long livePid = cluster.process(0).pid();

            // the same command line a second time, as a supervisor or an operator might
            final File duplicateLog = tmp.resolve("duplicate.log").toFile();
            final long startedNs = System.nanoTime();
            final int exit = Cli.run(duplicateLog, nodeArgs(cluster, 0).toArray(new String[0]));
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNs);
            final String printed = Cli.read(duplicateLog);
            System.out.println("duplicate start of rank 0: exit " + exit + " after " + tookMs + " ms: " + printed);
            assertEquals(RingwatchConfiguration.EXIT_ALREADY_RUNNING, exit, printed);
            assertTrue(printed.contains("rank 0 of cluster " + options.clusterId() + " is already running") &&
                printed.contains("pid " + livePid), printed);
            // refused before it connected to anything (the port check it used to reach took 10 s)
            assertTrue(tookMs < 8_000, "refused at once: " + tookMs + " ms");

            assertTrue(cluster.process(0).isAlive(), cluster.log(0));
            final ViewSnapshot after = cluster.view(0);
            assertEquals(livePid, after.pid(), after.toString());
            assertEquals(before.startNs(), after.startNs(), "the same file, not a new one: " + after);
            assertEquals(NodeState.ACTIVE, after.state(), after.toString());
            assertTrue(after.writerAlive(), after.toString());
            assertEquals(ViewLayout.STOP_NONE, after.stopCause(), after.toString());
            // the header is as it was, up to the liveness gauges the agent keeps moving
            final byte[] viewBytesAfter = Files.readAllBytes(viewFile.toPath());
            assertEquals(viewBytesBefore.length, viewBytesAfter.length);
            for (int i = 0; i < ViewLayout.HEARTBEAT_PROGRESS_OFFSET; i++)
            {
                assertEquals(viewBytesBefore[i], viewBytesAfter[i], "view header byte " + i);
            }

            // SIGKILL: nothing is written, but readers see the writer is gone; the others log its death
            cluster.kill(2);
            assertTrue(cluster.process(2).waitFor(30, TimeUnit.SECONDS));
            final ViewSnapshot killed = cluster.view(2);
            assertFalse(killed.writerAlive(), killed.toString());
            assertTrue(killed.stateName().startsWith("DEAD (pid " + killed.pid() + " gone"), killed.stateName());
            LocalClusters.awaitExactly(cluster, Set.of(2), "kill 2", 0);
            assertTrue(cluster.log(0).contains("membership: rank 2 DEAD"), cluster.log(0));

            final File statLog = tmp.resolve("stat.log").toFile();
            assertEquals(0, Cli.run(statLog, "stat", "--aeron-dir", cluster.aeronDir().getAbsolutePath()),
                Cli.read(statLog));
            final String stat = Cli.read(statLog);
            System.out.println(stat);
            // the table: CLUSTER RANK PID ALIVE STATE INCARNATION EPOCH DEAD ...
            final String[] live = Cli.statRow(stat, 0);
            assertEquals(List.of(Long.toString(livePid), "yes", "ACTIVE"), List.of(live[2], live[3], live[4]), stat);
            final String[] dead = Cli.statRow(stat, 2);
            assertEquals(List.of(Long.toString(killed.pid()), "no", "DEAD(killed,was:ACTIVE)"),
                List.of(dead[2], dead[3], dead[4]), stat);
            assertEquals("{2}", live[7], "rank 0's dead set: " + stat);

            // SIGTERM: the node leaves, says so, exits 0, and its view says it stopped
            cluster.terminate(1);
            assertTrue(cluster.process(1).waitFor(30, TimeUnit.SECONDS), cluster.log(1));
            assertEquals(0, cluster.process(1).exitValue(), cluster.log(1));
            assertTrue(cluster.log(1).contains("LEFT on SIGTERM/SIGINT"), cluster.log(1));
            final ViewSnapshot left = cluster.view(1);
            assertEquals(NodeState.LEFT, left.state(), left.toString());
            assertEquals(ViewLayout.STOP_CLOSED, left.stopCause(), left.toString());
            assertTrue(left.stoppedAtMs() > 0, left.toString());
            assertTrue(left.toString().contains("state=LEFT") && left.toString().contains(" stopped="),
                left.toString());
            assertFalse(cluster.log(1).contains("Exception"), "an orderly stop prints no stack trace: " +
                cluster.log(1));
        }
    }

    /**
     * @return the arguments the cluster gave rank {@code rank}'s node, as an operator would type them.
     */
    static List<String> nodeArgs(final LocalCluster cluster, final int rank)
    {
        final List<String> args = new ArrayList<>(List.of("node", "--cluster",
            cluster.clusterFile().getAbsolutePath(), "--rank", Integer.toString(rank), "--transport", "udp",
            "--driver", "external", "--aeron-dir", cluster.aeronDir().getAbsolutePath(), "--startup-grace", "5s"));
        if (cluster.keyFile() != null)
        {
            args.addAll(List.of("--key-file", cluster.keyFile().getAbsolutePath()));
        }
        return args;
    }
}
