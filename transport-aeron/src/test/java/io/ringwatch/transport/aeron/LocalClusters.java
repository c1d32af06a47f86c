package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the multi-process tests do with a {@link LocalCluster} whatever the transport (and, but for the start, with
 * any {@link LaunchedCluster}): start it with every node up,
 * and after killing some, check that the survivors agree on exactly the killed set and stay agreed.
 */
final class LocalClusters
{
    private LocalClusters()
    {
    }

    /**
     * Start a cluster and wait up to 90 s for every node; closed again if that fails.
     *
     * @param options the cluster.
     * @return the running cluster, every node up.
     * @throws InterruptedException if interrupted.
     */
    static LocalCluster startAllUp(final LocalCluster.Options options) throws InterruptedException
    {
        final LocalCluster cluster = new LocalCluster(options);
        try
        {
            cluster.start();
            assertTrue(cluster.awaitAllUp(90_000), "nodes up; node 0 log: " + cluster.log(0));
            return cluster;
        }
        catch (final RuntimeException | Error ex)
        {
            cluster.close();
            throw ex;
        }
    }

    /**
     * Assert that within 30 s every survivor holds exactly {@code killed}, still does 2δ later, and still runs.
     *
     * @param cluster the cluster.
     * @param killed  every rank killed so far.
     * @param round   what this round did, for the failure message.
     * @param seed    the test's seed, for the failure message.
     * @throws InterruptedException if interrupted.
     */
    static void awaitExactly(
        final LaunchedCluster cluster, final Set<Integer> killed, final String round, final long seed)
        throws InterruptedException
    {
        final boolean agreed = cluster.awaitViews(killed, 30_000);
        // and stay agreed: a late false suspicion would change some view
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * cluster.options().suspicionTimeoutNs()));
        final boolean stillAgreed = cluster.awaitViews(killed, 1);
        if (!agreed || !stillAgreed)
        {
            fail(round + ": survivors must hold exactly " + killed + " (seed=" + seed + ")" + cluster.describeViews());
        }
        for (int r = 0; r < cluster.size(); r++)
        {
            if (!killed.contains(r))
            {
                assertTrue(cluster.process(r).isAlive(), "survivor " + r + " runs (seed=" + seed + "): " +
                    cluster.log(r));
                assertFalse(cluster.view(r).isDead(r), "seed=" + seed);
            }
        }
    }

    /**
     * @return every node's log, for a failure message.
     */
    static String logs(final LaunchedCluster cluster, final int n)
    {
        final StringBuilder sb = new StringBuilder();
        for (int r = 0; r < n; r++)
        {
            sb.append("\n--- rank ").append(r).append(":\n").append(cluster.log(r));
        }
        return sb.toString();
    }

    /**
     * Wait until {@code rank} is ACTIVE under a new incarnation and every other node's view admits that incarnation.
     *
     * @return the incarnation.
     */
    static long assertAdmittedEverywhere(final LaunchedCluster cluster, final int n, final int rank)
        throws InterruptedException
    {
        // empty dead sets everywhere can come a moment before the joiner has both neighbours' confirmation
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cluster.view(rank).state() != NodeState.ACTIVE && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(10);
        }
        final ViewSnapshot own = cluster.view(rank);
        assertEquals(NodeState.ACTIVE, own.state(), () -> "logs: " + logs(cluster, n));
        final long incarnation = own.incarnation(rank);
        assertTrue(incarnation > 0, () -> "rank " + rank + " view " + own + "; logs: " + logs(cluster, n));
        for (int r = 0; r < n; r++)
        {
            if (r != rank)
            {
                ViewSnapshot view = cluster.view(r);
                while (view.incarnation(rank) != incarnation && System.nanoTime() - deadline < 0)
                {
                    Thread.sleep(10);
                    view = cluster.view(r);
                }
                assertEquals(incarnation, view.incarnation(rank), "rank " + r + "'s view of " + rank + ": " + view);
                // a node that joined after it learned it from its contact's view: alive, without a join record
                assertTrue(view.cause(rank) == ViewLayout.CAUSE_JOINED || view.cause(rank) == ViewLayout.CAUSE_NONE,
                    "rank " + r + " cause " + view.cause(rank));
            }
        }
        return incarnation;
    }
}
