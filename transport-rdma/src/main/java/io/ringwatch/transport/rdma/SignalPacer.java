package io.ringwatch.transport.rdma;

/**
 * Decides which RDMA WRITEs are signalled and whether the send queue has room. Unsignalled work requests
 * produce no completion, but they keep their send-queue entries until a later signalled one completes (on a
 * reliable-connected QP, a completion implies every earlier request completed). So every
 * {@code signalInterval}-th post is signalled, each reaped completion frees {@code signalInterval} entries,
 * and posting stops (the beat is dropped and counted) while the queue is full.
 */
final class SignalPacer
{
    private final int signalInterval;
    private final int sendQueueDepth;
    private int outstanding;
    private int sinceSignal;

    /**
     * @param signalInterval signal one post in this many; at least 1.
     * @param sendQueueDepth send queue capacity; at least {@code 2 * signalInterval} so posting continues while
     *                       one signalled completion is in flight.
     */
    SignalPacer(final int signalInterval, final int sendQueueDepth)
    {
        if (signalInterval < 1)
        {
            throw new IllegalArgumentException("signalInterval must be >= 1: " + signalInterval);
        }
        if (sendQueueDepth < 2 * signalInterval)
        {
            throw new IllegalArgumentException("sendQueueDepth " + sendQueueDepth + " must be >= 2 * signalInterval " +
                signalInterval);
        }
        this.signalInterval = signalInterval;
        this.sendQueueDepth = sendQueueDepth;
    }

    /**
     * @return true if a post would fit in the send queue.
     */
    boolean canPost()
    {
        return outstanding < sendQueueDepth;
    }

    /**
     * Account for a post about to be made; call only when {@link #canPost()}.
     *
     * @return true if this post must be signalled.
     */
    boolean onPost()
    {
        outstanding++;
        if (++sinceSignal == signalInterval)
        {
            sinceSignal = 0;
            return true;
        }
        return false;
    }

    /**
     * A signalled completion was reaped: it and the unsignalled posts before it left the queue.
     */
    void onSignalledCompletion()
    {
        outstanding = Math.max(0, outstanding - signalInterval);
    }

    /**
     * Forget everything, for a fresh queue pair.
     */
    void reset()
    {
        outstanding = 0;
        sinceSignal = 0;
    }

    /**
     * @return posts whose queue entries are not yet known to be free.
     */
    int outstanding()
    {
        return outstanding;
    }
}
