package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.config.Durations;
import io.ringwatch.core.process.JobFile;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.RingwatchNode;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.client.ProcessViewLayout;
import io.ringwatch.transport.aeron.client.RingwatchClient;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.process.LocalProcesses;
import io.ringwatch.transport.aeron.internal.process.ProcessDaemon;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code node --procs-per-node K | --job FILE [--exec CMD] [--process-timeout D]}: give the node a process level before its
 * agent starts, and launch its processes. The job is K processes on every node, or what the job file
 * ({@link JobFile}) says, application ranks in node order. Slots the daemon
 * did not fill are open to processes that attach on their own; every attached process is watched by its beats.
 */
final class ProcessLevels
{
    private static final System.Logger LOG = System.getLogger(NodeCommand.LOGGER);

    /** Default watchdog timeout: an attached process that has not polled for this long is declared dead. */
    static final long PROCESS_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);

    private ProcessLevels()
    {
    }

    /**
     * The job of {@code node --procs-per-node K} or {@code node --job FILE}, for the context (and so the config digest) before
     * the node is built.
     */
    static JobLayout layout(final Path clusterFile, final int processesPerNode, final String jobFile)
    {
        final int nodes = ClusterConfig.load(clusterFile).size();
        if (jobFile == null)
        {
            return JobLayout.uniform(nodes, processesPerNode);
        }
        try
        {
            return JobFile.load(Path.of(jobFile), nodes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad --job: " + ex.getMessage());
        }
    }

    static ProcessDaemon attach(final RingwatchNode node, final String command, final long processTimeoutNs)
    {
        final RingwatchContext ctx = node.context();
        final JobLayout layout = ctx.jobLayout();
        final int processesOnThisNode = layout.processesOn(ctx.rank());
        final ProcessDaemon daemon = new ProcessDaemon(NodeInternals.agent(node).node(), layout, ctx.broadcast().newSchedule(),
            NodeInternals.agent(node).control(), ctx.aeronDirectoryName(), ctx.cluster().clusterId(), ctx.nanoClock());
        if (command != null)
        {
            daemon.launch(command, localIndex -> Map.of(
                RingwatchClient.ENV_AERON_DIR, ctx.aeronDirectoryName(),
                RingwatchClient.ENV_CLUSTER_ID, Integer.toString(ctx.cluster().clusterId()),
                RingwatchClient.ENV_NODE, Integer.toString(ctx.rank()),
                RingwatchClient.ENV_LOCAL_INDEX, Integer.toString(localIndex)),
                // the exit watchers wake as promptly as the agent they wake
                Math.max(0, ctx.realtimePriority()));
        }
        // a node's processes do not outlive it: on exit (fenced, left, killed by signal) they are killed
        CliShutdown.add(daemon::close);
        NodeInternals.agent(node).processLevel(daemon);
        startLog(daemon, layout);
        final int first = layout.firstProcess(ctx.rank());
        LOG.log(Level.INFO, "process level: " + layout + ", job digest " + String.format("%08x", layout.digest()) +
            "; this node hosts " + processesOnThisNode +
            (processesOnThisNode > 0 ? ", ranks " + first + ".." + (first + processesOnThisNode - 1) : "") +
            (command != null ? ", launched: " + command : ", none launched: slots open to attach") +
            "; watchdog " + (processTimeoutNs > 0 ? Durations.format(processTimeoutNs) : "off") + "; view " +
            daemon.view().file());
        return daemon;
    }

    /**
     * Wait until every process this daemon launched has attached (or exited), so a launcher's start barrier is
     * released only after the JVM launches are over; returns at once if it launched none. Holds the node as its
     * start barrier does, so its Aeron client keeps being serviced.
     */
    static void awaitAttached(final RingwatchNode node, final ProcessDaemon daemon, final long timeoutMs)
        throws InterruptedException
    {
        if (daemon.local() != null && !node.holdUntil(() -> allAttached(daemon), timeoutMs))
        {
            LOG.log(Level.WARNING, "not every launched process attached within " + timeoutMs + " ms; going on");
        }
    }

    private static boolean allAttached(final ProcessDaemon daemon)
    {
        for (int i = 0; i < daemon.local().count(); i++)
        {
            if (daemon.view().slotState(i) == ProcessViewLayout.SLOT_LAUNCHED &&
                daemon.local().exitCode(i) == LocalProcesses.RUNNING)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Log each process death once, from a thread of its own (the agent never formats or prints): when this daemon
     * learned it, and for its own processes how long after the exit was reported.
     */
    private static void startLog(final ProcessDaemon daemon, final JobLayout layout)
    {
        final Thread log = new Thread(() ->
        {
            final boolean[] logged = new boolean[layout.processCount()];
            while (!Thread.currentThread().isInterrupted())
            {
                for (int p = 0; p < logged.length; p++)
                {
                    final long atNs = daemon.learnedAtNs(p);
                    if (!logged[p] && atNs != 0)
                    {
                        logged[p] = true;
                        final boolean own = daemon.local() != null && layout.nodeOf(p) == daemon.view().nodeRank();
                        final long exitNs = own ? daemon.local().exitedAtNs(layout.localIndexOf(p)) : 0;
                        LOG.log(Level.INFO, "membership: process " + p + " (node " + layout.nodeOf(p) +
                            ") dead, learned at " + atNs + "ns" + (exitNs != 0 ? ", " + (atNs - exitNs) / 1000 +
                            "us after its exit was reported, exit code " + daemon.local().exitCode(layout.localIndexOf(p)) : ""));
                    }
                }
                try
                {
                    Thread.sleep(50);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        }, "ringwatch-process-log");
        log.setDaemon(true);
        log.start();
    }
}
