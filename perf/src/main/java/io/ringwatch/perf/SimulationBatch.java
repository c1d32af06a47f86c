package io.ringwatch.perf;

import io.ringwatch.core.sim.Seeds;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SimResult;
import io.ringwatch.core.sim.Simulation;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Runs independent simulations on a few threads. Run i uses {@link Seeds#forRun}(seed, i) whichever thread
 * takes it, and results come back indexed by run, so the aggregate does not depend on the thread count.
 */
final class SimulationBatch
{
    private static final long PROGRESS_INTERVAL_MS = 10_000;

    private SimulationBatch()
    {
    }

    /**
     * @param template config of every run; its seed is the batch seed.
     * @param runs     number of runs.
     * @param threads  worker threads.
     * @param progress where a progress line goes every few seconds, or null.
     * @return results in run order.
     * @throws InterruptedException if interrupted while waiting.
     */
    static SimResult[] run(final SimConfig template, final int runs, final int threads, final PrintStream progress)
        throws InterruptedException
    {
        return run(template, runs, threads, progress, null);
    }

    /**
     * As {@link #run(SimConfig, int, int, PrintStream)}, handing each finished simulation to {@code afterRun} (on
     * the worker thread that ran it) for figures the result does not carry.
     *
     * @param template config of every run; its seed is the batch seed.
     * @param runs     number of runs.
     * @param threads  worker threads.
     * @param progress where a progress line goes every few seconds, or null.
     * @param afterRun called with each finished simulation, or null; must be thread safe.
     * @return results in run order.
     * @throws InterruptedException if interrupted while waiting.
     */
    static SimResult[] run(
        final SimConfig template,
        final int runs,
        final int threads,
        final PrintStream progress,
        final Consumer<Simulation> afterRun)
        throws InterruptedException
    {
        final long batchSeed = template.seed();
        final AtomicReferenceArray<SimResult> results = new AtomicReferenceArray<>(runs);
        final AtomicInteger nextRun = new AtomicInteger();
        final AtomicInteger finished = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final int workerCount = Math.max(1, Math.min(threads, runs));
        // the run each worker is in, for the progress line: a million-node run takes many minutes
        final AtomicReferenceArray<Simulation> running = new AtomicReferenceArray<>(workerCount);
        final AtomicInteger nextWorker = new AtomicInteger();

        final Runnable worker = () ->
        {
            final int self = nextWorker.getAndIncrement();
            try
            {
                int run;
                while (failure.get() == null && (run = nextRun.getAndIncrement()) < runs)
                {
                    final SimConfig config = template.copy().seed(Seeds.forRun(batchSeed, run));
                    final Simulation simulation = new Simulation(config);
                    running.set(self, simulation);
                    results.set(run, simulation.run());
                    running.set(self, null);
                    if (afterRun != null)
                    {
                        afterRun.accept(simulation);
                    }
                    finished.incrementAndGet();
                }
            }
            catch (final Throwable ex)
            {
                failure.compareAndSet(null, ex);
            }
        };

        final Thread[] workers = new Thread[workerCount];
        for (int i = 0; i < workerCount; i++)
        {
            workers[i] = new Thread(worker, "simulate-" + i);
            workers[i].setDaemon(true);
            workers[i].start();
        }

        final long startMs = System.currentTimeMillis();
        long lastReportMs = startMs;
        for (final Thread thread : workers)
        {
            while (thread.isAlive())
            {
                thread.join(500);
                final long nowMs = System.currentTimeMillis();
                if (progress != null && nowMs - lastReportMs >= PROGRESS_INTERVAL_MS)
                {
                    lastReportMs = nowMs;
                    final int done = finished.get();
                    long events = 0;
                    long virtualNs = 0;
                    for (int i = 0; i < workerCount; i++)
                    {
                        final Simulation simulation = running.get(i);
                        if (simulation != null)
                        {
                            events += simulation.eventsSoFar();
                            virtualNs = Math.max(virtualNs, simulation.virtualTimeNs());
                        }
                    }
                    progress.printf("progress: %d/%d runs done after %.0f s; runs under way: %d events, up to %.3f s " +
                        "of virtual time%n", done, runs, (nowMs - startMs) / 1e3, events, virtualNs / 1e9);
                }
            }
        }

        if (failure.get() != null)
        {
            throw new IllegalStateException("a simulation run failed", failure.get());
        }
        final SimResult[] ordered = new SimResult[runs];
        for (int i = 0; i < runs; i++)
        {
            ordered[i] = results.get(i);
        }
        return ordered;
    }
}
