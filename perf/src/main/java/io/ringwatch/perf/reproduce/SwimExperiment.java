package io.ringwatch.perf.reproduce;

import java.io.PrintStream;

/**
 * Placeholder until the simulator lands; replaced in this branch.
 */
public final class SwimExperiment implements Experiment
{
    public String id()
    {
        return "swim";
    }

    public double expectedSeconds(final boolean quick)
    {
        return 0;
    }

    public ReportSection run(final ReproduceOptions options, final PrintStream progress)
    {
        throw new UnsupportedOperationException("swim: not implemented yet");
    }
}
