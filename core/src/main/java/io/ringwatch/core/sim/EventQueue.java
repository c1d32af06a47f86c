package io.ringwatch.core.sim;

import java.util.Arrays;

/**
 * Pending events of one simulation: a binary min-heap ordered by (time, insertion sequence), so events at the
 * same instant run in the order they were scheduled and a run is a pure function of its seed.
 * <p>
 * Events live in a pool of parallel primitive arrays addressed by slot; the heap only moves (time, seq, slot)
 * triples. A 256k-node run keeps about a million events in flight, so no per-event objects are created.
 * A polled slot stays valid until {@link #release(int)} or {@link #requeue(int, long)}.
 */
final class EventQueue
{
    static final byte WAKE = 1;
    static final byte HEARTBEAT = 2;
    static final byte NEW_OBSERVER = 3;
    static final byte NOTICE = 4;
    static final byte LEAVE_MESSAGE = 5;
    static final byte CRASH = 6;
    static final byte PAUSE = 7;
    static final byte RESUME = 8;
    static final byte LEAVE_NODE = 9;

    private byte[] types;
    private int[] froms;
    private int[] tos;
    private long[] values;
    private Object[] refs;
    private int[] freeSlots;
    private int freeCount;
    private int slotsUsed;

    private long[] heapTimes;
    private long[] heapSeqs;
    private int[] heapSlots;
    private int size;
    private long nextSeq;

    private long polledTimeNs;
    private long polledSeq;

    EventQueue(final int initialCapacity)
    {
        final int capacity = Math.max(16, initialCapacity);
        types = new byte[capacity];
        froms = new int[capacity];
        tos = new int[capacity];
        values = new long[capacity];
        refs = new Object[capacity];
        freeSlots = new int[capacity];
        heapTimes = new long[capacity];
        heapSeqs = new long[capacity];
        heapSlots = new int[capacity];
    }

    /**
     * @return the sequence number given to the event; unique and increasing, so callers can recognise it later.
     */
    long schedule(final long timeNs, final byte type, final int from, final int to, final long value, final Object ref)
    {
        final int slot = allocateSlot();
        types[slot] = type;
        froms[slot] = from;
        tos[slot] = to;
        values[slot] = value;
        refs[slot] = ref;
        return push(timeNs, slot);
    }

    /**
     * Put a polled event back at a later time, behind everything already scheduled for that time.
     */
    long requeue(final int slot, final long timeNs)
    {
        return push(timeNs, slot);
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    int size()
    {
        return size;
    }

    long peekTimeNs()
    {
        return heapTimes[0];
    }

    /**
     * @return slot of the earliest event; its time and sequence are then {@link #polledTimeNs()} and
     * {@link #polledSeq()}.
     */
    int poll()
    {
        final int slot = heapSlots[0];
        polledTimeNs = heapTimes[0];
        polledSeq = heapSeqs[0];
        size--;
        if (size > 0)
        {
            siftDown(heapTimes[size], heapSeqs[size], heapSlots[size]);
        }
        return slot;
    }

    void release(final int slot)
    {
        refs[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    long polledTimeNs()
    {
        return polledTimeNs;
    }

    long polledSeq()
    {
        return polledSeq;
    }

    byte type(final int slot)
    {
        return types[slot];
    }

    int from(final int slot)
    {
        return froms[slot];
    }

    int to(final int slot)
    {
        return tos[slot];
    }

    long value(final int slot)
    {
        return values[slot];
    }

    Object ref(final int slot)
    {
        return refs[slot];
    }

    private int allocateSlot()
    {
        if (freeCount > 0)
        {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == types.length)
        {
            final int capacity = types.length * 2;
            types = Arrays.copyOf(types, capacity);
            froms = Arrays.copyOf(froms, capacity);
            tos = Arrays.copyOf(tos, capacity);
            values = Arrays.copyOf(values, capacity);
            refs = Arrays.copyOf(refs, capacity);
            freeSlots = Arrays.copyOf(freeSlots, capacity);
        }
        return slotsUsed++;
    }

    private long push(final long timeNs, final int slot)
    {
        if (size == heapTimes.length)
        {
            final int capacity = heapTimes.length * 2;
            heapTimes = Arrays.copyOf(heapTimes, capacity);
            heapSeqs = Arrays.copyOf(heapSeqs, capacity);
            heapSlots = Arrays.copyOf(heapSlots, capacity);
        }
        final long seq = nextSeq++;
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (!before(timeNs, seq, heapTimes[parent], heapSeqs[parent]))
            {
                break;
            }
            move(parent, i);
            i = parent;
        }
        heapTimes[i] = timeNs;
        heapSeqs[i] = seq;
        heapSlots[i] = slot;
        return seq;
    }

    private void siftDown(final long timeNs, final long seq, final int slot)
    {
        int i = 0;
        final int half = size >>> 1;
        while (i < half)
        {
            int child = 2 * i + 1;
            final int right = child + 1;
            if (right < size && before(heapTimes[right], heapSeqs[right], heapTimes[child], heapSeqs[child]))
            {
                child = right;
            }
            if (!before(heapTimes[child], heapSeqs[child], timeNs, seq))
            {
                break;
            }
            move(child, i);
            i = child;
        }
        heapTimes[i] = timeNs;
        heapSeqs[i] = seq;
        heapSlots[i] = slot;
    }

    private void move(final int from, final int to)
    {
        heapTimes[to] = heapTimes[from];
        heapSeqs[to] = heapSeqs[from];
        heapSlots[to] = heapSlots[from];
    }

    private static boolean before(final long timeA, final long seqA, final long timeB, final long seqB)
    {
        return timeA < timeB || (timeA == timeB && seqA < seqB);
    }
}
