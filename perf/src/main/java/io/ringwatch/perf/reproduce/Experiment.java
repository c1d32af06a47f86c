package io.ringwatch.perf.reproduce;

import java.io.PrintStream;

/**
 * One reproduction: computes or simulates, writes its CSV and plots into the output folder and returns its part
 * of the report.
 */
public interface Experiment
{
    /**
     * @return the name used with {@code --only} and as the file prefix.
     */
    String id();

    /**
     * @param quick true for the CI-sized variant.
     * @return a rough relative cost, used only to order the overall progress estimate.
     */
    double expectedSeconds(boolean quick);

    /**
     * @param options output folder, seed, size.
     * @param progress where progress lines go.
     * @return the report section.
     * @throws Exception on I/O failure; simulation check failures are reported in the section, not thrown.
     */
    ReportSection run(ReproduceOptions options, PrintStream progress) throws Exception;
}
