package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the multi-process tests do with a {@link LocalCluster} whatever the transport: start it with every node up,
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
        final LocalCluster cluster, final Set<Integer> killed, final String round, final long seed)
        throws InterruptedException
    {
        final boolean agreed = cluster.awaitViews(killed, 30_000);
        // and stay agreed: a late false suspicion would change some view
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * cluster.options().suspicionTimeoutNs()));
        final boolean stillAgreed = cluster.awaitViews(killed, 1);
        if (!agreed || !stillAgreed)
        {
            final StringBuilder views = new StringBuilder();
            for (int r = 0; r < cluster.options().nodes(); r++)
            {
                final ViewSnapshot v = cluster.view(r);
                views.append("\n  ").append(v).append(cluster.process(r).isAlive() ? "" : " (process exited)");
            }
            fail(round + ": survivors must hold exactly " + killed + " (seed=" + seed + ")" + views);
        }
        for (int r = 0; r < cluster.options().nodes(); r++)
        {
            if (!killed.contains(r))
            {
                assertTrue(cluster.process(r).isAlive(), "survivor " + r + " runs (seed=" + seed + "): " +
                    cluster.log(r));
                assertFalse(cluster.view(r).isDead(r), "seed=" + seed);
            }
        }
    }
}
