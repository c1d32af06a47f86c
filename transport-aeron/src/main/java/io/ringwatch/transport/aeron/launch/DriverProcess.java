package io.ringwatch.transport.aeron.launch;

import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.internal.Drivers;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The cluster's media driver, {@code ringwatch.jar driver} in a JVM of its own: with UDP every heartbeat crosses it,
 * and a collection in a busy launcher's JVM would stop it for longer than δ.
 */
final class DriverProcess
{
    private static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private final File log;
    private final Process process;

    private DriverProcess(final File log, final Process process)
    {
        this.log = log;
        this.process = process;
    }

    /**
     * Start the driver; its output always goes to its log, even when the nodes print to the console, because the
     * log is how the launch is known to be done.
     *
     * @param options   JVM options, classpath and real-time priority.
     * @param directory the cluster's files.
     * @return the running driver, not necessarily ready yet.
     */
    static DriverProcess launch(final LocalCluster.Options options, final ClusterDirectory directory)
    {
        return launch(options, directory.aeronDir(), directory.driverLog(), List.of());
    }

    /**
     * @param options  JVM options, classpath and real-time priority.
     * @param aeronDir the driver's directory.
     * @param log      where its output goes.
     * @param launcher what the JVM command runs under, e.g. {@code ip netns exec NAME}; empty for none.
     * @return the running driver, not necessarily ready yet.
     */
    static DriverProcess launch(
        final LocalCluster.Options options, final File aeronDir, final File log, final List<String> launcher)
    {
        final List<String> args = new ArrayList<>(List.of("driver", "--aeron-dir", aeronDir.getAbsolutePath(),
            "--transport", options.transport().name().toLowerCase(Locale.ROOT)));
        final boolean lowNoise = TuningProfile.LOW_NOISE.cliName().equals(options.profile());
        if (options.transport() != TransportMode.IPC && lowNoise)
        {
            args.add("--network-period");
            args.add(Durations.format(Drivers.lowNoiseNetworkPeriodNs(ProtocolSettings.defaultProbeTimeoutNs(
                options.heartbeatPeriodNs(), options.suspicionTimeoutNs()))));
        }
        if (options.transport() == TransportMode.IPC && lowNoise)
        {
            args.add("--conductor-period");
            args.add(Durations.format(Drivers.lowNoiseIpcConductorPeriodNs(options.suspicionTimeoutNs())));
        }
        if (options.realtimePriority() > 0)
        {
            args.add("--rt-priority");
            args.add(Integer.toString(options.realtimePriority()));
        }
        final List<String> cmd = new ArrayList<>(launcher);
        if (options.driverNice() > 0)
        {
            // before the JVM starts, so every thread it makes inherits it
            cmd.addAll(List.of("nice", "-n", Integer.toString(options.driverNice())));
        }
        cmd.addAll(RingwatchJvm.command(options, aeronDir, args));
        return new DriverProcess(log, RingwatchJvm.start(cmd, log, "the media driver", false, false));
    }

    /**
     * Wait for the driver's ready line.
     *
     * @throws IllegalStateException if the driver exits first or is not ready within 60 s; the message holds its log.
     * @throws InterruptedException  if interrupted.
     */
    void awaitReady() throws InterruptedException
    {
        final long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        while (!ClusterDirectory.read(log).contains(Drivers.READY_LINE))
        {
            if (!process.isAlive())
            {
                throw new IllegalStateException("the media driver exited with " + process.exitValue() +
                    " during start" + NodeProcesses.LOG_MARK + ClusterDirectory.read(log));
            }
            if (System.nanoTime() - deadline >= 0)
            {
                throw new IllegalStateException("the media driver was not ready within 60s" +
                    NodeProcesses.LOG_MARK + ClusterDirectory.read(log));
            }
            Thread.sleep(5);
        }
    }

    /**
     * SIGKILL the driver: its clients find its heartbeat standing still, as after a crash.
     *
     * @return {@code System.nanoTime()} just before the signal.
     */
    long kill()
    {
        final long nowNs = System.nanoTime();
        process.destroyForcibly();
        return nowNs;
    }

    /**
     * @return the driver's process.
     */
    Process process()
    {
        return process;
    }

    /**
     * SIGTERM first, so the driver removes its files and says goodbye to its clients; SIGKILL if it does not go.
     */
    void stop()
    {
        process.destroy();
        ChildProcesses.awaitExitOrKill(process);
    }
}
