package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * What both schedules share: the participants are the ranks outside D_msg, labelled from the source
 * ({@link Participants}), so a schedule only says which labels a label sends to, and every node computes the same.
 */
abstract class LabelledSchedule implements BroadcastSchedule
{
    /**
     * {@inheritDoc}
     * <p>
     * Returns nothing if {@code self} or {@code source} is not a rank of the cluster. Both are expected to be
     * participants; if either is in {@code excluded} every node still computes the same, in-range answer.
     */
    public final int neighbours(
        final int self, final int source, final RankSet excluded, final int clusterSize, final int[] out)
    {
        if (self < 0 || self >= clusterSize || source < 0 || source >= clusterSize)
        {
            return 0;
        }
        final int n = Participants.count(clusterSize, excluded);
        if (n <= 1)
        {
            return 0;
        }
        final int sourceIndex = Participants.indexOf(source, excluded);
        return neighboursOfLabel(Participants.labelOf(self, sourceIndex, n, excluded), sourceIndex, n, excluded, out);
    }

    /**
     * @param label       this participant's label, 0 for the source.
     * @param sourceIndex the source's index among the participants, for {@link Participants#rankOfLabel}.
     * @param n           number of participants, at least 2.
     * @param excluded    D_msg, ascending.
     * @param out         destination ranks are written from index 0.
     * @return the number of ranks written.
     */
    abstract int neighboursOfLabel(int label, int sourceIndex, int n, RankSet excluded, int[] out);
}
