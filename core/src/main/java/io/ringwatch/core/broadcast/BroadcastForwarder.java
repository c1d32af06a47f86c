package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * One participant's hop of a reliable broadcast: the copies it sends are the {@link BroadcastSchedule} neighbours
 * computed from the message's D_msg, less the rank the copy came from and itself. The node level's failure notices
 * and the process level's notices forward by this one rule. Allocation-free: the target array is sized once.
 * Not thread safe, like the protocol object that owns it.
 */
public final class BroadcastForwarder
{
    /**
     * Sends one copy. Bind it once (a field holding {@code channel::send}), not per call, so forwarding allocates
     * nothing.
     *
     * @param <M> message type.
     */
    @FunctionalInterface
    public interface Hop<M>
    {
        /**
         * @param toRank  the next hop.
         * @param message the copy to send; read during the call only.
         */
        void send(int toRank, M message);
    }

    private final BroadcastSchedule schedule;
    private final int self;
    private final int clusterSize;
    private final int[] targets;

    /**
     * @param schedule    who forwards to whom.
     * @param self        the forwarding participant.
     * @param clusterSize N.
     */
    public BroadcastForwarder(final BroadcastSchedule schedule, final int self, final int clusterSize)
    {
        this.schedule = schedule;
        this.self = self;
        this.clusterSize = clusterSize;
        this.targets = new int[schedule.maxFanout(clusterSize)];
    }

    /**
     * Send {@code message} to this participant's neighbours in the broadcast started by {@code source}.
     *
     * @param source   the broadcast source.
     * @param excluded D_msg, the ranks not taking part, ascending.
     * @param fromRank the rank this copy came from, skipped; {@code self} when this participant starts the broadcast.
     * @param message  what to send.
     * @param hop      sends one copy.
     * @param <M>      message type.
     * @return copies sent.
     */
    public <M> int forward(
        final int source,
        final RankSet excluded,
        final int fromRank,
        final M message,
        final Hop<? super M> hop)
    {
        final int count = schedule.neighbours(self, source, excluded, clusterSize, targets);
        int sent = 0;
        for (int i = 0; i < count; i++)
        {
            final int to = targets[i];
            if (to != fromRank && to != self)
            {
                sent++;
                hop.send(to, message);
            }
        }
        return sent;
    }
}
