package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real node processes sharing a media driver process: two are SIGKILLed and relaunched with {@code node --join}, as a
 * supervisor would, and every node readmits them under their new incarnations. Then one of them is killed again: the
 * death of a joined incarnation is detected and spread, and its next life joins under a greater incarnation.
 * Over UDP each relaunched node finds its control port still held by the shared driver for its killed life and waits
 * until the driver times that client out, as it would when restarted by a supervisor (the launcher does not wait).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MultiProcessRejoinTest
{
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(400);

    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"IPC", "UDP"})
    void shouldReadmitKilledNodesAndThenDetectARejoinedOneAgain(final TransportMode transport) throws Exception
    {
        final int n = 4;
        final int first = 1;
        final int second = 3;
        try (LocalCluster cluster = LocalClusters.startAllUp(new LocalCluster.Options()
            .nodes(n).transport(transport).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(2))))
        {
            cluster.kill(first);
            cluster.kill(second);
            assertTrue(cluster.awaitViews(Set.of(first, second), 20_000), "both declared dead");

            cluster.restart(first);
            cluster.restart(second);
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "readmitted everywhere; logs: " + LocalClusters.logs(cluster, n));
            final long before = LocalClusters.assertAdmittedEverywhere(cluster, n, first);
            LocalClusters.assertAdmittedEverywhere(cluster, n, second);

            cluster.kill(first);
            assertTrue(cluster.awaitViews(Set.of(first), 20_000), "the joined incarnation's death is detected; logs: " +
                LocalClusters.logs(cluster, n));
            cluster.restart(first);
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "readmitted again; logs: " + LocalClusters.logs(cluster, n));
            final long after = LocalClusters.assertAdmittedEverywhere(cluster, n, first);
            assertTrue(after > before, "incarnations only grow: " + before + " then " + after);
            for (int r = 0; r < n; r++)
            {
                assertTrue(cluster.process(r).isAlive(), "rank " + r + " runs; logs: " + LocalClusters.logs(cluster, n));
            }
        }
    }

    /**
     * Every node SIGKILLed and relaunched, as supervisors would after a cut that left no side a majority: nobody is
     * left to admit anyone, so the lowest rank polls the others, every one answers that it is joining, and it re-forms
     * the cluster as its lone seed; the others join it. Without the re-form rule every node stays JOINING for good.
     */
    @Test
    void shouldReformAClusterWhoseEveryNodeWasKilledAndRestarted() throws Exception
    {
        LongCases.onlyWhenAsked("a whole-cluster re-form (simulated in ReformSimulationTest)");
        final int n = 4;
        try (LocalCluster cluster = LocalClusters.startAllUp(new LocalCluster.Options()
            .nodes(n).transport(TransportMode.IPC).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(2))))
        {
            final long[] before = new long[n];
            for (int r = 0; r < n; r++)
            {
                before[r] = cluster.view(r).incarnation(r);
                cluster.kill(r);
            }
            for (int r = 0; r < n; r++)
            {
                cluster.restart(r);
            }
            // relaunch, grace (2 s) and 4δ of asking in vain before the poll: several seconds on a busy host
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            ViewSnapshot leader = null;
            // a view file just created reads ACTIVE at incarnation 0 until the node has started joining
            while ((leader == null || leader.state() != NodeState.ACTIVE || leader.incarnation(0) <= before[0]) &&
                System.nanoTime() - deadline < 0)
            {
                Thread.sleep(20);
                leader = cluster.tryView(0, new ViewSnapshot());
            }
            assertTrue(leader != null && leader.state() == NodeState.ACTIVE && leader.incarnation(0) > before[0],
                () -> "rank 0 re-formed; logs: " + LocalClusters.logs(cluster, n));
            for (int r = 0; r < n; r++)
            {
                final long incarnation = LocalClusters.assertAdmittedEverywhere(cluster, n, r);
                assertTrue(incarnation > before[r], "rank " + r + " came back under a newer incarnation: " +
                    before[r] + " then " + incarnation);
            }
            assertTrue(cluster.awaitViews(Set.of(), 20_000), "nobody held dead; logs: " + LocalClusters.logs(cluster, n));
        }
    }
}
