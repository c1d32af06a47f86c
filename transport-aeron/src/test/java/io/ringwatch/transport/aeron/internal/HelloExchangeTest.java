package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.codec.HelloFlyweight;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.BootHearing;
import io.ringwatch.core.protocol.BootPlan;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whom a node says hello to (the seeds and its ring predecessor, never itself), and what the answers to an asking
 * hello tell it, over an in-memory wire (the real wires run in {@code WrongKeyTest} and {@code OperatorRestartTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HelloExchangeTest
{
    private static final int N = 3;
    private static final long KEY = 0x1234_5678_9ABC_DEF0L;
    private static final long OTHER_KEY = 0x0FED_CBA9_8765_4321L;
    private static final long WINDOW_NS = TimeUnit.SECONDS.toNanos(3);

    private final List<Queue<byte[]>> inboxes = new ArrayList<>();
    private final List<HelloExchange> exchanges = new ArrayList<>();

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(exchanges);
    }

    @Test
    void shouldSayHelloToTheSeedsAndThePredecessor()
    {
        assertArrayEquals(new int[]{1, 2}, HelloExchange.targets(0, 3, 3));
        assertArrayEquals(new int[]{0, 2}, HelloExchange.targets(1, 3, 3));
        assertArrayEquals(new int[]{1}, HelloExchange.targets(0, 2, 2));
        assertArrayEquals(new int[]{1, 2, 9}, HelloExchange.targets(0, 10, 3));
        assertArrayEquals(new int[]{0, 1, 2, 4}, HelloExchange.targets(5, 10, 3));
        assertArrayEquals(new int[]{0, 1, 2}, HelloExchange.targets(3, 10, 3), "rank 3's predecessor is a seed");
    }

    @Test
    void shouldJoinWhenAPeerAnswersAsAMemberPastItsGrace()
    {
        final HelloExchange[] nodes = cluster(false, KEY, KEY, KEY);
        nodes[0].member(true);
        nodes[0].start();
        nodes[2].start();

        assertEquals(BootPlan.JOIN, nodes[1].listen(BootPlan.MEMBER, WINDOW_NS, () -> {}));
        assertEquals(0, nodes[1].establishedBy());
    }

    @Test
    void shouldBootAsPlannedOnceEveryPeerAnsweredFromWithinItsGrace()
    {
        final HelloExchange[] nodes = cluster(false, KEY, KEY, KEY);
        nodes[0].start();
        nodes[2].start();

        final long startNs = System.nanoTime();
        assertEquals(BootPlan.MEMBER, nodes[1].listen(BootPlan.MEMBER, WINDOW_NS, () -> {}));
        assertTrue(System.nanoTime() - startNs < WINDOW_NS, "decided before the window was over");
        assertEquals(-1, nodes[1].establishedBy());
    }

    @Test
    void shouldBootAsPlannedWhenNobodyAnswersWithinTheWindow()
    {
        final HelloExchange[] nodes = cluster(false, KEY, KEY, KEY);
        final long windowNs = BootHearing.listenNs(TimeUnit.MILLISECONDS.toNanos(600));

        final long startNs = System.nanoTime();
        assertEquals(BootPlan.SEED, nodes[1].listen(BootPlan.SEED, windowNs, () -> {}));
        assertTrue(System.nanoTime() - startNs >= windowNs);
    }

    @Test
    void shouldFindTheNodeWithAnotherKeyTheOddOneOutOverIpcAndNoOtherNode() throws InterruptedException
    {
        final HelloExchange[] nodes = cluster(true, KEY, KEY, OTHER_KEY);
        for (final HelloExchange node : nodes)
        {
            node.start();
        }
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (nodes[2].keyMismatch() == null || nodes[0].keyMismatch() == null || nodes[1].keyMismatch() == null)
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "every node heard of the other key");
            Thread.sleep(10);
        }
        // answers may still be on their way: one more round of hellos
        Thread.sleep(1_500);
        assertNull(nodes[2].oddOneOut(), "not before the grace is over");
        for (final HelloExchange node : nodes)
        {
            node.graceOver();
        }

        assertNotNull(nodes[2].oddOneOut());
        assertTrue(nodes[2].oddOneOut().contains("signs with key fingerprint"), nodes[2].oddOneOut());
        assertNull(nodes[0].oddOneOut(), "rank 1 agrees with rank 0");
        assertNull(nodes[1].oddOneOut(), "rank 0 agrees with rank 1");
    }

    private HelloExchange[] cluster(final boolean ipc, final long... keys)
    {
        for (int r = 0; r < N; r++)
        {
            inboxes.add(new ConcurrentLinkedQueue<>());
        }
        final HelloExchange[] nodes = new HelloExchange[N];
        for (int r = 0; r < N; r++)
        {
            nodes[r] = new HelloExchange(new HelloExchange.Settings(7, r, N, TimeUnit.MILLISECONDS.toNanos(25),
                TimeUnit.MILLISECONDS.toNanos(250), N, 0, BroadcastKind.BINOMIAL_GRAPH, PartitionPolicy.MAJORITY),
                new long[]{keys[r]}, new MemoryWire(r), ipc, null);
            exchanges.add(nodes[r]);
        }
        return nodes;
    }

    /**
     * Hellos between exchanges of this test: a queue per rank.
     */
    private final class MemoryWire implements HelloWire
    {
        private final int rank;
        private final UnsafeBuffer received = new UnsafeBuffer(new byte[HelloFlyweight.LENGTH]);

        MemoryWire(final int rank)
        {
            this.rank = rank;
        }

        public void send(final int to, final UnsafeBuffer hello)
        {
            final byte[] copy = new byte[HelloFlyweight.LENGTH];
            hello.getBytes(0, copy);
            inboxes.get(to).add(copy);
        }

        public void receive(final Sink sink, final int limit)
        {
            for (int i = 0; i < limit; i++)
            {
                final byte[] hello = inboxes.get(rank).poll();
                if (hello == null)
                {
                    return;
                }
                received.putBytes(0, hello);
                sink.onHello(received, 0);
            }
        }

        public String describe(final int peer)
        {
            return "in memory";
        }

        public void close()
        {
        }
    }
}
