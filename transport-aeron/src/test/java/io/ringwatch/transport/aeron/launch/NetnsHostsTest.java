package io.ringwatch.transport.aeron.launch;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The namespace fixture's bookkeeping: what a run creates it deletes, and what a killed run left behind the next
 * one deletes. (Its faults are exercised by the namespace cluster tests.)
 */
class NetnsHostsTest
{
    /** A pid no process has: above the kernel's pid_max limit. */
    private static final long DEAD_PID = 4_194_305L;

    @BeforeEach
    void requireNamespaces()
    {
        final String unavailable = NetnsHosts.unavailableReason();
        Assumptions.assumeTrue(unavailable == null, () -> "network namespace tests skipped: " + unavailable);
    }

    @Test
    void shouldDeleteEveryNamespaceOfTheRunOnClose() throws Exception
    {
        final NetnsHosts hosts = new NetnsHosts(3);
        final List<String> names = List.of(hosts.namespace(0), hosts.namespace(1), hosts.namespace(2),
            hosts.switchNamespace());
        try
        {
            assertTrue(namespaces().containsAll(names), namespaces().toString());
            assertEquals("10.77.0.2", hosts.address(1));
            assertEquals(List.of("ip", "netns", "exec", hosts.namespace(2)), hosts.launcher(2));
            final long beforeNs = System.nanoTime();
            final ShellSpan cut = hosts.isolateFor(1, 20);
            final long afterNs = System.nanoTime();
            assertTrue(cut.millis() >= 20, "a timed cut lasts at least as long as asked: " + cut);
            // the shell's edges, moved onto this JVM's clock, lie between the call and its return (1 ms of leeway
            // for the two clocks read one after the other)
            assertTrue(cut.startNs() >= beforeNs - 1_000_000 && cut.endNs() <= afterNs + 1_000_000,
                "the cut's edges " + cut + " lie within the call [" + beforeNs + ", " + afterNs + "]");
        }
        finally
        {
            hosts.close();
        }
        for (final String name : names)
        {
            assertFalse(namespaces().contains(name), name + " left after close: " + namespaces());
        }
    }

    @Test
    void shouldRemoveNamespacesAndDirectoriesOfRunsWhoseProcessIsGone() throws Exception
    {
        final String leftover = NetnsHosts.PREFIX + DEAD_PID + "-1abc-h0";
        assertEquals(0, new ProcessBuilder("ip", "netns", "add", leftover).start().waitFor());
        final File leftoverDir =
            new File(ClusterDirectory.defaultParent(), NetnsCluster.DIRECTORY_PREFIX + DEAD_PID + "-1");
        assertTrue(new File(leftoverDir, "logs").mkdirs());
        final File ours = new File(ClusterDirectory.defaultParent(),
            NetnsCluster.DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-" + System.nanoTime());
        assertTrue(ours.mkdirs());
        try
        {
            assertTrue(NetnsHosts.removeLeftovers().contains(leftover));
            NetnsCluster.removeLeftoverDirectories();
            assertFalse(namespaces().contains(leftover), namespaces().toString());
            assertFalse(leftoverDir.exists(), leftoverDir + " still there");
            assertTrue(ours.exists(), "a live process's directory stays");
        }
        finally
        {
            new ProcessBuilder("ip", "netns", "del", leftover).start().waitFor();
            new ClusterDirectory(leftoverDir).delete();
            new ClusterDirectory(ours).delete();
        }
    }

    private static List<String> namespaces() throws Exception
    {
        final Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().map(line -> line.trim().split("\\s+")[0]).toList();
    }
}
