package io.ringwatch.transport.rdma;

/**
 * Write scheduling: which beat is signalled, how many signalled writes each connection has outstanding, and whether
 * its send queue can take another. One {@link SignalPacer} per outbound connection; completions are worth polling only
 * while {@link #outstanding()} is above zero.
 */
final class BeatWriter
{
    /** The write was posted. */
    static final int POSTED = 0;
    /** The send queue is full: signalled completions have not come back. */
    static final int QUEUE_FULL = 1;
    /** The queue pair refused the post: it is broken. */
    static final int REFUSED = 2;

    private final RdmaVerbs verbs;
    private final RdmaCounters counters;
    private final SignalPacer[] pacers;
    private final int[] pending;
    private int outstanding;

    BeatWriter(final RdmaVerbs verbs, final RdmaCounters counters, final int capacity, final int signalInterval)
    {
        this.verbs = verbs;
        this.counters = counters;
        this.pacers = new SignalPacer[capacity];
        this.pending = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            pacers[i] = new SignalPacer(signalInterval, 2 * signalInterval);
        }
    }

    /**
     * @return whether {@code connection}'s send queue can take a write now.
     */
    boolean canPost(final int connection)
    {
        return pacers[connection].canPost();
    }

    /**
     * Post the source slot's payload (already encoded) into {@code target}, signalling one write in the interval.
     *
     * @return {@link #POSTED}, {@link #QUEUE_FULL} or {@link #REFUSED}; counted.
     */
    int post(final int connection, final RemoteSlot target)
    {
        final SignalPacer pacer = pacers[connection];
        if (!pacer.canPost())
        {
            counters.beatsDroppedQueueFull++;
            return QUEUE_FULL;
        }
        final boolean signalled = pacer.onPost();
        if (!verbs.postWrite(connection, target, signalled))
        {
            counters.postFailures++;
            return REFUSED;
        }
        counters.beatsPosted++;
        if (signalled)
        {
            pending[connection]++;
            outstanding++;
        }
        return POSTED;
    }

    /**
     * A successful completion on {@code connection}: retires its oldest signalled write.
     */
    void onCompleted(final int connection)
    {
        if (pending[connection] > 0)
        {
            pending[connection]--;
            outstanding--;
            counters.completionsReaped++;
            pacers[connection].onSignalledCompletion();
        }
    }

    /**
     * The connection is gone or new: nothing of it is outstanding.
     */
    void clear(final int connection)
    {
        outstanding -= pending[connection];
        pending[connection] = 0;
        pacers[connection].reset();
    }

    /**
     * @return signalled writes not yet completed, every connection together.
     */
    int outstanding()
    {
        return outstanding;
    }
}
