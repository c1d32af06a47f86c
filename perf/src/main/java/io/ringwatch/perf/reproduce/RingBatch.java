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
    /**
     * Work per point in units of n·f·log₂ n (the notice copies of f double-hypercube broadcasts dominate a run's
     * events). 1.5e6 units take roughly 2–8 s on one core of this machine, depending on its load.
     */
    static final double FULL_WORK_PER_POINT = 1.5e6;
    /** Work per point in quick mode. */
    static final double QUICK_WORK_PER_POINT = 6e4;
    /** Most runs at one point. */
    static final int MAX_RUNS = 40;

    static final int[] FULL_SIZES = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 256_000};
    static final int[] QUICK_SIZES = {256, 512, 1_024};

    private RingBatch()
    {
    }

    static int[] sizes(final boolean quick)
    {
        return quick ? QUICK_SIZES : FULL_SIZES;
    }

    /**
     * @param n        nodes.
     * @param failures crashes per run.
     * @return the cost of one run in work units.
     */
    static double weight(final int n, final int failures)
    {
        return (double)n * Math.max(1, failures) * RiskModel.log2(n);
    }

    /**
     * Runs per point: as many as the work budget allows, between 1 (2 in quick mode) and {@link #MAX_RUNS}. Every
     * run simulates every heartbeat and every notice copy, so the largest sizes get a single run.
     */
    static int runsFor(final int n, final int failures, final boolean quick)
    {
        final double work = quick ? QUICK_WORK_PER_POINT : FULL_WORK_PER_POINT;
        return (int)Math.max(quick ? 2 : 1, Math.min(MAX_RUNS, Math.floor(work / weight(n, failures))));
    }

    /**
     * Submits every run of one point; {@link #collect} gathers them later, so all points run concurrently.
     */
    static List<java.util.concurrent.Future<SimResult>> submit(
        final RunPool pool,
        final int runs,
        final LongFunction<SimConfig> config,
        final java.util.function.IntToLongFunction seedOf)
    {
        final List<java.util.concurrent.Future<SimResult>> futures = new java.util.ArrayList<>(runs);
        for (int i = 0; i < runs; i++)
        {
            final long seed = seedOf.applyAsLong(i);
            futures.add(pool.submit(() -> Simulation.run(config.apply(seed))));
        }
        return futures;
    }

    static RingRuns collect(
        final int n,
        final List<java.util.concurrent.Future<SimResult>> futures,
        final double workPerRun,
        final Progress progress,
        final String label) throws InterruptedException
    {
        final List<SimResult> results = new java.util.ArrayList<>(futures.size());
        for (int i = 0; i < futures.size(); i++)
        {
            results.add(RunPool.await(futures.get(i), label + " run " + i));
            progress.advance(workPerRun, label + " run " + (i + 1) + "/" + futures.size());
        }
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
