package io.ringwatch.perf.noise;



/**
 * One A/B pair: the loads without the detector (A) and with it (B), run back to back.
 *
 * @param index         pair number from 0.
 * @param baselineFirst true if A ran before B.
 * @param a             without the detector.
 * @param b             with it; null when the detector did not run.
 * @param window        what the detector's nodes recorded during B; null when it did not run.
 * @param invalid       null for a usable pair, else why it is left out (cluster did not start, a node died, a
 *                      live node was declared dead during B).
 */
record PairResult(
    int index, boolean baselineFirst, Measurement a, Measurement b, DetectorUnderTest.Window window, String invalid)
{
    boolean valid()
    {
        return invalid == null;
    }

    /**
     * @return A's rate over B's, minus one: the fraction of time the application lost; NaN without DGEMM.
     */
    double dgemmSlowdown()
    {
        return a.dgemmGflops() / b.dgemmGflops() - 1;
    }

    /**
     * @return HPL's slowdown the same way; NaN without HPL.
     */
    double hplSlowdown()
    {
        return a.hplGflops() / b.hplGflops() - 1;
    }

    /**
     * @return B's mean quantum over A's, minus one; NaN without FWQ.
     */
    double fwqSlowdown()
    {
        return b.fwqMeanNs() / a.fwqMeanNs() - 1;
    }

    /**
     * Noise events: quanta slower than A's 99.9th percentile, per core-second of B minus per core-second of A (where they
     * happen 0.1 % of the time by definition).
     *
     * @return extra events per core-second in B; NaN without FWQ.
     */
    double fwqExcessEventsPerSecond()
    {
        if (a.fwq() == null || b.fwq() == null || a.fwq().getTotalCount() == 0 || b.fwq().getTotalCount() == 0)
        {
            return Double.NaN;
        }
        final long threshold = a.fwq().getValueAtPercentile(99.9);
        return NoiseStats.countAbove(b.fwq(), threshold) / b.fwqCoreSeconds() -
            NoiseStats.countAbove(a.fwq(), threshold) / a.fwqCoreSeconds();
    }
}
