package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.launch.ClusterDirectory;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.agrona.IoUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank started with another key than the cluster's, or another heartbeat period, as an operator would start it,
 * over UDP and over IPC: both sides name the two key fingerprints, or the setting and both values (the rank's hellos
 * reach a peer, the peer's answer reaches the rank), and the rank exits with a code the shipped node unit does not
 * restart (77, 78). Over UDP it stops having heard nobody; over IPC, where its heartbeats are heard (shared memory, no
 * key), because no peer that answered it agrees with it. The others run on and stop with 0 on SIGTERM.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class WrongKeyTest
{
    private static final int NODES = 3;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"udp", "ipc"})
    void shouldNameTheKeyMismatchOnBothSidesAndExitWithTheDoNotRestartCode(final String transport) throws Exception
    {
        final String clusterKey = keygen("cluster.key");
        final String otherKey = keygen("other.key");
        runWithRank2(transport, List.of("--key-file", tmp.resolve("other.key").toString()), (wrong, peer, exit) ->
        {
            assertEquals(RingwatchConfiguration.EXIT_KEY_MISMATCH, exit, wrong);
            assertTrue(wrong.contains("KEY_MISMATCH: " + stopCause(transport) + ", and rank "), wrong);
            assertTrue(wrong.contains("signs with key fingerprint " + clusterKey + ", this node's keys are " +
                otherKey), wrong);
            assertTrue(peer.contains("KEY MISMATCH: rank 2 (") && peer.contains("signs with key fingerprint " +
                otherKey + ", this node's keys are " + clusterKey), peer);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"udp", "ipc"})
    void shouldNameTheSettingThatDiffersWithBothValuesAndExitWithTheConfigCode(final String transport) throws Exception
    {
        keygen("cluster.key");
        runWithRank2(transport, List.of("--key-file", tmp.resolve("cluster.key").toString(), "--heartbeat-period",
            "50ms"), (wrong, peer, exit) ->
            {
                assertEquals(RingwatchConfiguration.EXIT_CONFIG_INVALID, exit, wrong);
                assertTrue(wrong.contains("CONFIG_MISMATCH: " + stopCause(transport) + ", and rank "), wrong);
                assertTrue(wrong.contains("has heartbeat-period 25ms, this node 50ms"), wrong);
                assertTrue(peer.contains("CONFIG MISMATCH: rank 2 (") &&
                    peer.contains("has heartbeat-period 50ms, this node 25ms"), peer);
            });
    }

    /**
     * Over UDP the rank with another key or setting is heard by nobody; over IPC its heartbeats are (shared memory,
     * no key), so the answers to its hellos decide.
     */
    private static String stopCause(final String transport)
    {
        return "udp".equals(transport) ? "this node heard nobody" : "no peer that answered this node's hello agrees " +
            "with it";
    }

    private interface Outcome
    {
        void check(String wrongLog, String peerLog, int exitCode);
    }

    /**
     * Ranks 0 and 1 as the cluster runs them, rank 2 with {@code rank2Args} instead of the cluster key: check how
     * rank 2 ended and what rank 1 (which rank 2 says hello to) logged; then stop 0 and 1 with SIGTERM.
     */
    private void runWithRank2(final String transport, final List<String> rank2Args, final Outcome outcome)
        throws Exception
    {
        final Path clusterFile = tmp.resolve("cluster.conf");
        Files.writeString(clusterFile, new ClusterConfig(78, TimeUnit.MILLISECONDS.toNanos(25),
            TimeUnit.MILLISECONDS.toNanos(250), FreePorts.localhostMembers(NODES)).render());
        final File aeronDir = new File(ClusterDirectory.defaultParent(),
            "ringwatch-wrongkey-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        final List<Process> processes = new ArrayList<>();
        try
        {
            final File driverLog = tmp.resolve("driver.log").toFile();
            processes.add(Cli.startDriver(driverLog, Cli.command(List.of("driver", "--aeron-dir",
                aeronDir.getAbsolutePath()))));
            final Process[] nodes = new Process[NODES];
            final File[] logs = new File[NODES];
            for (int r = 0; r < NODES; r++)
            {
                logs[r] = tmp.resolve("node-" + r + ".log").toFile();
                // the cluster file is on one host: either transport, with the host's driver
                final List<String> args = new ArrayList<>(List.of("node", "--cluster", clusterFile.toString(),
                    "--rank", Integer.toString(r), "--transport", transport, "--driver", "external", "--aeron-dir",
                    aeronDir.getAbsolutePath(), "--startup-grace", "3s"));
                args.addAll(r == 2 ? rank2Args : List.of("--key-file", tmp.resolve("cluster.key").toString()));
                nodes[r] = Cli.startCommand(logs[r], Cli.command(args));
                processes.add(nodes[r]);
            }

            assertTrue(nodes[2].waitFor(90, TimeUnit.SECONDS), Cli.read(logs[2]));
            System.out.println(Cli.read(logs[2]));
            System.out.println(Cli.read(logs[1]));
            outcome.check(Cli.read(logs[2]), Cli.read(logs[1]), nodes[2].exitValue());

            for (int r = 0; r < 2; r++)
            {
                assertTrue(nodes[r].isAlive(), Cli.read(logs[r]));
                nodes[r].destroy();
            }
            for (int r = 0; r < 2; r++)
            {
                assertTrue(nodes[r].waitFor(30, TimeUnit.SECONDS), Cli.read(logs[r]));
                assertEquals(0, nodes[r].exitValue(), Cli.read(logs[r]));
            }
        }
        finally
        {
            for (final Process p : processes)
            {
                p.destroyForcibly();
            }
            IoUtil.delete(aeronDir, true);
        }
    }

    /**
     * @return the new key's fingerprint, as keygen prints it.
     */
    private String keygen(final String name) throws InterruptedException
    {
        final File log = tmp.resolve(name + ".log").toFile();
        assertEquals(0, Cli.run(log, "keygen", "--out", tmp.resolve(name).toString()), Cli.read(log));
        final Matcher m = Pattern.compile("wrote key ([0-9a-f]{8}) ").matcher(Cli.read(log));
        assertTrue(m.find(), Cli.read(log));
        return m.group(1);
    }
}
