package io.ringwatch.perf.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Runs independent simulation runs on a few threads. Each run is a pure function of its own seed, so results are
 * the same whatever the thread count; they are returned in run order.
 */
public final class RunPool implements AutoCloseable
{
    private final ExecutorService executor;

    /**
     * @param threads worker threads, at least 1.
     */
    public RunPool(final int threads)
    {
        executor = Executors.newFixedThreadPool(Math.max(1, threads), (r) ->
        {
            final Thread t = new Thread(r, "reproduce-run");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * @return threads to use on this machine: all processors, at most 2 (simulations of 256k nodes need ~1 GB).
     */
    public static int defaultThreads()
    {
        return Math.min(2, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param runs     number of runs.
     * @param run      run index to result.
     * @param progress advanced by {@code workPerRun} after each run.
     * @param workPerRun progress units per run.
     * @param detail   progress label.
     * @param <T>      result type.
     * @return results in run order.
     * @throws InterruptedException if interrupted while waiting.
     */
    public <T> List<T> map(
        final int runs,
        final IntFunction<T> run,
        final Progress progress,
        final double workPerRun,
        final String detail) throws InterruptedException
    {
        final List<Future<T>> futures = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++)
        {
            final int index = i;
            futures.add(executor.submit(() -> run.apply(index)));
        }
        final List<T> results = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++)
        {
            try
            {
                results.add(futures.get(i).get());
            }
            catch (final ExecutionException ex)
            {
                throw new IllegalStateException(detail + " run " + i + " failed", ex.getCause());
            }
            synchronized (progress)
            {
                progress.advance(workPerRun, detail + " run " + (i + 1) + "/" + runs);
            }
        }
        return results;
    }

    /**
     * @param task one run.
     * @param <T>  result type.
     * @return its future; submitting many at once keeps every thread busy across parameter points.
     */
    public <T> Future<T> submit(final java.util.concurrent.Callable<T> task)
    {
        return executor.submit(task);
    }

    /**
     * @param future a submitted run.
     * @param label  names the run in the error.
     * @param <T>    result type.
     * @return its result.
     * @throws InterruptedException if interrupted while waiting.
     */
    public static <T> T await(final Future<T> future, final String label) throws InterruptedException
    {
        try
        {
            return future.get();
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException(label + " failed", ex.getCause());
        }
    }

    public void close()
    {
        executor.shutdownNow();
    }
}
