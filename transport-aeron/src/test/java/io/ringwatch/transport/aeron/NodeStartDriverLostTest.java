package io.ringwatch.transport.aeron;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node started while its host's driver is dead (SIGKILLed, its CnC file left, not yet restarted: what the nemesis
 * found when it killed a driver while a supervisor restarted a node, seed 2) stops as after a driver loss in a run:
 * exit 4, which its unit restarts, with the cause named and no stack trace. It used to exit 1 with the Aeron client's
 * DriverTimeoutException trace.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NodeStartDriverLostTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldExitDriverLostWhenItsDriverIsDeadAtStart() throws Exception
    {
        final Process driver = Cli.startUdpDriver(tmp);
        driver.destroyForcibly();
        driver.waitFor();
        final List<String> args = new ArrayList<>(List.of("node", "--rank", "0"));
        args.addAll(Cli.udpClusterArgs(tmp, 3, 31900));
        final File log = tmp.resolve("node.log").toFile();
        final int exit = Cli.run(log, args.toArray(new String[0]));
        final String out = Cli.read(log);
        assertEquals(RingwatchConfiguration.EXIT_DRIVER_LOST, exit, out);
        assertTrue(out.contains("DRIVER_LOST at start"), out);
        assertFalse(out.contains("\tat "), "no stack trace: " + out);
    }

    /**
     * The driver dies while the node waits at its start barrier: the Aeron client unmaps the driver's CnC file when it
     * notices, and a thread that then read one of the node's counters there crashed the JVM (exit 134, SIGSEGV: the
     * node command's main thread logging the stop, and the hello thread). The node must stop as on any driver loss.
     */
    @Test
    void shouldExitDriverLostWithoutACrashWhenItsDriverDiesAtTheStartBarrier() throws Exception
    {
        final Process driver = Cli.startUdpDriver(tmp);
        final Path go = tmp.resolve("go");
        final File log = tmp.resolve("node.log").toFile();
        Process node = null;
        try
        {
            final List<String> args = new ArrayList<>(List.of("node", "--rank", "0", "--start-after", go.toString()));
            args.addAll(Cli.udpClusterArgs(tmp, 3, 31920));
            node = Cli.start(log, args.toArray(new String[0]));
            // held: warmed up and waiting for its peers, who never come, then for the go
            while (!Cli.read(log).contains("warm-up"))
            {
                assertTrue(node.isAlive(), "node exited before its barrier: " + Cli.read(log));
                Thread.sleep(50);
            }
        }
        finally
        {
            driver.destroyForcibly();
            driver.waitFor();
        }
        // without its driver nothing it waits for can come: it stops past the Aeron client's driver timeout (5 s
        // here) without the go
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "node did not stop: " + Cli.read(log));
        final String out = Cli.read(log);
        assertEquals(RingwatchConfiguration.EXIT_DRIVER_LOST, node.exitValue(), out);
        assertTrue(out.contains("DRIVER_LOST"), out);
        assertFalse(out.contains("\tat "), "no stack trace: " + out);
    }

    /**
     * A joiner whose driver dies before it is admitted (the 30-minute nemesis: a restarted rank still asking to join
     * when the nemesis killed its host's driver) stops as DRIVER_LOST. It used to stay JOINING, its agent ended
     * and its process waited for ever, so its supervisor never restarted it and its host's driver was never
     * restarted either.
     */
    @Test
    void shouldExitDriverLostWhenItsDriverDiesWhileItJoins() throws Exception
    {
        final Process driver = Cli.startUdpDriver(tmp);
        final File log = tmp.resolve("node.log").toFile();
        final Process node;
        try
        {
            // rank 3 of 4 is no seed: it asks to join, and nobody answers
            final List<String> args = new ArrayList<>(List.of("node", "--rank", "3"));
            args.addAll(Cli.udpClusterArgs(tmp, 4, 31960));
            node = Cli.start(log, args.toArray(new String[0]));
            while (!Cli.read(log).contains("joining"))
            {
                assertTrue(node.isAlive(), "node exited before it joined: " + Cli.read(log));
                Thread.sleep(50);
            }
        }
        finally
        {
            driver.destroyForcibly();
            driver.waitFor();
        }
        try
        {
            assertTrue(node.waitFor(60, TimeUnit.SECONDS), "node did not stop: " + Cli.read(log));
        }
        finally
        {
            node.destroyForcibly();
        }
        final String out = Cli.read(log);
        assertEquals(RingwatchConfiguration.EXIT_DRIVER_LOST, node.exitValue(), out);
        assertTrue(out.contains("DRIVER_LOST"), out);
        assertFalse(out.contains("\tat "), "no stack trace: " + out);
    }
}
