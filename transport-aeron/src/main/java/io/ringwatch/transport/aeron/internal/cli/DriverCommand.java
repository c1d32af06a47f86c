package io.ringwatch.transport.aeron.internal.cli;

import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.config.Durations;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.PacedIdleStrategy;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code driver}: a media driver with ringwatch's settings in a process of its own, for nodes started with
 * {@code --driver external}. Stops on SIGTERM or SIGINT after closing the driver, which removes its directory, and
 * exits 0: an orderly stop, as for a node.
 * <p>
 * Why a process of its own: notices and probes pass through the driver, and a driver embedded in a busy JVM stops
 * whenever that JVM does (a 20 ms young collection in the demo's harness was enough for false suspicions at
 * δ = 10 ms). A driver JVM does almost nothing but the driver, so its pauses are rare and short.
 */
final class DriverCommand
{
    private static final long CLOSE_TIMEOUT_MS = 10_000;

    private DriverCommand()
    {
    }

    static int run(final String[] argv) throws InterruptedException
    {
        final Args args = new Args(argv, 1);
        final String dir = args.string("--aeron-dir", CommonContext.getAeronDirectoryName());
        final int agentPriority = args.intValue("--rt-priority", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
        // a driver for shared-memory clusters only: nothing crosses its network thread, so it wakes rarely. The
        // default is the nodes' (the cluster file's hosts); without a cluster file udp, which serves ipc nodes too
        final String clusterFile = args.string("--cluster", null);
        final String transportDefault = clusterFile == null ? TransportMode.UDP.cliName() :
            (ClusterConfig.load(Path.of(clusterFile)).firstRankOnAnotherHost() < 0 ? TransportMode.IPC :
            TransportMode.UDP).cliName();
        final boolean ipcOnly = TransportMode.parse(args.string("--transport", transportDefault)) == TransportMode.IPC;
        final long networkPeriodNs = args.durationNs("--network-period",
            ipcOnly ? Drivers.IPC_NETWORK_PERIOD_NS : Drivers.NETWORK_PERIOD_NS);
        final long conductorPeriodNs = args.durationNs("--conductor-period", Drivers.CONDUCTOR_PERIOD_NS);
        args.finish();
        // shorter than a sleep worth a system call, the thread would spin; longer than the IPC pacing, notices wait
        final long minNs = DeadlineIdleStrategy.MIN_PARK_NS;
        if (networkPeriodNs < minNs || networkPeriodNs > Drivers.IPC_NETWORK_PERIOD_NS)
        {
            throw new UsageException("--network-period must be within " + Durations.format(minNs) + " and " +
                Durations.format(Drivers.IPC_NETWORK_PERIOD_NS) + ": " + Durations.format(networkPeriodNs));
        }
        // a network channel's conductor keeps Aeron's pace; shared memory alone lets it sleep up to 100 ms
        final long maxConductorNs = ipcOnly ? Drivers.MAX_IPC_CONDUCTOR_PERIOD_NS : Drivers.CONDUCTOR_PERIOD_NS;
        if (conductorPeriodNs < minNs || conductorPeriodNs > maxConductorNs)
        {
            throw new UsageException("--conductor-period must be within " + Durations.format(minNs) + " and " +
                Durations.format(maxConductorNs) + (ipcOnly ? "" : " with --transport udp") + ": " +
                Durations.format(conductorPeriodNs));
        }
        if (agentPriority != 0)
        {
            RealtimePriority.validate(agentPriority);
        }

        // SIGTERM/SIGINT: the shutdown waits for the driver to close (its directory deleted) and exits 0
        final CountDownLatch stop = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        CliShutdown.add(() ->
        {
            stop.countDown();
            try
            {
                closed.await(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        try (MediaDriver driver = MediaDriver.launch(Drivers.withRealtimePriority(
            context(dir, ipcOnly, networkPeriodNs, conductorPeriodNs), agentPriority)))
        {
            System.out.println(Drivers.READY_LINE + ": aeron.dir=" + driver.aeronDirectoryName() + " pid=" +
                ProcessHandle.current().pid() + " network period " + Durations.format(networkPeriodNs) +
                " conductor period " + Durations.format(conductorPeriodNs) +
                (agentPriority == 0 ? "" :
                " network thread SCHED_FIFO " + Drivers.networkPriority(agentPriority) +
                ", conductor " + Drivers.conductorPriority(agentPriority)));
            stop.await();
            System.out.println("driver stopping");
        }
        finally
        {
            closed.countDown();
        }
        return 0;
    }

    private static MediaDriver.Context context(
        final String dir, final boolean ipcOnly, final long networkPeriodNs, final long conductorPeriodNs)
    {
        final MediaDriver.Context ctx = Drivers.lowFootprint(dir, networkPeriodNs);
        return ipcOnly ? Drivers.sharedMemoryOnly(ctx, conductorPeriodNs) :
            ctx.conductorIdleStrategy(new PacedIdleStrategy(conductorPeriodNs));
    }
}
