package io.ringwatch.perf.reproduce;

import java.io.PrintStream;

/**
 * Placeholder until the simulator lands; replaced in this branch.
 */
public final class OverlappingExperiment implements Experiment
{
    public String id()
    {
        return "overlapping";
    }

    public double expectedSeconds(final boolean quick)
    {
        return 0;
    }

    public ReportSection run(final ReproduceOptions options, final PrintStream progress)
    {
        throw new UnsupportedOperationException("overlapping: not implemented yet");
    }
}
