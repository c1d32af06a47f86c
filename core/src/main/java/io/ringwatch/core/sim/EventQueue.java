package io.ringwatch.core.sim;

import java.util.Arrays;

/**
 * Pending events of one simulation: a min-heap ordered by (time, insertion sequence), so events at the same
 * instant run in the order they were scheduled and a run is a pure function of its seed.
 * <p>
 * Events live in a pool of primitive arrays addressed by slot, so no per-event objects are created.
 * The heap is 4-ary over interleaved (time, sequence|slot) pairs: a 256k-node run keeps a few hundred thousand
 * events pending, and with this layout each level of a sift costs one cache miss instead of three.
 * A polled slot stays valid until {@link #release(int)} or {@link #requeue(int, long)}.
 * <p>
 * Public so other protocol models (the SWIM model in the perf module) run on the same engine; the type bytes
 * below are the ring's, other models define their own.
 */
public final class EventQueue
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
    static final byte FORGED_NOTICE = 10;
    static final byte PROBE = 11;
    static final byte PROBE_ACK = 12;
    static final byte PROCESS_CRASH = 13;
    static final byte PROCESS_NOTICE = 14;
    static final byte RESTART = 15;
    static final byte JOIN_REQUEST = 16;
    static final byte VIEW = 17;
    static final byte VIEW_DIGEST = 18;
    static final byte REFORM_POLL = 19;
    static final byte REFORM_ACK = 20;

    private static final int RANK_BITS = 28;
    private static final long RANK_MASK = (1L << RANK_BITS) - 1;
    // 26 bits: a binomial-graph broadcast of 17 failures at 262,144 nodes under the one-port model keeps more than
    // 2^24 messages in flight; 2^37 sequence numbers still outlast any run
    private static final int SLOT_BITS = 26;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final long MAX_SEQ = Long.MAX_VALUE >>> SLOT_BITS;

    // slot i is events[2i] = type << 56 | (from + 1) << 28 | (to + 1), events[2i + 1] = value: one cache line
    private long[] events;
    private Object[] refs;
    private int[] freeSlots;
    private int freeCount;
    private int slotsUsed;

    // entry i is heap[2i] = time, heap[2i + 1] = seq << SLOT_BITS | slot: one cache line holds four entries
    private long[] heap;
    private int size;
    private long nextSeq;

    private long polledTimeNs;
    private long polledSeq;

    /**
     * @param initialCapacity events to size for; grows as needed.
     */
    public EventQueue(final int initialCapacity)
    {
        final int capacity = Math.max(16, initialCapacity);
        events = new long[2 * capacity];
        refs = new Object[capacity];
        freeSlots = new int[capacity];
        heap = new long[2 * capacity];
    }

    /**
     * @return the sequence number given to the event; unique and increasing, so callers can recognise it later.
     */
    public long schedule(
        final long timeNs, final byte type, final int from, final int to, final long value, final Object ref)
    {
        final int slot = allocateSlot();
        events[2 * slot] = ((long)type << 56) | ((from + 1L) << RANK_BITS) | (to + 1L);
        events[2 * slot + 1] = value;
        refs[slot] = ref;
        return push(timeNs, slot);
    }

    /**
     * Put a polled event back at a later time, behind everything already scheduled for that time.
     */
    public long requeue(final int slot, final long timeNs)
    {
        return push(timeNs, slot);
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    public int size()
    {
        return size;
    }

    public long peekTimeNs()
    {
        return heap[0];
    }

    /**
     * @return slot of the earliest event; its time and sequence are then {@link #polledTimeNs()} and
     * {@link #polledSeq()}.
     */
    public int poll()
    {
        polledTimeNs = heap[0];
        final long key = heap[1];
        polledSeq = key >>> SLOT_BITS;
        size--;
        if (size > 0)
        {
            siftDown(heap[2 * size], heap[2 * size + 1]);
        }
        return (int)(key & SLOT_MASK);
    }

    public void release(final int slot)
    {
        refs[slot] = null;
        freeSlots[freeCount++] = slot;
    }

    public long polledTimeNs()
    {
        return polledTimeNs;
    }

    public long polledSeq()
    {
        return polledSeq;
    }

    public byte type(final int slot)
    {
        return (byte)(events[2 * slot] >>> 56);
    }

    public int from(final int slot)
    {
        return (int)((events[2 * slot] >>> RANK_BITS) & RANK_MASK) - 1;
    }

    public int to(final int slot)
    {
        return (int)(events[2 * slot] & RANK_MASK) - 1;
    }

    public long value(final int slot)
    {
        return events[2 * slot + 1];
    }

    public Object ref(final int slot)
    {
        return refs[slot];
    }

    private int allocateSlot()
    {
        if (freeCount > 0)
        {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == refs.length)
        {
            if (refs.length > SLOT_MASK / 2)
            {
                throw new IllegalStateException("more than " + SLOT_MASK + " pending events");
            }
            final int capacity = refs.length * 2;
            events = Arrays.copyOf(events, 2 * capacity);
            refs = Arrays.copyOf(refs, capacity);
            freeSlots = Arrays.copyOf(freeSlots, capacity);
        }
        return slotsUsed++;
    }

    private long push(final long timeNs, final int slot)
    {
        if (2 * size == heap.length)
        {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long seq = nextSeq++;
        if (seq > MAX_SEQ)
        {
            throw new IllegalStateException("event sequence exhausted");
        }
        final long key = (seq << SLOT_BITS) | slot;
        final long[] heap = this.heap;
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 2;
            final long parentTime = heap[2 * parent];
            if (parentTime < timeNs || (parentTime == timeNs && heap[2 * parent + 1] < key))
            {
                break;
            }
            heap[2 * i] = parentTime;
            heap[2 * i + 1] = heap[2 * parent + 1];
            i = parent;
        }
        heap[2 * i] = timeNs;
        heap[2 * i + 1] = key;
        return seq;
    }

    private void siftDown(final long timeNs, final long key)
    {
        final long[] heap = this.heap;
        final int size = this.size;
        int i = 0;
        while (true)
        {
            final int first = 4 * i + 1;
            if (first >= size)
            {
                break;
            }
            int best = first;
            long bestTime = heap[2 * first];
            long bestKey = heap[2 * first + 1];
            final int last = Math.min(first + 4, size);
            for (int c = first + 1; c < last; c++)
            {
                final long t = heap[2 * c];
                if (t < bestTime || (t == bestTime && heap[2 * c + 1] < bestKey))
                {
                    best = c;
                    bestTime = t;
                    bestKey = heap[2 * c + 1];
                }
            }
            if (timeNs < bestTime || (timeNs == bestTime && key < bestKey))
            {
                break;
            }
            heap[2 * i] = bestTime;
            heap[2 * i + 1] = bestKey;
            i = best;
        }
        heap[2 * i] = timeNs;
        heap[2 * i + 1] = key;
    }
}
