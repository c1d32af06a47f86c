package io.ringwatch.perf.noise;

import org.HdrHistogram.Histogram;

/**
 * What the loads achieved in one run (one side of a pair). Absent loads are NaN or null.
 *
 * @param dgemmGflops DGEMM rate.
 * @param dgemmCalls  DGEMM per-call times, ns.
 * @param fwq         FWQ quantum times, ns, every application core.
 * @param fwqCoreSeconds FWQ wall time times the cores it ran on.
 * @param hplGflops   HPL rate.
 * @param loadAverage the host's 1-minute load average at the end of the run.
 */
record Measurement(
    double dgemmGflops, Histogram dgemmCalls, Histogram fwq, double fwqCoreSeconds, double hplGflops, double loadAverage)
{
    /**
     * @return mean FWQ quantum, ns; NaN without FWQ.
     */
    double fwqMeanNs()
    {
        return fwq == null || fwq.getTotalCount() == 0 ? Double.NaN : fwq.getMean();
    }
}
