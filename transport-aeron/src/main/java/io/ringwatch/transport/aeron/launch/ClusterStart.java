package io.ringwatch.transport.aeron.launch;

import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.protocol.ProtocolSettings;

import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The start barrier and shutdown-hook steps every launched cluster shares, whatever the hosts its processes run on.
 */
public final class ClusterStart
{
    /** Heads the report of every node's state and view that a start failure's message ends with. */
    public static final String EVERY_NODE_REPORT = "\nevery node then:";

    private ClusterStart()
    {
    }

    /**
     * Launch every node, wait until each is ready at the start barrier, then release them together by creating the
     * barrier file.
     *
     * @param nodes     the node processes.
     * @param nodeCount how many ranks.
     * @param directory holds the barrier file.
     * @return {@code System.nanoTime()} at the release, where the nodes' startup grace begins.
     * @throws InterruptedException if interrupted; the nodes started so far are destroyed.
     */
    public static long launchAndRelease(final NodeProcesses nodes, final int nodeCount, final ClusterDirectory directory)
        throws InterruptedException
    {
        try
        {
            nodes.launchAll();
            for (int r = 0; r < nodeCount; r++)
            {
                nodes.awaitReady(r);
            }
            Files.writeString(directory.startFile().toPath(), "go");
            return System.nanoTime();
        }
        catch (final IOException ex)
        {
            nodes.destroyAll();
            throw new UncheckedIOException("cannot create the start barrier " + directory.startFile(), ex);
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            nodes.destroyAll();
            throw ex;
        }
    }

    /**
     * The settle period a launcher waits once every node is up when the cluster boots through joins (more ranks than
     * seeds): until the view has been unchanged that long, the majority rule counts only the seeds and the ranks each
     * joiner saw admitted, so killing two seeds at once would stop the third.
     *
     * @param nodes              N.
     * @param suspicionTimeoutNs δ.
     * @return the settle period, 0 if every rank boots as a seed.
     */
    public static long settleAfterJoinsNs(final int nodes, final long suspicionTimeoutNs)
    {
        return nodes > BootSeeds.DEFAULT ?
            ProtocolSettings.defaultSettlePeriodNs(nodes, suspicionTimeoutNs) : 0;
    }

    /**
     * Wait until every node has seen its emitter beat twice and {@code armedAtNs} has passed.
     *
     * @param nodes     the node processes, checked alive on every poll.
     * @param views     their view files.
     * @param nodeCount how many ranks.
     * @param armedAtNs {@code System.nanoTime()} from which a kill is judged at once (release + grace + margin),
     *                  read on every poll as the release may still be under way.
     * @param timeoutMs how long to wait.
     * @return true if all are up in time.
     * @throws IllegalStateException if a node exited.
     * @throws InterruptedException  if interrupted.
     */
    public static boolean awaitAllUp(
        final NodeProcesses nodes,
        final ClusterViews views,
        final int nodeCount,
        final LongSupplier armedAtNs,
        final long timeoutMs) throws InterruptedException
    {
        return awaitAllUp(nodes, views, nodeCount, armedAtNs, 0, timeoutMs);
    }

    /**
     * As {@link #awaitAllUp(NodeProcesses, ClusterViews, int, LongSupplier, long)}, and every node up for
     * {@code settleNs} without a break: the membership the majority rule counts then holds every rank.
     *
     * @param nodes     the node processes, checked alive on every poll.
     * @param views     their view files.
     * @param nodeCount how many ranks.
     * @param armedAtNs {@code System.nanoTime()} from which a kill is judged at once.
     * @param settleNs  how long all must have been up.
     * @param timeoutMs how long to wait.
     * @return true if all are up in time.
     * @throws IllegalStateException if a node exited.
     * @throws InterruptedException  if interrupted.
     */
    public static boolean awaitAllUp(
        final NodeProcesses nodes,
        final ClusterViews views,
        final int nodeCount,
        final LongSupplier armedAtNs,
        final long settleNs,
        final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long allUpSinceNs = 0;
        boolean allUp = false;
        final ViewSnapshot snapshot = new ViewSnapshot();
        while (System.nanoTime() - deadline < 0)
        {
            int up = 0;
            for (int r = 0; r < nodeCount; r++)
            {
                requireAliveDuringStart(nodes, views, nodeCount, r, snapshot);
                if (ClusterViews.isUp(views.tryView(r, snapshot)))
                {
                    up++;
                }
            }
            final long nowNs = System.nanoTime();
            if (up == nodeCount && !allUp)
            {
                allUp = true;
                allUpSinceNs = nowNs;
            }
            allUp &= up == nodeCount;
            if (allUp && nowNs - allUpSinceNs >= settleNs && nowNs - armedAtNs.getAsLong() >= 0)
            {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /**
     * The first step of an idempotent close that is also a shutdown hook: claim the close and unregister the hook.
     *
     * @param closed  set by the first caller.
     * @param cleanup the registered shutdown hook.
     * @return true for the first caller, who then does the closing; false if already closed.
     */
    public static boolean beginClose(final AtomicBoolean closed, final Thread cleanup)
    {
        if (!closed.compareAndSet(false, true))
        {
            return false;
        }
        try
        {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        catch (final IllegalStateException ignore)
        {
            // already shutting down: the hook is running or has run
        }
        return true;
    }

    /**
     * A node that exits during the start fails it; the message then gives every node's process state and view, since
     * the first node to go is seldom the one that explains why (a seed stopping as ISOLATED names nobody).
     */
    private static void requireAliveDuringStart(
        final NodeProcesses nodes,
        final ClusterViews views,
        final int nodeCount,
        final int rank,
        final ViewSnapshot snapshot)
    {
        try
        {
            nodes.requireAlive(rank, "during start");
        }
        catch (final IllegalStateException ex)
        {
            final StringBuilder sb = new StringBuilder(ex.getMessage()).append(EVERY_NODE_REPORT);
            for (int r = 0; r < nodeCount; r++)
            {
                final ViewSnapshot view = views.tryView(r, snapshot);
                sb.append("\n  node ").append(r).append(nodes.isAlive(r) ? " running: " : " exited: ")
                    .append(view == null ? "no view file" : view.toString());
            }
            throw new IllegalStateException(sb.toString(), ex);
        }
    }
}
