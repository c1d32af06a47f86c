package io.ringwatch.transport.aeron.internal.slot;

import io.aeron.logbuffer.FragmentHandler;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heartbeat port's receiving socket is connected to the watched emitter: the kernel hands it that emitter's
 * datagrams only, re-connecting follows the emitter, and reading allocates nothing however many addresses flood it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatagramHeartbeatsTest
{
    private static final int N = 3;
    private static final int CLUSTER_ID = 41;
    private static final int FLOODERS = 64;

    private final DatagramHeartbeats[] nodes = new DatagramHeartbeats[N];
    private final DatagramChannel[] flooders = new DatagramChannel[FLOODERS];
    private ClusterConfig cluster;
    private int[] writerOf;

    @AfterEach
    void close()
    {
        CloseHelper.quietCloseAll(nodes);
        CloseHelper.quietCloseAll(flooders);
    }

    private void start() throws IOException
    {
        cluster = new ClusterConfig(CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(100),
            FreePorts.localhostMembers(N));
        for (int r = 0; r < N; r++)
        {
            nodes[r] = new DatagramHeartbeats(cluster, r, 1, 0, new FrameStamper(N, FrameAuthenticator.NONE),
                1 << 20);
        }
        for (int i = 0; i < FLOODERS; i++)
        {
            flooders[i] = DatagramChannel.open();
            flooders[i].bind(new InetSocketAddress("127.0.0.1", 0));
        }
    }

    @Test
    void shouldHandOverOnlyTheWatchedEmittersDatagramsAndFollowItWhenItChanges() throws Exception
    {
        start();
        final AtomicInteger emitter = new AtomicInteger(0);
        nodes[1].watch(emitter::get);
        final int[] counts = new int[N + 1];
        final FragmentHandler bySender = (buffer, offset, length, header) ->
        {
            final int sender = length >= FrameHeaderFlyweight.HEADER_LENGTH ?
                new FrameHeaderFlyweight().wrap(new UnsafeBuffer(buffer, offset, length), 0).senderRank() : -1;
            counts[sender >= 0 && sender < N && length > 16 ? sender : N]++;
        };

        for (int round = 0; round < 20; round++)
        {
            assertTrue(nodes[0].send(1, round + 1, System.nanoTime()));
            assertTrue(nodes[2].send(1, round + 1, System.nanoTime()));
            floodOnce(1);
        }
        drain(nodes[1], bySender, 20, counts, 0);
        assertEquals(20, counts[0], "every heartbeat of the watched emitter");
        assertEquals(0, counts[2], "none of another rank's");
        assertEquals(0, counts[N], "none of the foreign datagrams");
        assertEquals(0, nodes[1].connectedEmitter());

        // the ring mends: rank 2 becomes the emitter
        emitter.set(2);
        nodes[1].poll(bySender, 1);
        assertEquals(2, nodes[1].connectedEmitter());
        counts[0] = 0;
        counts[2] = 0;
        for (int round = 0; round < 20; round++)
        {
            assertTrue(nodes[0].send(1, 100 + round, System.nanoTime()));
            assertTrue(nodes[2].send(1, 100 + round, System.nanoTime()));
            floodOnce(1);
        }
        drain(nodes[1], bySender, 20, counts, 2);
        assertEquals(20, counts[2], "every heartbeat of the new emitter");
        assertEquals(0, counts[0], "none of the old one's");
        assertEquals(0, counts[N], "still none of the foreign datagrams");
        assertEquals(1, nodes[1].emitterChanges());
    }

    /**
     * With two nodes the emitter is also the observer: once it dies, this node's heartbeats to it draw ICMP port
     * unreachable, which Linux reports on the socket connected to that address. Polling reads past the error, and
     * heartbeats from the emitter's next life at the same address arrive again.
     */
    @Test
    void shouldReadPastPortUnreachableWhenTheEmitterDiesAndHearItsNextLife() throws Exception
    {
        final ClusterConfig pair = new ClusterConfig(CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10),
            TimeUnit.MILLISECONDS.toNanos(100), FreePorts.localhostMembers(2));
        nodes[0] = new DatagramHeartbeats(pair, 0, 1, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16);
        nodes[1] = new DatagramHeartbeats(pair, 1, 1, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16);
        nodes[1].watch(() -> 0);
        final int[] read = new int[1];
        final FragmentHandler count = (buffer, offset, length, header) -> read[0]++;
        assertTrue(nodes[0].send(1, 1, System.nanoTime()));
        awaitRead(nodes[1], count, read, 1);

        nodes[0].close();
        for (int i = 0; i < 20; i++)
        {
            nodes[1].send(0, i + 1, System.nanoTime());
            nodes[1].poll(count, 16);
            Thread.sleep(1);
        }
        assertTrue(nodes[1].peerErrors() > 0, "ICMP port unreachable was reported on the connected socket");

        nodes[0] = new DatagramHeartbeats(pair, 0, 2, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16);
        final int before = read[0];
        assertTrue(nodes[0].send(1, 1, System.nanoTime()));
        awaitRead(nodes[1], count, read, before + 1);
    }

    private static void awaitRead(
        final DatagramHeartbeats node, final FragmentHandler handler, final int[] read, final int atLeast)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (read[0] < atLeast)
        {
            assertTrue(System.nanoTime() - deadline < 0, "read " + read[0] + " of " + atLeast);
            node.poll(handler, 16);
            Thread.sleep(1);
        }
    }

    /**
     * A datagram from the emitter's own address (spoofed, or a compromised emitter) longer than a heartbeat is read
     * truncated to one byte past a heartbeat, so it costs a 65-byte copy and the decoder refuses it by its length,
     * before any MAC; the heartbeat after it is read whole.
     */
    @Test
    void shouldReadAnOversizedDatagramFromTheEmitterTruncatedSoItIsRefusedByLength() throws Exception
    {
        start();
        nodes[1].watch(() -> 0);
        final java.util.List<Integer> lengths = new java.util.ArrayList<>();
        final java.util.List<RejectReason> verdicts = new java.util.ArrayList<>();
        final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, N, 1, 0,
            FrameAuthenticator.withKey(new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}), null);
        final FragmentHandler record = (buffer, offset, length, header) ->
        {
            lengths.add(length);
            verdicts.add(decoder.decodeHeartbeat(buffer, offset, length));
        };
        final InetSocketAddress emitter = new InetSocketAddress("127.0.0.1", cluster.member(0).heartbeatPort());
        try (DatagramChannel spoof = DatagramChannel.open())
        {
            spoof.setOption(java.net.StandardSocketOptions.SO_REUSEPORT, true);
            spoof.bind(emitter);
            // a heartbeat's header and counter, then 12 KB more: only its length is wrong
            final ByteBuffer large = ByteBuffer.allocateDirect(12_360);
            new HeartbeatFlyweight().encode(new UnsafeBuffer(large), 0, CLUSTER_ID, 0, 1, 1, 0, 1, 1);
            spoof.send(large, new InetSocketAddress("127.0.0.1", cluster.member(1).heartbeatPort()));
        }
        assertTrue(nodes[0].send(1, 1, System.nanoTime()));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lengths.size() < 2 && System.nanoTime() - deadline < 0)
        {
            nodes[1].poll(record, 16);
            Thread.sleep(1);
        }
        assertEquals(java.util.List.of(DatagramHeartbeats.RECEIVE_BUFFER_LENGTH, HeartbeatFlyweight.LENGTH), lengths);
        assertEquals(RejectReason.WRONG_LENGTH, verdicts.get(0));
        assertEquals(RejectReason.UNSIGNED, verdicts.get(1), "the real heartbeat reached the MAC check");
    }

    @Test
    void shouldRefuseAHeartbeatPortAnotherSocketHolds() throws Exception
    {
        final ClusterConfig config = new ClusterConfig(CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10),
            TimeUnit.MILLISECONDS.toNanos(100), FreePorts.localhostMembers(2));
        try (DatagramChannel squatter = DatagramChannel.open())
        {
            squatter.bind(new InetSocketAddress("127.0.0.1", config.member(0).heartbeatPort()));
            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> new DatagramHeartbeats(
                config, 0, 1, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16));
            assertTrue(ex.getMessage().contains("cannot bind the heartbeat port"), ex.getMessage());
        }
        // and a second node on the same port, though ours set SO_REUSEPORT
        nodes[0] = new DatagramHeartbeats(config, 0, 1, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16);
        assertThrows(IllegalStateException.class, () -> new DatagramHeartbeats(
            config, 0, 1, 0, new FrameStamper(2, FrameAuthenticator.NONE), 1 << 16));
    }

    /**
     * Polling while 64 addresses flood the port allocates nothing; the negative control reads the same flood with an
     * unconnected channel's {@code receive}, as the heartbeat socket did before, and must see allocation, or this
     * test could not tell.
     */
    @Test
    void shouldNotAllocateWhilePollingUnderAFloodFromManyAddresses() throws Exception
    {
        start();
        nodes[1].watch(() -> 0);
        final FragmentHandler ignore = (buffer, offset, length, header) -> { };
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicLong foreign = new AtomicLong();
        final Thread flooder = new Thread(() ->
        {
            try
            {
                while (flooding.get())
                {
                    floodOnce(1);
                    foreign.addAndGet(FLOODERS);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }, "flooder");
        flooder.start();
        try
        {
            for (int warm = 0; warm < 500; warm++)
            {
                nodes[0].send(1, warm + 1, System.nanoTime());
                nodes[1].poll(ignore, 16);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            // first-use paths (JIT, class init) may allocate once; pass on three consecutive windows of 500 polls
            // without a byte, as the agent's allocation test does
            int read = 0;
            final long foreignBefore = foreign.get();
            final StringBuilder windows = new StringBuilder();
            int zeroRun = 0;
            for (int w = 0; w < 10 && zeroRun < 3; w++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 500; i++)
                {
                    nodes[0].send(1, 10_000 + 500L * w + i, System.nanoTime());
                    read += nodes[1].poll(ignore, 16);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                windows.append(' ').append(allocated);
                zeroRun = allocated == 0 ? zeroRun + 1 : 0;
            }
            assertTrue(read > 0, "the emitter's heartbeats were read");
            assertTrue(foreign.get() - foreignBefore > 10_000, "the flood ran: " + (foreign.get() - foreignBefore));
            assertEquals(3, zeroRun, "bytes allocated per window of 500 sends and polls (" + read + " heartbeats " +
                "read) while " + (foreign.get() - foreignBefore) + " datagrams came from " + FLOODERS +
                " other addresses:" + windows);
        }
        finally
        {
            flooding.set(false);
            flooder.join();
        }

        // negative control: an unconnected channel receiving from many addresses allocates
        try (DatagramChannel plain = DatagramChannel.open())
        {
            plain.bind(new InetSocketAddress("127.0.0.1", 0));
            final InetSocketAddress target = (InetSocketAddress)plain.getLocalAddress();
            plain.configureBlocking(false);
            final ByteBuffer into = ByteBuffer.allocateDirect(2048);
            final ByteBuffer junk = ByteBuffer.allocateDirect(64);
            for (int i = 0; i < FLOODERS; i++)
            {
                junk.clear();
                flooders[i].send(junk, target);
            }
            while (plain.receive(into.clear()) != null)
            {
                // warm up
            }
            final long controlBefore = threads.getCurrentThreadAllocatedBytes();
            for (int round = 0; round < 10; round++)
            {
                for (int i = 0; i < FLOODERS; i++)
                {
                    junk.clear();
                    flooders[i].send(junk, target);
                }
                while (plain.receive(into.clear()) != null)
                {
                    // each datagram from a different sender than the one before
                }
            }
            assertTrue(threads.getCurrentThreadAllocatedBytes() - controlBefore > 0,
                "an unconnected receive from many addresses allocates (negative control)");
        }
    }

    private final ByteBuffer junk = ByteBuffer.allocateDirect(64);
    private InetSocketAddress[] targets;

    /** One datagram from each of the 64 addresses; its sender rank field is out of range. */
    private void floodOnce(final int rank) throws IOException
    {
        if (targets == null)
        {
            targets = new InetSocketAddress[N];
            for (int r = 0; r < N; r++)
            {
                targets[r] = new InetSocketAddress("127.0.0.1", cluster.member(r).heartbeatPort());
            }
        }
        for (int i = 0; i < FLOODERS; i++)
        {
            junk.clear();
            for (int b = 0; b < junk.capacity(); b++)
            {
                junk.put(b, (byte)0x7F);
            }
            flooders[i].send(junk, targets[rank]);
        }
    }

    private static void drain(
        final DatagramHeartbeats node, final FragmentHandler handler, final int expected, final int[] counts,
        final int from) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (counts[from] < expected && System.nanoTime() - deadline < 0)
        {
            if (node.poll(handler, 16) == 0)
            {
                Thread.sleep(1);
            }
        }
        Thread.sleep(50);
        node.poll(handler, 1024);
    }
}
