package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CompositeAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The duty cycle of UDP nodes allocates nothing while 64 addresses flood every node's heartbeat port with datagrams
 * (random bytes, some shaped like heartbeats): before the heartbeat socket was connected to the emitter, each
 * datagram from a sender other than the previous one cost an {@code InetSocketAddress} in the agent.
 * Reproduce with {@code -Dringwatch.flood.seed=<seed>} (printed on failure).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HeartbeatFloodAllocationTest
{
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int FLOODERS = 64;

    private EmbeddedCluster cluster;
    private final DatagramChannel[] flooders = new DatagramChannel[FLOODERS];

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(flooders);
        CloseHelper.quietClose(cluster);
    }

    @Test
    void shouldNotAllocateInTheDutyCycleWhileManyAddressesFloodTheHeartbeatPorts() throws Exception
    {
        final long seed = Long.getLong("ringwatch.flood.seed", System.nanoTime());
        cluster = new EmbeddedCluster(3, 18, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.UDP);
        final InetSocketAddress[] ports = new InetSocketAddress[3];
        for (int r = 0; r < ports.length; r++)
        {
            ports[r] = new InetSocketAddress(cluster.cluster.member(r).host(), cluster.cluster.member(r).heartbeatPort());
        }
        for (int i = 0; i < FLOODERS; i++)
        {
            flooders[i] = DatagramChannel.open();
            flooders[i].bind(new InetSocketAddress(ports[0].getAddress(), 0));
        }
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicLong sent = new AtomicLong();
        final Thread flooder = new Thread(() -> flood(seed, ports, flooding, sent), "flooder");

        final AgentInvoker invoker = new AgentInvoker(Throwable::printStackTrace, null, new CompositeAgent(
            NodeInternals.agent(cluster.nodes[0]), NodeInternals.agent(cluster.nodes[1]), NodeInternals.agent(cluster.nodes[2])));
        invoker.start();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        flooder.start();
        try
        {
            // warm up under the flood, then pass on three consecutive 1 s windows without a byte allocated
            invokeFor(invoker, 3000);
            final long progressBefore = NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
            final long sentBefore = sent.get();
            final StringBuilder windows = new StringBuilder();
            int zeroRun = 0;
            for (int i = 0; i < 8 && zeroRun < 3; i++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                invokeFor(invoker, 1000);
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                windows.append(' ').append(allocated);
                zeroRun = allocated == 0 ? zeroRun + 1 : 0;
            }
            final long flooded = sent.get() - sentBefore;
            final String context = flooded + " datagrams from " + FLOODERS + " addresses (seed=" + seed + ")";
            assertTrue(flooded > 10_000, "the flood ran: " + context);
            assertTrue(NodeInternals.agent(cluster.nodes[0]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > progressBefore,
                "heartbeats kept arriving: " + context);
            for (int r = 0; r < 3; r++)
            {
                assertEquals(0, NodeInternals.agent(cluster.nodes[r]).node().deadSet().size(), "rank " + r + ": " + context);
            }
            assertEquals(3, zeroRun, "bytes allocated per 1 s window of 3 UDP nodes' duty cycles under " + context +
                ":" + windows);
        }
        finally
        {
            flooding.set(false);
            flooder.join();
            invoker.close();
        }
    }

    private void flood(
        final long seed, final InetSocketAddress[] ports, final AtomicBoolean flooding, final AtomicLong sent)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ByteBuffer datagram = ByteBuffer.allocateDirect(1500);
        try
        {
            while (flooding.get())
            {
                for (int i = 0; i < FLOODERS; i++)
                {
                    final int length = 1 + random.nextInt(1400);
                    datagram.clear();
                    for (int b = 0; b < length; b++)
                    {
                        datagram.put(b, (byte)random.nextInt(256));
                    }
                    datagram.limit(length);
                    flooders[i].send(datagram, ports[i % ports.length]);
                }
                sent.addAndGet(FLOODERS);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("flood failed (seed=" + seed + ")", ex);
        }
    }

    private static void invokeFor(final AgentInvoker invoker, final long millis)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            invoker.invoke();
        }
    }
}
