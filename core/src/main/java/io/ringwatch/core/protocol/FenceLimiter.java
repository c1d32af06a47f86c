package io.ringwatch.core.protocol;

/**
 * At most one fencing notice per zombie per interval: a zombie needs one to stop, and the stream of heartbeats and
 * frames it keeps sending must not turn into a stream of notices. A lost notice is re-sent once the interval has
 * passed and the zombie is still heard from.
 * <p>
 * Remembers the last few zombies only (fixed capacity, oldest replaced), so memory does not grow with the cluster:
 * zombies are rare, and one evicted early is at worst fenced again a little sooner. Made at the first zombie, so a
 * node that never fences holds nothing (a million-node simulation could not hold them for every node).
 */
final class FenceLimiter
{
    private final int capacity;
    private int[] ranks;
    private long[] lastFenceNs;
    private int size;
    private int next;

    FenceLimiter(final int capacity)
    {
        this.capacity = capacity;
    }

    /**
     * @param rank       the zombie.
     * @param nowNs      protocol time.
     * @param intervalNs least time between two notices to the same zombie.
     * @return true if a notice may be sent now (and it is recorded as sent).
     */
    boolean tryAcquire(final int rank, final long nowNs, final long intervalNs)
    {
        for (int i = 0; i < size; i++)
        {
            if (ranks[i] == rank)
            {
                if (nowNs - lastFenceNs[i] >= intervalNs)
                {
                    lastFenceNs[i] = nowNs;
                    return true;
                }
                return false;
            }
        }
        if (ranks == null)
        {
            ranks = new int[capacity];
            lastFenceNs = new long[capacity];
        }
        ranks[next] = rank;
        lastFenceNs[next] = nowNs;
        next = (next + 1) % capacity;
        size = Math.min(size + 1, capacity);
        return true;
    }
}
