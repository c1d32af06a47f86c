package io.ringwatch.transport.aeron.internal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Bounded FIFO of encoded frames waiting for a publication that was back-pressured or not ready. Preallocated:
 * entries are fixed-size slots in one buffer. Not thread safe; used on the agent thread only.
 */
public final class RetryQueue
{
    private final int capacity;
    private final int maxFrameLength;
    private final UnsafeBuffer frames;
    private final int[] destinations;
    private final int[] lengths;
    private final long[] enqueuedAtNs;
    private final int[] queuedPerRank;
    private int head;
    private int size;

    /**
     * @param capacity       frames held at most.
     * @param maxFrameLength longest frame held; longer frames are not queued.
     * @param clusterSize    N, for the per-destination counts.
     */
    public RetryQueue(final int capacity, final int maxFrameLength, final int clusterSize)
    {
        this.capacity = capacity;
        this.maxFrameLength = maxFrameLength;
        this.frames = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * maxFrameLength));
        this.destinations = new int[capacity];
        this.lengths = new int[capacity];
        this.enqueuedAtNs = new long[capacity];
        this.queuedPerRank = new int[clusterSize];
    }

    /**
     * @param destination rank.
     * @param buffer      frame.
     * @param length      frame length.
     * @param nowNs       enqueue time.
     * @return false if full or the frame is too long.
     */
    public boolean offer(final int destination, final DirectBuffer buffer, final int offset, final int length,
        final long nowNs)
    {
        if (size == capacity || length > maxFrameLength)
        {
            return false;
        }
        final int index = (head + size) % capacity;
        frames.putBytes(index * maxFrameLength, buffer, offset, length);
        destinations[index] = destination;
        lengths[index] = length;
        enqueuedAtNs[index] = nowNs;
        queuedPerRank[destination]++;
        size++;
        return true;
    }

    /**
     * @return frames waiting.
     */
    public int size()
    {
        return size;
    }

    /**
     * @param rank destination.
     * @return true if frames to that rank are waiting, so a new one must queue behind them to keep order.
     */
    public boolean hasQueuedFor(final int rank)
    {
        return queuedPerRank[rank] != 0;
    }

    public int headDestination()
    {
        return destinations[head];
    }

    public int headLength()
    {
        return lengths[head];
    }

    public int headOffset()
    {
        return head * maxFrameLength;
    }

    public long headEnqueuedAtNs()
    {
        return enqueuedAtNs[head];
    }

    public UnsafeBuffer buffer()
    {
        return frames;
    }

    /**
     * Remove the head.
     */
    public void pop()
    {
        queuedPerRank[destinations[head]]--;
        head = (head + 1) % capacity;
        size--;
    }

    /**
     * Move the head to the tail, keeping its enqueue time; used when it cannot go yet but others may.
     */
    public void rotate()
    {
        if (size == 1)
        {
            return;
        }
        final int tail = (head + size) % capacity;
        frames.putBytes(tail * maxFrameLength, frames, head * maxFrameLength, lengths[head]);
        destinations[tail] = destinations[head];
        lengths[tail] = lengths[head];
        enqueuedAtNs[tail] = enqueuedAtNs[head];
        head = (head + 1) % capacity;
    }
}
