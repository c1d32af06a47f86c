package io.ringwatch.transport.aeron.launch;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.CloseHelper;

import java.io.File;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * The view files of a cluster's nodes, read from outside them: one reader per rank, mapped once the node has created
 * its file, and still readable after the node died.
 */
public final class ClusterViews implements AutoCloseable
{
    private final IntFunction<File> aeronDirOf;
    private final int clusterId;
    private final ViewReader[] readers;

    /**
     * @param aeronDirOf the Aeron directory each rank writes its view file into (one per host across hosts).
     * @param clusterId  the cluster id in the cluster file.
     * @param nodes      cluster size.
     */
    public ClusterViews(final IntFunction<File> aeronDirOf, final int clusterId, final int nodes)
    {
        this.aeronDirOf = aeronDirOf;
        this.clusterId = clusterId;
        this.readers = new ViewReader[nodes];
    }

    /**
     * @param view a node's view, or null if it has none yet.
     * @return true if the node is active and has seen its emitter's heartbeat progress at least twice.
     */
    public static boolean isUp(final ViewSnapshot view)
    {
        return view != null && view.state() == NodeState.ACTIVE && view.heartbeatProgress() >= 2;
    }

    /**
     * @param rank node.
     * @param into snapshot to fill.
     * @return {@code into} filled from the node's view file, or null while the node has not created it yet.
     */
    public ViewSnapshot tryView(final int rank, final ViewSnapshot into)
    {
        if (readers[rank] == null)
        {
            try
            {
                readers[rank] = new ViewReader(
                    ViewLayout.fileFor(aeronDirOf.apply(rank).getAbsolutePath(), clusterId, rank));
            }
            catch (final IllegalStateException ex)
            {
                return null;
            }
        }
        return readers[rank].read(into);
    }

    /**
     * Before a rank is relaunched: unmap its old view file and delete it, so the next read maps the new process's
     * file and never the old one.
     *
     * @param rank node.
     */
    public void forget(final int rank)
    {
        CloseHelper.quietClose(readers[rank]);
        readers[rank] = null;
        final File file = ViewLayout.fileFor(aeronDirOf.apply(rank).getAbsolutePath(), clusterId, rank);
        if (file.exists() && !file.delete())
        {
            throw new IllegalStateException("cannot delete the old view file " + file);
        }
    }

    /**
     * @param rank node.
     * @return a fresh consistent snapshot of its view file.
     * @throws IllegalStateException if the node has not created its view file.
     */
    public ViewSnapshot view(final int rank)
    {
        final ViewSnapshot v = tryView(rank, new ViewSnapshot());
        if (v == null)
        {
            throw new IllegalStateException("no view file for rank " + rank);
        }
        return v;
    }

    /**
     * @param expectedDead the dead set every judged node must hold.
     * @param judged       which ranks to judge (e.g. those whose process still runs); ranks in
     *                     {@code expectedDead} are never judged.
     * @param scratch      snapshot to read into.
     * @return true if every judged node's view holds exactly {@code expectedDead}; a joining node's view is no view
     * of the cluster yet (it holds nobody dead until it is admitted), so it never agrees.
     */
    public boolean allHoldExactly(final Set<Integer> expectedDead, final IntPredicate judged, final ViewSnapshot scratch)
    {
        for (int r = 0; r < readers.length; r++)
        {
            if (expectedDead.contains(r) || !judged.test(r))
            {
                continue;
            }
            final ViewSnapshot v = tryView(r, scratch);
            if (v == null || v.state() == NodeState.JOINING || v.deadCount() != expectedDead.size() ||
                !expectedDead.stream().allMatch(v::isDead))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Poll every 5 ms until {@link #allHoldExactly} holds.
     *
     * @param expectedDead the dead set every judged node must hold.
     * @param judged       which ranks to judge.
     * @param timeoutMs    how long to wait.
     * @return true if all agree in time.
     * @throws InterruptedException if interrupted.
     */
    public boolean awaitExactly(final Set<Integer> expectedDead, final IntPredicate judged, final long timeoutMs)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final ViewSnapshot scratch = new ViewSnapshot();
        while (!allHoldExactly(expectedDead, judged, scratch))
        {
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /**
     * Unmap every view file.
     */
    public void close()
    {
        CloseHelper.closeAll(readers);
    }
}
