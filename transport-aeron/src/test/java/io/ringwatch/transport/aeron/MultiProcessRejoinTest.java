package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.internal.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real node processes: one is SIGKILLed, one is paused until it is declared dead and fences itself (exit 3); both are
 * relaunched with {@code node --join}, as a supervisor would, and every node readmits them under their new
 * incarnations. Then the rejoined one is killed again: the death of a joined incarnation is detected and spread, and
 * its next life joins under a greater incarnation.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MultiProcessRejoinTest
{
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(400);

    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"IPC", "UDP"})
    void shouldReadmitAKilledAndAFencedNodeAndThenDetectTheRejoinedOneAgain(final TransportMode transport)
        throws Exception
    {
        final int n = 4;
        final int killed = 1;
        final int paused = 3;
        try (LocalCluster cluster = LocalClusters.startAllUp(new LocalCluster.Options()
            .nodes(n).transport(transport).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(30))))
        {
            cluster.kill(killed);
            cluster.signal(paused, "STOP");
            try
            {
                assertTrue(cluster.awaitViews(Set.of(killed, paused), 20_000), "both declared dead");
            }
            finally
            {
                cluster.signal(paused, "CONT");
            }
            assertTrue(cluster.process(paused).waitFor(30, TimeUnit.SECONDS), "fenced: " + cluster.log(paused));
            assertEquals(RingwatchConfiguration.EXIT_FENCED, cluster.process(paused).exitValue());

            cluster.restart(killed);
            cluster.restart(paused);
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "readmitted everywhere; logs: " +
                cluster.log(killed) + "\n" + cluster.log(paused));
            final int first = assertAdmittedEverywhere(cluster, n, killed);
            assertAdmittedEverywhere(cluster, n, paused);

            cluster.kill(killed);
            assertTrue(cluster.awaitViews(Set.of(killed), 20_000), "the joined incarnation's death is detected");
            cluster.restart(killed);
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "readmitted again: " + cluster.log(killed));
            final int second = assertAdmittedEverywhere(cluster, n, killed);
            assertTrue(second > first, "incarnations only grow: " + first + " then " + second);
            for (int r = 0; r < n; r++)
            {
                assertTrue(cluster.process(r).isAlive(), "rank " + r + " runs: " + cluster.log(r));
            }
        }
    }

    private static int assertAdmittedEverywhere(final LocalCluster cluster, final int n, final int rank)
    {
        final ViewSnapshot own = cluster.view(rank);
        assertEquals(NodeState.ACTIVE, own.state());
        final int incarnation = own.incarnation(rank);
        assertTrue(incarnation > 0);
        for (int r = 0; r < n; r++)
        {
            if (r != rank)
            {
                final ViewSnapshot view = cluster.view(r);
                assertEquals(incarnation, view.incarnation(rank), "rank " + r + "'s view of " + rank);
                if (view.cause(rank) != ViewLayout.CAUSE_JOINED)
                {
                    // a node that joined later learned it from its view: alive, incarnation recorded by onJoin or 0
                    assertTrue(view.cause(rank) == ViewLayout.CAUSE_NONE, "rank " + r + " cause " + view.cause(rank));
                }
            }
        }
        return incarnation;
    }
}
