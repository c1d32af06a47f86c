package io.ringwatch.transport.rdma;

import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RdmaHeartbeats} over {@link DisniVerbs} on this host's RDMA device (the HCA's loopback, or Soft-RoCE):
 * real connections, real RDMA WRITEs into registered slots. Skipped, with the reason, where RDMA is unusable
 * ({@link RdmaHardware}); never simulated. {@code -Dringwatch.rdma.test.port} sets the first rdma_cm port used.
 */
class RdmaHardwareLoopbackTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int SIGNAL_INTERVAL = 8;

    private static RdmaHeartbeats[] nodes(final InetAddress address, final int n)
    {
        final int basePort = Integer.getInteger("ringwatch.rdma.test.port",
            20_000 + (int)(ProcessHandle.current().pid() % 20_000));
        final RdmaEndpoint[] endpoints = new RdmaEndpoint[n];
        for (int r = 0; r < n; r++)
        {
            endpoints[r] = new RdmaEndpoint(address.getHostAddress(), basePort + r);
        }
        final RdmaHeartbeats[] nodes = new RdmaHeartbeats[n];
        for (int r = 0; r < n; r++)
        {
            nodes[r] = new RdmaHeartbeats(new RdmaHeartbeats.Context()
                .rank(r)
                .endpoints(endpoints)
                .authenticator(RdmaHeartbeatsTest.KEYS.newInstance())
                .signalInterval(SIGNAL_INTERVAL)
                .eventPollIntervalNs(TimeUnit.MILLISECONDS.toNanos(1)));
        }
        return nodes;
    }

    private static void closeAll(final RdmaHeartbeats[] nodes)
    {
        for (final RdmaHeartbeats node : nodes)
        {
            if (node != null)
            {
                node.close();
            }
        }
    }

    @Test
    void shouldWriteHeartbeatsIntoTheObserversSlotAndMendOntoAPreConnectedObserver()
    {
        final InetAddress address = RdmaHardware.assumeUsable();
        final RdmaHeartbeats[] nodes = nodes(address, 3);
        try
        {
            awaitUntil(() -> nodes[0].isConnectedTo(1) && nodes[0].isConnectedTo(2) && nodes[1].isConnectedTo(2),
                "pre-connections", nodes);

            final int beats = 10 * SIGNAL_INTERVAL; // completions reaped, send-queue entries reused
            for (int counter = 1; counter <= beats; counter++)
            {
                nodes[0].writeHeartbeat(1, counter);
                nodes[0].poll(System.nanoTime());
            }
            awaitUntil(() -> nodes[1].readHeartbeat(0) == beats, "counter " + beats + " in rank 1's slot", nodes);
            assertEquals(HeartbeatChannel.NO_HEARTBEAT, nodes[1].readHeartbeat(2));
            assertEquals(0, nodes[0].counters().completionErrors(), nodes[0].lastError());
            assertTrue(nodes[0].counters().completionsReaped() > 0, "signalled writes completed");

            // rank 1 goes away; rank 2 becomes rank 0's observer and is already connected
            nodes[1].close();
            final RemoteSlot slot2 = nodes[2].localSlot();
            final long now = System.nanoTime();
            nodes[0].onViewChange(RankArray.of(1), now);
            assertTrue(nodes[0].onNewObserver(2, slot2.rkey(), slot2.address(), slot2.length(), now));
            nodes[0].writeHeartbeat(2, beats + 1);
            awaitUntil(() -> nodes[2].readHeartbeat(0) == beats + 1, "counter in rank 2's slot", nodes);
            assertEquals(1, nodes[0].counters().mendsOntoPreConnected());
            assertEquals(0, nodes[0].counters().mendsAwaitingConnection());
            System.out.printf("rdma_cm connect time avoided by pre-connection: mean %.1f us, max %.1f us over %d%n",
                nodes[0].counters().connectTimeTotalNs() / 1e3 / Math.max(1, nodes[0].counters().connectionsEstablished()),
                nodes[0].counters().connectTimeMaxNs() / 1e3, nodes[0].counters().connectionsEstablished());
        }
        finally
        {
            closeAll(nodes);
        }
    }

    @Test
    void shouldCountTheErrorWhenTheObserverGoesAwayAndNeverThrow()
    {
        final InetAddress address = RdmaHardware.assumeUsable();
        final RdmaHeartbeats[] nodes = nodes(address, 2);
        try
        {
            awaitUntil(() -> nodes[0].isConnectedTo(1), "connection", nodes);
            nodes[1].close();
            final long[] counter = { 0 };
            awaitUntil(() ->
            {
                nodes[0].writeHeartbeat(1, ++counter[0]);
                return nodes[0].counters().completionErrors() + nodes[0].counters().disconnects() + nodes[0].counters().postFailures() > 0;
            }, "the lost observer to be noticed", nodes[0]);
            assertTrue(nodes[0].counters().beatsPosted() + nodes[0].counters().beatsDroppedNotConnected() == counter[0],
                "every beat posted or counted");
        }
        finally
        {
            closeAll(nodes);
        }
    }

    private static void awaitUntil(final BooleanSupplier condition, final String what, final RdmaHeartbeats... nodes)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            final long now = System.nanoTime();
            if (now - deadline >= 0)
            {
                final StringBuilder errors = new StringBuilder();
                for (final RdmaHeartbeats node : nodes)
                {
                    errors.append(" [").append(node.lastError()).append(']');
                }
                throw new AssertionError("timed out waiting for " + what + ";" + errors);
            }
            for (final RdmaHeartbeats node : nodes)
            {
                node.poll(now);
            }
            Thread.onSpinWait();
        }
    }
}
