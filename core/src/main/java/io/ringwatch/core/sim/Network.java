package io.ringwatch.core.sim;

import java.util.Arrays;
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
    private int[] cutFrom = new int[0];
    private int[] cutTo = new int[0];
    private long[] cutStartNs = new long[0];
    private long[] cutEndNs = new long[0];
    private int[][] groupOf = new int[0][];
    private long[] partitionStartNs = new long[0];
    private long[] partitionEndNs = new long[0];
    private boolean[] partitionOneWay = new boolean[0];

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
        final int i = cutFrom.length;
        cutFrom = Arrays.copyOf(cutFrom, i + 1);
        cutTo = Arrays.copyOf(cutTo, i + 1);
        cutStartNs = Arrays.copyOf(cutStartNs, i + 1);
        cutEndNs = Arrays.copyOf(cutEndNs, i + 1);
        cutFrom[i] = from;
        cutTo[i] = to;
        cutStartNs[i] = startNs;
        cutEndNs[i] = endNs;
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
        final int i = groupOf.length;
        groupOf = Arrays.copyOf(groupOf, i + 1);
        partitionStartNs = Arrays.copyOf(partitionStartNs, i + 1);
        partitionEndNs = Arrays.copyOf(partitionEndNs, i + 1);
        partitionOneWay = Arrays.copyOf(partitionOneWay, i + 1);
        groupOf[i] = groups;
        partitionStartNs[i] = startNs;
        partitionEndNs[i] = endNs;
        partitionOneWay[i] = oneWay;
    }

    private boolean isCut(final int from, final int to, final long nowNs)
    {
        return wasCut(from, to, nowNs, nowNs + 1);
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
        for (int i = 0; i < cutFrom.length; i++)
        {
            if (cutFrom[i] == from && cutTo[i] == to && untilNs > cutStartNs[i] && fromNs < cutEndNs[i])
            {
                return true;
            }
        }
        for (int i = 0; i < groupOf.length; i++)
        {
            final int[] groups = groupOf[i];
            if (untilNs > partitionStartNs[i] && fromNs < partitionEndNs[i] && groups[from] != groups[to] &&
                (!partitionOneWay[i] || groups[to] == 0))
            {
                return true;
            }
        }
        return false;
    }
}
