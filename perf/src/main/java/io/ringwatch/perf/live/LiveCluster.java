package io.ringwatch.perf.live;

import io.ringwatch.transport.aeron.view.ViewSnapshot;

/**
 * What a {@link ClusterSession} needs of a running cluster: crash a node, make one leave, read views, learn who
 * stopped by itself. Two kinds: node processes ({@link ProcessCluster}) and nodes sharing one spinning thread in this
 * JVM ({@link SharedThreadCluster}).
 */
public interface LiveCluster extends AutoCloseable
{
    /**
     * Start every node and release them together.
     *
     * @throws InterruptedException  if interrupted.
     * @throws IllegalStateException if a node fails to start; the message says which and why.
     */
    void start() throws InterruptedException;

    /**
     * @param timeoutMs how long to wait.
     * @return true once every node sees heartbeats and the startup grace is over.
     * @throws IllegalStateException if a node stopped while starting.
     */
    boolean awaitAllUp(long timeoutMs) throws InterruptedException;

    /**
     * @param rank node to crash: no LEAVE, its heartbeats just stop.
     * @return {@code System.nanoTime()} just before the crash.
     */
    long kill(int rank);

    /**
     * @param rank node to take out gracefully (LEAVE).
     * @return {@code System.nanoTime()} just before the request.
     */
    long terminate(int rank);

    /**
     * @param rank node.
     * @return a fresh consistent snapshot of its view file, also after it stopped.
     */
    ViewSnapshot view(int rank);

    /**
     * @param rank node.
     * @return null while it runs, else how it stopped (for nodes stopped by {@link #kill} or {@link #terminate},
     * whatever the crash looked like).
     */
    String stopped(int rank);

    /**
     * @return how the nodes are hosted, for the notes (e.g. where the shared thread is pinned); null if nothing to say.
     */
    default String hosting()
    {
        return null;
    }

    /**
     * Stop everything and remove every file.
     */
    void close();
}
