package io.ringwatch.transport.aeron.internal.cli;

import io.aeron.CncFileDescriptor;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.internal.Drivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ringwatch.jar driver} as an OS process: it says when it is ready, serves a CnC file, and on SIGTERM stops
 * cleanly and removes its directory; a bad option is a usage error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DriverCommandTest
{
    @TempDir
    Path tmp;

    @Test
    void shouldServeUntilSigtermThenRemoveItsDirectory() throws Exception
    {
        final File aeronDir = tmp.resolve("aeron").toFile();
        final File log = tmp.resolve("driver.log").toFile();
        final Process driver = launch(log, "--aeron-dir", aeronDir.getAbsolutePath());
        try
        {
            while (!Files.readString(log.toPath()).contains(Drivers.READY_LINE))
            {
                assertTrue(driver.isAlive(), () -> "driver exited early: " + read(log));
                Thread.sleep(10);
            }
            assertTrue(new File(aeronDir, CncFileDescriptor.CNC_FILE).exists(), "CnC file while running");

            driver.destroy();  // SIGTERM
            assertTrue(driver.waitFor(20, TimeUnit.SECONDS), "stops on SIGTERM");
            assertEquals(0, driver.exitValue(), () -> "an orderly stop on SIGTERM: " + read(log));
            assertTrue(read(log).contains("driver stopping"), () -> "closed the driver: " + read(log));
            assertFalse(aeronDir.exists(), "directory removed on shutdown");
        }
        finally
        {
            driver.destroyForcibly();
        }
    }

    @Test
    void shouldPaceTheNetworkThreadSlowlyWhenOnlySharedMemoryStreamsCrossIt() throws Exception
    {
        assertReadyWithPeriod("ipc", "network period 100ms conductor period 1ms", "--transport", "ipc");
        assertReadyWithPeriod("udp", "network period 100us", "--transport", "udp");
    }

    @Test
    void shouldPaceTheNetworkThreadAsToldAndRejectAPeriodOutOfRange() throws Exception
    {
        assertReadyWithPeriod("told", "network period 250us", "--transport", "udp", "--network-period", "250us");

        final File log = tmp.resolve("bad-period.log").toFile();
        final Process driver = launch(log, "--aeron-dir", tmp.resolve("y").toString(), "--network-period", "5s");
        assertTrue(driver.waitFor(30, TimeUnit.SECONDS));
        assertEquals(RingwatchConfiguration.EXIT_CONFIG_INVALID, driver.exitValue(), () -> read(log));
        assertTrue(read(log).contains("--network-period must be within 20us and 100ms: 5s"), () -> read(log));
    }

    @Test
    void shouldPaceTheConductorAsToldWithinTheTimerInterval() throws Exception
    {
        assertReadyWithPeriod("conductor", "conductor period 10ms", "--transport", "ipc", "--conductor-period", "10ms");

        final File log = tmp.resolve("bad-conductor.log").toFile();
        final Process driver = launch(log, "--aeron-dir", tmp.resolve("z").toString(), "--transport", "ipc",
            "--conductor-period", "500ms");
        assertTrue(driver.waitFor(30, TimeUnit.SECONDS));
        assertEquals(RingwatchConfiguration.EXIT_CONFIG_INVALID, driver.exitValue(), () -> read(log));
        assertTrue(read(log).contains("--conductor-period must be within 20us and 100ms: 500ms"), () -> read(log));
    }

    @Test
    void shouldPaceALowNoiseIpcConductorAtATenthOfDeltaWithinOneAndAHundredMilliseconds()
    {
        final long oneMs = TimeUnit.MILLISECONDS.toNanos(1);
        assertEquals(Drivers.CONDUCTOR_PERIOD_NS, Drivers.lowNoiseIpcConductorPeriodNs(oneMs));
        assertEquals(5 * oneMs, Drivers.lowNoiseIpcConductorPeriodNs(50 * oneMs));
        assertEquals(100 * oneMs, Drivers.lowNoiseIpcConductorPeriodNs(1000 * oneMs));
        assertEquals(Drivers.MAX_IPC_CONDUCTOR_PERIOD_NS, Drivers.lowNoiseIpcConductorPeriodNs(60_000 * oneMs));
    }

    @Test
    void shouldPaceALowNoiseUdpClusterAtAQuarterOfItsProbeTimeout()
    {
        final long oneMs = TimeUnit.MILLISECONDS.toNanos(1);
        assertEquals(TimeUnit.MICROSECONDS.toNanos(250), Drivers.lowNoiseNetworkPeriodNs(oneMs));
        assertEquals(Drivers.NETWORK_PERIOD_NS, Drivers.lowNoiseNetworkPeriodNs(TimeUnit.MICROSECONDS.toNanos(100)));
        assertEquals(Drivers.MAX_LOW_NOISE_NETWORK_PERIOD_NS,
            Drivers.lowNoiseNetworkPeriodNs(TimeUnit.MILLISECONDS.toNanos(40)));
    }

    private void assertReadyWithPeriod(final String name, final String expected, final String... options)
        throws Exception
    {
        final File log = tmp.resolve("driver-" + name + ".log").toFile();
        final List<String> args =
            new java.util.ArrayList<>(List.of("--aeron-dir", tmp.resolve("aeron-" + name).toString()));
        args.addAll(List.of(options));
        final Process driver = launch(log, args.toArray(new String[0]));
        try
        {
            while (!Files.readString(log.toPath()).contains(Drivers.READY_LINE))
            {
                assertTrue(driver.isAlive(), () -> "driver exited early: " + read(log));
                Thread.sleep(10);
            }
            assertTrue(read(log).contains(expected), () -> name + ": " + read(log));
        }
        finally
        {
            driver.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldRejectAnOutOfRangePriorityAsUsageError() throws Exception
    {
        final File log = tmp.resolve("bad.log").toFile();
        final Process driver = launch(log, "--aeron-dir", tmp.resolve("x").toString(), "--rt-priority", "150");
        assertTrue(driver.waitFor(30, TimeUnit.SECONDS));
        assertEquals(RingwatchConfiguration.EXIT_CONFIG_INVALID, driver.exitValue(), () -> read(log));
        assertTrue(read(log).contains("150"), () -> "names the offending value: " + read(log));
    }

    private static Process launch(final File log, final String... options) throws Exception
    {
        final List<String> cmd = new java.util.ArrayList<>(List.of(
            System.getProperty("java.home") + "/bin/java", "-Xmx64m",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"),
            Main.class.getName(), "driver"));
        cmd.addAll(List.of(options));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    }

    private static String read(final File log)
    {
        try
        {
            return Files.readString(log.toPath());
        }
        catch (final java.io.IOException ex)
        {
            return "(unreadable: " + ex + ")";
        }
    }
}
