package io.ringwatch.transport.rdma;

import io.ringwatch.core.spi.HeartbeatChannel;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real RDMA WRITEs between two channels on this host, through the HCA's loopback. Skipped, with the probe's
 * reason, where RDMA is unavailable; never simulated. Set {@code ringwatch.rdma.test.address} to pick the
 * interface address when the host has several.
 */
class RdmaLoopbackTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    @Test
    void shouldDeliverHeartbeatsByRdmaWriteAndFollowAnObserverChange() throws Exception
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeTrue(availability.usable(), availability::reason);
        final String configured = System.getProperty("ringwatch.rdma.test.address");
        final InetAddress address = configured != null ?
            InetAddress.getByName(configured) : RdmaDevices.firstIpv4Address(availability.netDevices());
        assumeTrue(address != null, () -> "no IPv4 address on RDMA interfaces " + availability.netDevices() +
            "; set -Dringwatch.rdma.test.address");

        try (RdmaHeartbeatChannel emitter = channel(0, address);
            RdmaHeartbeatChannel observer = channel(1, address);
            RdmaHeartbeatChannel nextObserver = channel(2, address))
        {
            observer.expectInbound(System.nanoTime());
            emitter.connectObserver(1, observer.localEndpoint(), observer.localSlot(), System.nanoTime());
            awaitUntil(() -> emitter.isConnectedTo(1), "connect to observer 1", emitter, observer, nextObserver);

            final int beats = 100; // several signal intervals, so completions are reaped and queue entries reused
            for (int counter = 1; counter <= beats; counter++)
            {
                emitter.writeHeartbeat(1, counter);
                emitter.doWork(System.nanoTime());
            }
            awaitUntil(() -> observer.readHeartbeat(0) == beats, "counter " + beats + " in observer 1's slot",
                emitter, observer, nextObserver);

            assertEquals(HeartbeatChannel.NO_HEARTBEAT, observer.readHeartbeat(5));
            assertEquals(0, observer.slot().writerIncarnation());
            assertEquals(0, emitter.completionErrors(), emitter.lastFailure());
            assertTrue(emitter.completionsReaped() > 0, "signalled writes should have completed");

            // ring mended: the emitter now writes to rank 2
            nextObserver.expectInbound(System.nanoTime());
            emitter.connectObserver(2, nextObserver.localEndpoint(), nextObserver.localSlot(), System.nanoTime());
            awaitUntil(() -> emitter.isConnectedTo(2), "connect to observer 2", emitter, observer, nextObserver);
            emitter.writeHeartbeat(2, beats + 1);
            awaitUntil(() -> nextObserver.readHeartbeat(0) == beats + 1, "counter in observer 2's slot",
                emitter, observer, nextObserver);
            assertEquals(beats, observer.readHeartbeat(0), "old observer keeps its last value");
        }
    }

    private static RdmaHeartbeatChannel channel(final int rank, final InetAddress address)
    {
        return new RdmaHeartbeatChannel(new RdmaHeartbeatChannel.Context()
            .rank(rank)
            .bindAddress(new InetSocketAddress(address, 0))
            .signalInterval(8));
    }

    private static void awaitUntil(
        final BooleanSupplier condition, final String what, final RdmaHeartbeatChannel... channels)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            final long now = System.nanoTime();
            if (now - deadline >= 0)
            {
                final StringBuilder failures = new StringBuilder();
                for (final RdmaHeartbeatChannel channel : channels)
                {
                    failures.append(" [").append(channel.lastFailure()).append(']');
                }
                throw new AssertionError("timed out waiting for " + what + ";" + failures);
            }
            for (final RdmaHeartbeatChannel channel : channels)
            {
                channel.doWork(now);
            }
            Thread.onSpinWait();
        }
    }
}
