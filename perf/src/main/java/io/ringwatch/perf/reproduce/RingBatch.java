package io.ringwatch.perf.reproduce;

import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SimResult;
import io.ringwatch.core.sim.Simulation;

import java.util.List;
import java.util.function.LongFunction;

/**
 * Sizing and running batches of ring simulations for the Fig. 4 and Fig. 5 experiments.
 */
final class RingBatch
{
    /** Node-runs per point in the full reproduction: about a minute per scenario on two free cores. */
    static final double FULL_WORK_PER_POINT = 80_000;
    /** Node-runs per point in quick mode. */
    static final double QUICK_WORK_PER_POINT = 3_000;

    static final int[] FULL_SIZES = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000};
    static final int[] QUICK_SIZES = {256, 512, 1_024};

    private RingBatch()
    {
    }

    static int[] sizes(final boolean quick)
    {
        return quick ? QUICK_SIZES : FULL_SIZES;
    }

    /**
     * Runs per n: as many as the work budget allows, between 1 and 100. Every run at 256k simulates every
     * heartbeat of a quarter-million nodes, so the largest sizes get one or two runs.
     */
    static int runsFor(final int n, final boolean quick)
    {
        final double work = quick ? QUICK_WORK_PER_POINT : FULL_WORK_PER_POINT;
        return (int)Math.max(quick ? 2 : 1, Math.min(100, Math.floor(work / n)));
    }

    static double totalWork(final int[] sizes, final boolean quick)
    {
        double total = 0;
        for (final int n : sizes)
        {
            total += (double)n * runsFor(n, quick);
        }
        return total;
    }

    /**
     * @param pool     worker threads.
     * @param n        nodes.
     * @param runs     runs.
     * @param config   config for a run seed (unconcluded; concluded by the simulation).
     * @param seedOf   run index to seed.
     * @param progress progress.
     * @param label    progress label.
     * @return aggregates.
     * @throws InterruptedException if interrupted.
     */
    static RingRuns run(
        final RunPool pool,
        final int n,
        final int runs,
        final LongFunction<SimConfig> config,
        final java.util.function.IntToLongFunction seedOf,
        final Progress progress,
        final String label) throws InterruptedException
    {
        final List<SimResult> results = pool.map(
            runs, (i) -> Simulation.run(config.apply(seedOf.applyAsLong(i))), progress, n, label);
        return new RingRuns(n, results);
    }

    static double[] column(final List<RingRuns> points, final java.util.function.ToDoubleFunction<RingRuns> f)
    {
        final double[] values = new double[points.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = f.applyAsDouble(points.get(i));
        }
        return values;
    }

    static double[] dense(final double from, final double to)
    {
        final int count = 60;
        final double[] xs = new double[count];
        final double ratio = Math.pow(to / from, 1.0 / (count - 1));
        for (int i = 0; i < count; i++)
        {
            xs[i] = from * Math.pow(ratio, i);
        }
        return xs;
    }

    static double[] eval(final LeastSquares.Fit fit, final double[] xs)
    {
        final double[] ys = new double[xs.length];
        for (int i = 0; i < xs.length; i++)
        {
            ys[i] = fit.at(xs[i]);
        }
        return ys;
    }

    static double floorLog2(final double n)
    {
        return 31 - Integer.numberOfLeadingZeros((int)Math.round(n));
    }
}
