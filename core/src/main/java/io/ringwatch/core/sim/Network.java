package io.ringwatch.core.sim;

import java.util.SplittableRandom;

/**
 * When a message sent now arrives, if at all: a delay drawn uniformly from (0, τ], optional loss, and optionally
 * the one-port model.
 * <p>
 * One-port: a node's port transmits one message at a time and takes in one at a time, each message holding the
 * sender's port and then the receiver's port for its delay, in the order messages come. The two ports are not
 * reserved together, so a sender is never held up by a busy receiver (the message waits on the receiving side):
 * reserving both at once, in send order, turns every overlapping broadcast flood into a convoy.
 */
final class Network
{
    /** {@link #deliveryTimeNs} result for a lost message. */
    static final long LOST = -1;

    private final SplittableRandom random;
    private final long maxDelayNs;
    private final double lossProbability;
    private final long[] sendFreeNs;
    private final long[] recvFreeNs;

    Network(
        final SplittableRandom random,
        final int nodes,
        final long maxDelayNs,
        final double lossProbability,
        final boolean onePort)
    {
        this.random = random;
        this.maxDelayNs = maxDelayNs;
        this.lossProbability = lossProbability;
        sendFreeNs = onePort ? new long[nodes] : null;
        recvFreeNs = onePort ? new long[nodes] : null;
    }

    /**
     * @param nowNs time of the send.
     * @param from  sender.
     * @param to    receiver.
     * @return delivery time, or {@link #LOST}.
     */
    long deliveryTimeNs(final long nowNs, final int from, final int to)
    {
        final long delayNs = 1 + random.nextLong(maxDelayNs);
        if (lossProbability > 0 && random.nextDouble() < lossProbability)
        {
            return LOST;
        }
        if (sendFreeNs == null)
        {
            return nowNs + delayNs;
        }
        final long sentNs = Math.max(nowNs, sendFreeNs[from]) + delayNs;
        sendFreeNs[from] = sentNs;
        final long arrivedNs = Math.max(sentNs, recvFreeNs[to] + delayNs);
        recvFreeNs[to] = arrivedNs;
        return arrivedNs;
    }
}
