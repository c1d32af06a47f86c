package io.ringwatch.transport.aeron.internal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryQueueTest
{
    private static final int MAX_FRAME = 32;
    private static final int CLUSTER = 8;

    private final UnsafeBuffer source = new UnsafeBuffer(new byte[MAX_FRAME + 8]);

    @Test
    void shouldRefuseFramesOnceFullAndTakeThemAgainAfterPop()
    {
        final RetryQueue queue = new RetryQueue(3, MAX_FRAME, CLUSTER);

        assertTrue(offer(queue, 1, 4, 10));
        assertTrue(offer(queue, 2, 4, 11));
        assertTrue(offer(queue, 3, 4, 12));
        assertFalse(offer(queue, 4, 4, 13), "a full queue refuses");
        assertEquals(3, queue.size());
        assertFalse(queue.hasQueuedFor(4), "a refused frame is not counted for its destination");

        queue.pop();
        assertTrue(offer(queue, 4, 4, 14), "the popped slot is free again");
        assertEquals(3, queue.size());
        assertEquals(2, queue.headDestination());
    }

    @Test
    void shouldRefuseFrameLongerThanASlotButTakeOneThatFillsItExactly()
    {
        final RetryQueue queue = new RetryQueue(4, MAX_FRAME, CLUSTER);

        assertFalse(offer(queue, 1, MAX_FRAME + 1, 0));
        assertEquals(0, queue.size());
        assertFalse(queue.hasQueuedFor(1));

        assertTrue(offer(queue, 1, MAX_FRAME, 0));
        assertHead(queue, 1, MAX_FRAME, 0, "");
    }

    @Test
    void shouldKeepOrderPerDestinationAndCountWhatWaitsForEach()
    {
        final RetryQueue queue = new RetryQueue(8, MAX_FRAME, CLUSTER);
        offer(queue, 5, 7, 100);
        offer(queue, 6, 9, 101);
        offer(queue, 5, 11, 102);

        assertTrue(queue.hasQueuedFor(5));
        assertTrue(queue.hasQueuedFor(6));
        assertFalse(queue.hasQueuedFor(7));

        assertHead(queue, 5, 7, 100, "");
        queue.pop();
        assertTrue(queue.hasQueuedFor(5), "the second frame to 5 still waits");
        assertHead(queue, 6, 9, 101, "");
        queue.pop();
        assertFalse(queue.hasQueuedFor(6));
        assertHead(queue, 5, 11, 102, "");
        queue.pop();
        assertFalse(queue.hasQueuedFor(5));
        assertEquals(0, queue.size());
    }

    @Test
    void shouldRotateHeadToTailKeepingItsBytesDestinationAndAge()
    {
        final RetryQueue queue = new RetryQueue(4, MAX_FRAME, CLUSTER);
        offer(queue, 1, 5, 10);
        offer(queue, 2, 6, 20);

        queue.rotate();
        assertHead(queue, 2, 6, 20, "");
        assertTrue(queue.hasQueuedFor(1), "rotating moves a frame, it does not drop it");
        assertEquals(2, queue.size());

        queue.pop();
        assertHead(queue, 1, 5, 10, "");
        assertEquals(1, queue.size());
    }

    @Test
    void shouldLeaveASingleFrameInPlaceOnRotate()
    {
        final RetryQueue queue = new RetryQueue(4, MAX_FRAME, CLUSTER);
        offer(queue, 3, 8, 42);
        final int offset = queue.headOffset();

        queue.rotate();

        assertEquals(offset, queue.headOffset());
        assertHead(queue, 3, 8, 42, "");
        assertEquals(1, queue.size());
    }

    @Test
    void shouldRotateAFullQueueAsARing()
    {
        final RetryQueue queue = new RetryQueue(3, MAX_FRAME, CLUSTER);
        offer(queue, 1, 3, 1);
        offer(queue, 2, 4, 2);
        offer(queue, 3, 5, 3);

        queue.rotate();
        queue.rotate();

        assertHead(queue, 3, 5, 3, "");
        queue.pop();
        assertHead(queue, 1, 3, 1, "");
        queue.pop();
        assertHead(queue, 2, 4, 2, "");
        queue.pop();
        assertEquals(0, queue.size());
    }

    /**
     * Random offers, pops and rotations against a deque of the same frames: every head the queue shows must be the
     * model's, bytes included, however often the ring wraps.
     */
    @ParameterizedTest
    @ValueSource(longs = {1L, 7L, 0x5eed_2024L, -3L})
    void shouldBehaveAsABoundedFifoWithRotationUnderRandomOperations(final long seed)
    {
        final Random random = new Random(seed);
        final int capacity = 1 + random.nextInt(6);
        final RetryQueue queue = new RetryQueue(capacity, MAX_FRAME, CLUSTER);
        final ArrayDeque<long[]> model = new ArrayDeque<>();
        final int[] perRank = new int[CLUSTER];

        for (int step = 0; step < 5_000; step++)
        {
            final String where = "seed " + seed + " step " + step;
            final int op = random.nextInt(3);
            if (op == 0)
            {
                final int to = random.nextInt(CLUSTER);
                final int length = 1 + random.nextInt(MAX_FRAME + 4);
                final boolean expected = model.size() < capacity && length <= MAX_FRAME;
                assertEquals(expected, offer(queue, to, length, step), where);
                if (expected)
                {
                    model.addLast(new long[]{to, length, step});
                    perRank[to]++;
                }
            }
            else if (!model.isEmpty())
            {
                final long[] head = model.peekFirst();
                assertHead(queue, (int)head[0], (int)head[1], head[2], where);
                if (op == 1)
                {
                    queue.pop();
                    model.removeFirst();
                    perRank[(int)head[0]]--;
                }
                else
                {
                    queue.rotate();
                    model.addLast(model.removeFirst());
                }
            }
            assertEquals(model.size(), queue.size(), where);
            for (int r = 0; r < CLUSTER; r++)
            {
                assertEquals(perRank[r] != 0, queue.hasQueuedFor(r), where + " rank " + r);
            }
        }
    }

    /**
     * Offers a frame whose bytes encode its destination, length and enqueue time, so a head can be checked whole.
     */
    private boolean offer(final RetryQueue queue, final int to, final int length, final long nowNs)
    {
        final byte[] bytes = frame(to, length, nowNs);
        source.putBytes(0, bytes);
        return queue.offer(to, source, 0, length, nowNs);
    }

    private static byte[] frame(final int to, final int length, final long nowNs)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(to * 31 + nowNs * 7 + i);
        }
        return bytes;
    }

    private static void assertHead(
        final RetryQueue queue, final int to, final int length, final long nowNs, final String where)
    {
        assertEquals(to, queue.headDestination(), where);
        assertEquals(length, queue.headLength(), where);
        assertEquals(nowNs, queue.headEnqueuedAtNs(), where);
        final byte[] actual = new byte[length];
        queue.buffer().getBytes(queue.headOffset(), actual);
        assertArrayEquals(frame(to, length, nowNs), actual, () -> where + " bytes of the head frame to " + to + ": " +
            Arrays.toString(actual));
    }
}
