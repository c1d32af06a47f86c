package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When a message sent now arrives, if at all: a delay from the {@link DelayModel} (uniform in (0, τ] by default),
 * optional loss, and optionally the one-port model.
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
    private final DelayModel delays;
    private final double lossProbability;
    private final long[] sendFreeNs;
    private final long[] recvFreeNs;
    private final List<Cut> cuts = new ArrayList<>();

    Network(
        final SplittableRandom random,
        final int nodes,
        final long maxDelayNs,
        final double lossProbability,
        final boolean onePort)
    {
        this(random, nodes, DelayModel.uniform(maxDelayNs), lossProbability, onePort);
    }

    Network(
        final SplittableRandom random,
        final int nodes,
        final DelayModel delays,
        final double lossProbability,
        final boolean onePort)
    {
        this.random = random;
        this.delays = delays;
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
        final long delayNs = delays.delayNs(random);
        if ((lossProbability > 0 && random.nextDouble() < lossProbability) || isCut(from, to, nowNs))
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

    /**
     * Lose every message sent from {@code from} to {@code to} in [startNs, endNs).
     *
     * @param from    sender.
     * @param to      receiver.
     * @param startNs first instant of the cut.
     * @param endNs   first instant after it.
     */
    void cut(final int from, final int to, final long startNs, final long endNs)
    {
        cuts.add(new Cut(startNs, endNs, from, to, null, false));
    }

    /**
     * Split the cluster into groups over [startNs, endNs).
     *
     * @param groups  group of each rank.
     * @param startNs first instant of the partition.
     * @param endNs   first instant after it.
     * @param oneWay  true if only messages into group 0 are lost.
     */
    void partition(final int[] groups, final long startNs, final long endNs, final boolean oneWay)
    {
        cuts.add(new Cut(startNs, endNs, -1, -1, groups, oneWay));
    }

    private boolean isCut(final int from, final int to, final long nowNs)
    {
        return !cuts.isEmpty() && wasCut(from, to, nowNs, nowNs + 1);
    }

    /**
     * @param from    sender.
     * @param to      receiver.
     * @param fromNs  start of the window.
     * @param untilNs end of the window, exclusive.
     * @return true if messages from {@code from} to {@code to} were lost to a cut or partition at any time in it.
     */
    boolean wasCut(final int from, final int to, final long fromNs, final long untilNs)
    {
        for (int i = 0, size = cuts.size(); i < size; i++)
        {
            final Cut cut = cuts.get(i);
            if (untilNs > cut.startNs && fromNs < cut.endNs && cut.severs(from, to))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A time window in which the network loses messages: on one directed link, or between the groups of a partition
     * (only into group 0 when one-way).
     */
    private record Cut(long startNs, long endNs, int from, int to, int[] groups, boolean oneWay)
    {
        boolean severs(final int sender, final int receiver)
        {
            if (groups == null)
            {
                return sender == from && receiver == to;
            }
            return groups[sender] != groups[receiver] && (!oneWay || groups[receiver] == 0);
        }
    }
}
