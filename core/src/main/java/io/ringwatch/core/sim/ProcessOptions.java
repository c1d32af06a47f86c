package io.ringwatch.core.sim;

import io.ringwatch.core.process.JobLayout;

import static io.ringwatch.core.sim.Options.require;

/**
 * The process level of a two-level run: the job the daemons host and the processes crashed in it. Set through
 * {@link SimConfig}; without a job the run is node level only.
 */
public final class ProcessOptions
{
    int perNode;
    int failures;
    JobLayout job;

    ProcessOptions copy()
    {
        final ProcessOptions copy = new ProcessOptions();
        copy.perNode = perNode;
        copy.failures = failures;
        copy.job = job;
        return copy;
    }

    void conclude(final int nodes)
    {
        require(perNode >= 0 && (long)perNode * nodes <= JobLayout.MAX_PROCESSES,
            "processes per node must be in [0, " + JobLayout.MAX_PROCESSES / nodes + "]: " + perNode);
        require(job == null || job.nodeCount() == nodes,
            "the job places processes on " + (job == null ? 0 : job.nodeCount()) + " nodes, not " + nodes);
        require(failures >= 0 && failures <= (job != null ? job.processCount() : (long)perNode * nodes),
            "process failures must be in [0, processes of the job]: " + failures);
    }

    /**
     * @return application processes each daemon hosts when the job is uniform (0 with a job file's layout).
     */
    public int perNode()
    {
        return perNode;
    }

    /**
     * @return processes crashed at random, anywhere in the job, within the crash window.
     */
    public int failures()
    {
        return failures;
    }

    /**
     * @param nodes N.
     * @return the job of the process level, or null for the node level only.
     */
    public JobLayout jobLayout(final int nodes)
    {
        return job != null ? job : perNode > 0 ? JobLayout.uniform(nodes, perNode) : null;
    }
}
