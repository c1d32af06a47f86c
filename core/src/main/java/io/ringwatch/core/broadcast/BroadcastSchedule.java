package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * Who forwards a broadcast to whom. Participants are ranks {@code 0..clusterSize-1} minus the excluded set
 * carried in the message, so every node computes the same schedule whatever its own view.
 */
public interface BroadcastSchedule
{
    /**
     * @param clusterSize N.
     * @return capacity the {@code out} array of {@link #neighbours} needs for this cluster size.
     */
    int maxFanout(int clusterSize);

    /**
     * Ranks {@code self} sends to on first receipt of a broadcast started by {@code source}, most urgent first.
     * Must not allocate.
     *
     * @param self        the forwarding participant.
     * @param source      the broadcast source, a participant.
     * @param excluded    ranks not taking part (D_msg), ascending.
     * @param clusterSize N.
     * @param out         destination ranks are written from index 0.
     * @return the number of ranks written.
     */
    int neighbours(int self, int source, RankSet excluded, int clusterSize, int[] out);
}
