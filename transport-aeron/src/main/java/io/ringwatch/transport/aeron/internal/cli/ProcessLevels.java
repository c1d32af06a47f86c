package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.process.JobLayout;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.RingwatchNode;
import io.ringwatch.transport.aeron.client.RingwatchClient;
import io.ringwatch.transport.aeron.internal.process.ProcessDaemon;

import java.util.Map;

/**
 * {@code node --procs K [--exec CMD]}: give the node a process level before its agent starts, and launch its
 * processes. The job is K processes on every node, application ranks in node order.
 */
final class ProcessLevels
{
    private ProcessLevels()
    {
    }

    static ProcessDaemon attach(final RingwatchNode node, final int processesPerNode, final String command)
    {
        final RingwatchContext ctx = node.context();
        final JobLayout layout = JobLayout.uniform(ctx.cluster().size(), processesPerNode);
        final ProcessDaemon daemon = new ProcessDaemon(node.agent().node(), layout, ctx.broadcast().newSchedule(),
            node.agent().control(), ctx.aeronDirectoryName(), ctx.cluster().clusterId(), ctx.nanoClock());
        if (command != null)
        {
            daemon.launch(command, localIndex -> Map.of(
                RingwatchClient.ENV_AERON_DIR, ctx.aeronDirectoryName(),
                RingwatchClient.ENV_CLUSTER_ID, Integer.toString(ctx.cluster().clusterId()),
                RingwatchClient.ENV_NODE, Integer.toString(ctx.rank()),
                RingwatchClient.ENV_LOCAL_INDEX, Integer.toString(localIndex)));
        }
        // a node's processes do not outlive it: on exit (fenced, left, killed by signal) they are killed
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::close, "ringwatch-processes"));
        node.agent().processLevel(daemon);
        System.out.println("process level: " + processesPerNode + " processes per node, ranks " +
            layout.firstProcess(ctx.rank()) + ".." + (layout.firstProcess(ctx.rank()) + processesPerNode - 1) +
            (command != null ? ", launched: " + command : ", none launched") + "; view " + daemon.view().file());
        return daemon;
    }
}
