package io.ringwatch.perf.swim;

import java.util.Arrays;

/**
 * A node's queue of membership updates to piggyback, like memberlist's TransmitLimitedQueue: each update goes out
 * a limited number of times, least-sent first, and a newer update about a member replaces the older one.
 * An update is packed in a long: member (bits 0–27), state (28–29), incarnation (32–63).
 */
final class Broadcasts
{
    private int size;
    private long[] updates = new long[4];
    private int[] transmits = new int[4];

    static long pack(final int member, final byte state, final int incarnation)
    {
        return ((long)incarnation << 32) | ((long)state << 28) | member;
    }

    static int member(final long update)
    {
        return (int)(update & 0x0FFF_FFFF);
    }

    static byte state(final long update)
    {
        return (byte)((update >>> 28) & 0x3);
    }

    static int incarnation(final long update)
    {
        return (int)(update >>> 32);
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    void enqueue(final long update)
    {
        final int member = member(update);
        for (int i = 0; i < size; i++)
        {
            if (member(updates[i]) == member)
            {
                updates[i] = update;
                transmits[i] = 0;
                return;
            }
        }
        if (size == updates.length)
        {
            updates = Arrays.copyOf(updates, size * 2);
            transmits = Arrays.copyOf(transmits, size * 2);
        }
        updates[size] = update;
        transmits[size] = 0;
        size++;
    }

    /**
     * @param max   updates per message.
     * @param limit transmissions per update.
     * @return the updates to carry (possibly empty), each counted as one more transmission.
     */
    long[] take(final int max, final int limit)
    {
        if (size == 0)
        {
            return null;
        }
        final int count = Math.min(max, size);
        final long[] out = new long[count];
        // least-transmitted first: selection of the `count` smallest by a simple pass; queues are short
        final boolean[] picked = new boolean[size];
        for (int c = 0; c < count; c++)
        {
            int best = -1;
            for (int i = 0; i < size; i++)
            {
                if (!picked[i] && (best < 0 || transmits[i] < transmits[best]))
                {
                    best = i;
                }
            }
            picked[best] = true;
            out[c] = updates[best];
            transmits[best]++;
        }
        int w = 0;
        for (int i = 0; i < size; i++)
        {
            if (transmits[i] < limit)
            {
                updates[w] = updates[i];
                transmits[w] = transmits[i];
                w++;
            }
        }
        size = w;
        return out;
    }
}
