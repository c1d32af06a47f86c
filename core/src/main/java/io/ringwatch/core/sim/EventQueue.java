package io.ringwatch.core.sim;

import java.util.Arrays;

/**
 * Pending events of one simulation, polled in (time, insertion sequence) order, so events at the same instant run in
 * the order they were scheduled and a run is a pure function of its seed.
 * <p>
 * Events live in a pool of primitive arrays addressed by slot, so no per-event objects are created. Their keys are
 * held in two tiers with the same order as one heap: a near 4-ary heap of the events before the horizon (the end of
 * the current bucket of 2^20 ns, about a millisecond), and a calendar of buckets for the later ones (unsorted, filled
 * in order, moved into the near heap when the horizon reaches them; beyond the calendar, an overflow heap). A run of a
 * million nodes keeps a million wake-ups pending a heartbeat period ahead: in one heap each poll would sift through
 * levels far outside the cache, while the near heap holds only the next millisecond. Each heap's entries are
 * interleaved (time, sequence|slot) pairs, four to a cache line.
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
    static final byte JOIN_CHALLENGE = 21;
    static final byte JOIN_PROOF = 22;

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

    private static final int BUCKET_SHIFT = 20;
    private static final int BUCKETS = 512;

    private final Heap near;
    private final Heap overflow;
    // bucket b (times in [b << BUCKET_SHIFT, (b + 1) << BUCKET_SHIFT)) for b in (current, current + BUCKETS) is held
    // in calendar[b % BUCKETS] as (time, key) pairs, calendarFill[b % BUCKETS] of them
    private final long[][] calendar = new long[BUCKETS][];
    private final int[] calendarFill = new int[BUCKETS];
    private long currentBucket;
    private long horizonNs = 1L << BUCKET_SHIFT;
    private int calendarCount;
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
        near = new Heap(capacity);
        overflow = new Heap(16);
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
        fillNear();
        return near.heap[0];
    }

    /**
     * @return slot of the earliest event; its time and sequence are then {@link #polledTimeNs()} and
     * {@link #polledSeq()}.
     */
    public int poll()
    {
        fillNear();
        polledTimeNs = near.heap[0];
        final long key = near.poll();
        polledSeq = key >>> SLOT_BITS;
        size--;
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
        final long seq = nextSeq++;
        if (seq > MAX_SEQ)
        {
            throw new IllegalStateException("event sequence exhausted");
        }
        final long key = (seq << SLOT_BITS) | slot;
        size++;
        if (timeNs < horizonNs)
        {
            near.push(timeNs, key);
            return seq;
        }
        final long bucket = timeNs >>> BUCKET_SHIFT;
        if (bucket - currentBucket >= BUCKETS)
        {
            overflow.push(timeNs, key);
            return seq;
        }
        final int b = (int)(bucket % BUCKETS);
        long[] entries = calendar[b];
        final int fill = calendarFill[b];
        if (entries == null || 2 * fill == entries.length)
        {
            entries = calendar[b] = entries == null ? new long[64] : Arrays.copyOf(entries, 2 * entries.length);
        }
        entries[2 * fill] = timeNs;
        entries[2 * fill + 1] = key;
        calendarFill[b] = fill + 1;
        calendarCount++;
        return seq;
    }

    /**
     * Move the horizon on, bucket by bucket, until the near heap holds the earliest event (it then holds every event
     * before the horizon, and the calendar and overflow none: the order is that of one heap).
     */
    private void fillNear()
    {
        while (near.size == 0)
        {
            if (calendarCount == 0)
            {
                if (overflow.size == 0)
                {
                    return;
                }
                // nothing for a while: jump to the overflow's first bucket
                currentBucket = Math.max(currentBucket, (overflow.heap[0] >>> BUCKET_SHIFT) - 1);
            }
            currentBucket++;
            horizonNs = (currentBucket + 1) << BUCKET_SHIFT;
            final int b = (int)(currentBucket % BUCKETS);
            // the near heap is empty: take the bucket whole and heapify it, linear instead of a push per entry
            near.heapify(calendar[b], calendarFill[b]);
            calendarCount -= calendarFill[b];
            calendarFill[b] = 0;
            while (overflow.size > 0 && overflow.heap[0] < horizonNs)
            {
                final long timeNs = overflow.heap[0];
                near.push(timeNs, overflow.poll());
            }
        }
    }

    /**
     * A 4-ary min-heap of (time, key) pairs; entry i is heap[2i] = time, heap[2i + 1] = key: one cache line holds
     * four entries, so each level of a sift costs one miss.
     */
    private static final class Heap
    {
        private long[] heap;
        private int size;

        Heap(final int capacity)
        {
            heap = new long[2 * capacity];
        }

        void push(final long timeNs, final long key)
        {
            if (2 * size == heap.length)
            {
                heap = Arrays.copyOf(heap, heap.length * 2);
            }
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
        }

        /**
         * Replace the (empty) heap's entries with {@code count} unordered (time, key) pairs and restore the heap
         * order bottom-up (Floyd): keys are unique, so the entries come out in the same order as pushed one by one.
         */
        void heapify(final long[] entries, final int count)
        {
            if (count == 0)
            {
                return;
            }
            if (heap.length < 2 * count)
            {
                heap = new long[Math.max(2 * count, 2 * heap.length)];
            }
            System.arraycopy(entries, 0, heap, 0, 2 * count);
            size = count;
            for (int i = (count - 2) >> 2; i >= 0; i--)
            {
                siftDown(i, heap[2 * i], heap[2 * i + 1]);
            }
        }

        /**
         * @return the key of the earliest entry, now removed.
         */
        long poll()
        {
            final long key = heap[1];
            size--;
            if (size > 0)
            {
                siftDown(0, heap[2 * size], heap[2 * size + 1]);
            }
            return key;
        }

        private void siftDown(final int from, final long timeNs, final long key)
        {
            final long[] heap = this.heap;
            final int size = this.size;
            int i = from;
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
}
