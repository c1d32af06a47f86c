package io.ringwatch.perf.swim;

import java.util.Arrays;

/**
 * One node's view of the members that are not plainly "alive at incarnation 0": a short list, since at any time
 * only the failed and the suspected differ from the initial view. Storing only these keeps 100,000 nodes'
 * views in memory (a full table would be n² entries).
 */
final class MemberTable
{
    static final byte ALIVE = 0;
    static final byte SUSPECT = 1;
    static final byte DEAD = 2;

    private int size;
    private int[] members = new int[2];
    private byte[] states = new byte[2];
    private int[] incarnations = new int[2];
    private int[] timerGenerations = new int[2];
    private long[] suspectSinceNs = new long[2];
    private int[][] confirmers = new int[2][];
    private int[] confirmations = new int[2];
    private int deadCount;

    int size()
    {
        return size;
    }

    int deadCount()
    {
        return deadCount;
    }

    int memberAt(final int i)
    {
        return members[i];
    }

    /**
     * @return index of the member, or −1 (then it is alive at incarnation 0).
     */
    int indexOf(final int member)
    {
        for (int i = 0; i < size; i++)
        {
            if (members[i] == member)
            {
                return i;
            }
        }
        return -1;
    }

    byte state(final int member)
    {
        final int i = indexOf(member);
        return i < 0 ? ALIVE : states[i];
    }

    int incarnation(final int member)
    {
        final int i = indexOf(member);
        return i < 0 ? 0 : incarnations[i];
    }

    byte stateAt(final int i)
    {
        return states[i];
    }

    int incarnationAt(final int i)
    {
        return incarnations[i];
    }

    int generationAt(final int i)
    {
        return timerGenerations[i];
    }

    long suspectSinceAt(final int i)
    {
        return suspectSinceNs[i];
    }

    int confirmationsAt(final int i)
    {
        return confirmations[i];
    }

    /**
     * Set the state; a new generation invalidates a pending suspicion timer.
     *
     * @return the entry's index.
     */
    int set(final int member, final byte state, final int incarnation, final long nowNs)
    {
        int i = indexOf(member);
        if (i < 0)
        {
            if (size == members.length)
            {
                final int capacity = size * 2;
                members = Arrays.copyOf(members, capacity);
                states = Arrays.copyOf(states, capacity);
                incarnations = Arrays.copyOf(incarnations, capacity);
                timerGenerations = Arrays.copyOf(timerGenerations, capacity);
                suspectSinceNs = Arrays.copyOf(suspectSinceNs, capacity);
                confirmers = Arrays.copyOf(confirmers, capacity);
                confirmations = Arrays.copyOf(confirmations, capacity);
            }
            i = size++;
            members[i] = member;
            states[i] = ALIVE;
        }
        if (states[i] == DEAD)
        {
            deadCount--;
        }
        if (state == DEAD)
        {
            deadCount++;
        }
        states[i] = state;
        incarnations[i] = incarnation;
        timerGenerations[i]++;
        confirmations[i] = 0;
        confirmers[i] = null;
        suspectSinceNs[i] = nowNs;
        return i;
    }

    /**
     * Record an independent confirmation of a suspicion.
     *
     * @param i    entry index.
     * @param from the confirming suspecter.
     * @param max  confirmations that still matter.
     * @return true if it was new and counted.
     */
    boolean confirm(final int i, final int from, final int max)
    {
        if (confirmations[i] >= max)
        {
            return false;
        }
        if (confirmers[i] == null)
        {
            confirmers[i] = new int[Math.max(1, max)];
        }
        for (int c = 0; c < confirmations[i]; c++)
        {
            if (confirmers[i][c] == from)
            {
                return false;
            }
        }
        confirmers[i][confirmations[i]++] = from;
        timerGenerations[i]++;
        return true;
    }
}
