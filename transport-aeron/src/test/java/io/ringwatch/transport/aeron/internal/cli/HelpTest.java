package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.RingwatchConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ringwatch.jar COMMAND --help} prints that command's options and the exit codes; {@code --version} the
 * version; a bad flag or a missing cluster file exits with the do-not-restart code.
 */
class HelpTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldPrintTheCommandsOwnHelpAndTheExitCodes() throws Exception
    {
        final String node = run(0, "node", "--help");
        assertTrue(node.contains("node   --cluster FILE --rank R"), node);
        assertFalse(node.contains("demo   [--nodes"), "only the node's options: " + node);
        assertTrue(node.contains("  " + RingwatchConfiguration.EXIT_CONFIG_INVALID + "  bad command line"), node);
        final String all = run(0, "--help");
        assertTrue(all.contains("node   --cluster FILE") && all.contains("demo   [--nodes"), all);
        assertTrue(run(0, "--version").startsWith("ringwatch "), "a version line");
        final String bad = run(RingwatchConfiguration.EXIT_CONFIG_INVALID, "stat", "--no-such-flag");
        assertTrue(bad.contains("--no-such-flag"), bad);
        final String noCluster = run(RingwatchConfiguration.EXIT_CONFIG_INVALID, "node", "--no-auth", "--cluster",
            tmp.resolve("missing.conf").toString(), "--rank", "0");
        assertTrue(noCluster.contains("cannot read cluster file") && noCluster.contains("a restart cannot help"),
            noCluster);
        // fails closed: no key and no explicit --no-auth is a configuration error whose message says both fixes
        final String noKey = run(RingwatchConfiguration.EXIT_CONFIG_INVALID, "node", "--cluster",
            tmp.resolve("missing.conf").toString(), "--rank", "0");
        assertTrue(noKey.contains("no key file") && noKey.contains("keygen") && noKey.contains("--no-auth"), noKey);
    }

    private String run(final int expectedExit, final String... args) throws IOException, InterruptedException
    {
        final List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
            "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        final File log = tmp.resolve("out-" + System.nanoTime() + ".log").toFile();
        final Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        final String printed = Files.readString(log.toPath(), StandardCharsets.UTF_8);
        assertEquals(expectedExit, process.exitValue(), printed);
        return printed;
    }
}
