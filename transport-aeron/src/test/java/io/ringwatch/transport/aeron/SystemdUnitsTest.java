package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.internal.cli.Main;
import io.ringwatch.transport.aeron.launch.ClusterDirectory;
import io.ringwatch.transport.aeron.launch.FreePorts;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped systemd units ({@code src/main/dist/systemd}) say what the process does: their restart policy lists
 * the exit codes that mean "do not restart", and their {@code ExecStart} lines, expanded as systemd expands them,
 * run a driver and a 3-node UDP cluster with a key on this host. Only what a test cannot honour is substituted:
 * {@code /usr/bin/java} by this JVM, the jar by a manifest-only jar over the build's classpath, and the paths.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SystemdUnitsTest
{
    private static final Path UNITS = Path.of("src", "main", "dist", "systemd");
    private static final int NODES = 3;

    @TempDir
    Path tmp;

    @Test
    void shouldRestartOnFailureExceptForCodesARestartCannotFix() throws IOException
    {
        final SystemdUnit driver = SystemdUnit.read(UNITS.resolve("ringwatch-driver.service"));
        final SystemdUnit node = SystemdUnit.read(UNITS.resolve("ringwatch-node@.service"));
        for (final SystemdUnit unit : List.of(driver, node))
        {
            assertEquals("on-failure", unit.value("Service", "Restart"));
            assertTrue(codes(unit, "RestartPreventExitStatus").contains(RingwatchConfiguration.EXIT_CONFIG_INVALID));
            assertTrue(codes(unit, "SuccessExitStatus").contains(128 + 15), "a JVM ended by SIGTERM");
            assertEquals("infinity", unit.value("Service", "LimitMEMLOCK"), "RDMA registers memory");
            assertTrue(Integer.parseInt(unit.value("Service", "LimitRTPRIO")) >= 99, "--rt-priority up to 99");
        }
        assertTrue(codes(node, "RestartPreventExitStatus").containsAll(List.of(RingwatchConfiguration.EXIT_ALREADY_RUNNING,
            RingwatchConfiguration.EXIT_KEY_MISMATCH)));
        for (final int restarted : new int[]{1, RingwatchConfiguration.EXIT_CONFIG_ERROR,
            RingwatchConfiguration.EXIT_FENCED, RingwatchConfiguration.EXIT_DRIVER_LOST})
        {
            assertTrue(!codes(node, "RestartPreventExitStatus").contains(restarted), "restarts on " + restarted);
        }
        assertTrue(node.value("Unit", "After").contains("ringwatch-driver.service"));
        assertEquals("ringwatch-driver.service", node.value("Unit", "Requires"));
        // the environment names the units share are one Aeron directory
        assertEquals(driver.environment().get("RINGWATCH_AERON_DIR"), node.environment().get("RINGWATCH_AERON_DIR"));
        assertEquals(driver.environment().get("RINGWATCH_TRANSPORT"), node.environment().get("RINGWATCH_TRANSPORT"));
    }

    @Test
    void shouldRunAThreeNodeUdpClusterFromTheUnitsExecStartLines() throws Exception
    {
        final SystemdUnit driverUnit = SystemdUnit.read(UNITS.resolve("ringwatch-driver.service"));
        final SystemdUnit nodeUnit = SystemdUnit.read(UNITS.resolve("ringwatch-node@.service"));
        final File aeronDir = new File(ClusterDirectory.defaultParent(),
            "ringwatch-units-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        final Path key = tmp.resolve("cluster.key");
        assertEquals(0, Cli.run(tmp.resolve("keygen.log").toFile(), "keygen", "--out", key.toString()),
            Cli.read(tmp.resolve("keygen.log").toFile()));
        final Path clusterFile = tmp.resolve("cluster.conf");
        Files.writeString(clusterFile, new ClusterConfig(77, TimeUnit.MILLISECONDS.toNanos(25),
            TimeUnit.MILLISECONDS.toNanos(250), FreePorts.localhostMembers(NODES)).render());

        final Map<String, String> paths = Map.of(
            "RINGWATCH_JAR", manifestOnlyJar().toString(),
            "RINGWATCH_AERON_DIR", aeronDir.getAbsolutePath(),
            "RINGWATCH_CLUSTER", clusterFile.toString(),
            "RINGWATCH_KEY", key.toString());
        final Map<String, String> driverEnv = new HashMap<>(driverUnit.environment());
        driverEnv.putAll(paths);
        final Map<String, String> nodeEnv = new HashMap<>(nodeUnit.environment());
        nodeEnv.putAll(paths);
        // the per-host knob, as /etc/ringwatch/ringwatch.env would set it: a grace this loaded host can meet
        nodeEnv.put("RINGWATCH_NODE_OPTS", "--startup-grace 5s");

        final List<Process> processes = new ArrayList<>();
        try
        {
            final File driverLog = tmp.resolve("driver.log").toFile();
            final Process driver = Cli.startDriver(driverLog, runnable(driverUnit.execStart(driverEnv, "")));
            processes.add(driver);

            final Process[] nodes = new Process[NODES];
            final File[] logs = new File[NODES];
            for (int r = 0; r < NODES; r++)
            {
                logs[r] = tmp.resolve("node-" + r + ".log").toFile();
                nodes[r] = Cli.startCommand(logs[r], runnable(nodeUnit.execStart(nodeEnv, Integer.toString(r))));
                processes.add(nodes[r]);
            }
            for (int r = 0; r < NODES; r++)
            {
                Cli.awaitLine(nodes[r], logs[r], "node rank=" + r + " cluster=77 n=3 transport=udp");
            }
            // past the 5 s grace and then some: everyone judges everyone, and nobody is dead
            Thread.sleep(TimeUnit.SECONDS.toMillis(5 + 3));
            for (int r = 0; r < NODES; r++)
            {
                final ViewSnapshot view = view(aeronDir, r);
                assertTrue(nodes[r].isAlive(), Cli.read(logs[r]));
                assertEquals(NodeState.ACTIVE, view.state(), view.toString());
                assertEquals(0, view.deadCount(), view.toString());
            }

            // a second start of a running rank: refused, and the unit does not restart it
            final File duplicateLog = tmp.resolve("duplicate.log").toFile();
            final Process duplicate = Cli.startCommand(duplicateLog, runnable(nodeUnit.execStart(nodeEnv, "0")));
            assertTrue(duplicate.waitFor(60, TimeUnit.SECONDS));
            assertEquals(RingwatchConfiguration.EXIT_ALREADY_RUNNING, duplicate.exitValue(), Cli.read(duplicateLog));
            // a configuration that can never work: the do-not-restart code
            final Map<String, String> badEnv = new HashMap<>(nodeEnv);
            badEnv.put("RINGWATCH_TRANSPORT", "carrier-pigeon");
            final File badLog = tmp.resolve("bad.log").toFile();
            final Process bad = Cli.startCommand(badLog, runnable(nodeUnit.execStart(badEnv, "1")));
            assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
            assertEquals(RingwatchConfiguration.EXIT_CONFIG_INVALID, bad.exitValue(), Cli.read(badLog));
            assertTrue(codes(nodeUnit, "RestartPreventExitStatus").containsAll(
                List.of(duplicate.exitValue(), bad.exitValue())));

            // systemctl stop of every node at once: SIGTERM to each; all of them exit 0
            for (final Process node : nodes)
            {
                node.destroy();
            }
            for (int r = 0; r < NODES; r++)
            {
                assertTrue(nodes[r].waitFor(30, TimeUnit.SECONDS), Cli.read(logs[r]));
                assertEquals(0, nodes[r].exitValue(), Cli.read(logs[r]));
                assertTrue(Cli.read(logs[r]).contains("on SIGTERM/SIGINT"), Cli.read(logs[r]));
            }
            driver.destroy();
            assertTrue(driver.waitFor(30, TimeUnit.SECONDS), Cli.read(driverLog));
            assertEquals(0, driver.exitValue(), Cli.read(driverLog));
        }
        finally
        {
            for (final Process process : processes)
            {
                process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
            }
            IoUtil.delete(aeronDir, true);
            for (int r = 0; r < NODES; r++)
            {
                Files.deleteIfExists(io.ringwatch.transport.aeron.internal.RankLock.fileFor(
                    aeronDir.getAbsolutePath(), 77, r));
            }
        }
    }

    private static List<Integer> codes(final SystemdUnit unit, final String key)
    {
        return unit.values("Service", key).stream().flatMap(v -> Arrays.stream(v.split("\\s+")))
            .map(Integer::valueOf).collect(Collectors.toList());
    }

    /**
     * @return the command line with /usr/bin/java replaced by this JVM, which the build runs on.
     */
    private static List<String> runnable(final List<String> argv)
    {
        assertEquals("/usr/bin/java", argv.get(0), "ExecStart starts with an absolute path, as systemd requires");
        final List<String> cmd = new ArrayList<>(argv);
        cmd.set(0, Cli.java());
        return cmd;
    }

    /**
     * The jar the build makes after the tests, as far as the units see it: Main-Class, Add-Opens, the classes.
     */
    private Path manifestOnlyJar() throws IOException
    {
        final Manifest manifest = new Manifest();
        final Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        main.putValue("Add-Opens", "java.base/sun.nio.ch java.base/java.nio java.base/jdk.internal.misc");
        main.put(Attributes.Name.CLASS_PATH, Arrays.stream(System.getProperty("java.class.path")
            .split(File.pathSeparator)).map(entry -> new File(entry).toURI().toString())
            .collect(Collectors.joining(" ")));
        final Path jar = tmp.resolve("ringwatch.jar");
        try (OutputStream out = Files.newOutputStream(jar);
            JarOutputStream ignored = new JarOutputStream(out, manifest))
        {
            return jar;
        }
    }

    private static ViewSnapshot view(final File aeronDir, final int rank)
    {
        try (ViewReader reader = new ViewReader(ViewLayout.fileFor(aeronDir.getAbsolutePath(), 77, rank)))
        {
            return reader.read(new ViewSnapshot());
        }
    }
}
