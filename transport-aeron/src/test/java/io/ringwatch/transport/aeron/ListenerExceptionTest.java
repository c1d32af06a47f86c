package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import org.agrona.CloseHelper;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application listener that throws from every callback must not stop the protocol: the failure notice is still
 * forwarded through every node (8 nodes: the double hypercube needs the forwarding), each exception is counted in
 * the node's {@link NodeCounter#LISTENER_EXCEPTIONS} counter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ListenerExceptionTest
{
    private static final int N = 8;
    private static final int CLUSTER_ID = 31;
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private EmbeddedCluster cluster;
    private Aeron aeron;

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(aeron);
        CloseHelper.quietClose(cluster);
    }

    @Test
    void shouldForwardTheNoticeAndCountTheExceptionWhenTheApplicationListenerThrows()
    {
        final AtomicLong thrown = new AtomicLong();
        final MembershipListener throwing = new MembershipListener()
        {
            public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
            {
                thrown.incrementAndGet();
                throw new IllegalStateException("application bug in onFailure");
            }

            public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
            {
                thrown.incrementAndGet();
                throw new IllegalStateException("application bug in onExcluded");
            }

            public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
            {
                thrown.incrementAndGet();
                throw new IllegalStateException("application bug in onViewChange");
            }
        };
        cluster = new EmbeddedCluster(N, CLUSTER_ID, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.IPC,
            ctx -> ctx.threadingMode(ThreadingMode.UNSTARTED).listener(throwing));

        final int dead = 3;
        final int[] survivors = {0, 1, 2, 4, 5, 6, 7};
        cluster.run(300, 0, 1, 2, 3, 4, 5, 6, 7);
        cluster.run(1500, survivors);

        assertTrue(thrown.get() >= 2L * survivors.length, "every survivor's listener threw: " + thrown.get());
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
        long counted = 0;
        for (final int r : survivors)
        {
            assertFalse(NodeInternals.agent(cluster.nodes[r]).node().isAlive(dead), "rank " + r + " learned of the failure");
            assertEquals(1, NodeInternals.agent(cluster.nodes[r]).node().deadSet().size(), "and of nothing else, rank " + r);
            final long exceptions = counter(aeron.countersReader(), r);
            assertTrue(exceptions >= 2, "rank " + r + " counted its listener's exceptions: " + exceptions);
            counted += exceptions;
        }
        assertEquals(thrown.get(), counted, "every exception counted once");
    }

    private static long counter(final CountersReader reader, final int rank)
    {
        final long[] value = {Long.MIN_VALUE};
        reader.forEach((counterId, typeId, key, label) ->
        {
            if (typeId == NodeCounter.LISTENER_EXCEPTIONS.typeId() && key.getInt(0, LITTLE_ENDIAN) == CLUSTER_ID &&
                key.getInt(4, LITTLE_ENDIAN) == rank)
            {
                value[0] = reader.getCounterValue(counterId);
            }
        });
        assertTrue(value[0] != Long.MIN_VALUE, "no listener exceptions counter for rank " + rank);
        return value[0];
    }
}
