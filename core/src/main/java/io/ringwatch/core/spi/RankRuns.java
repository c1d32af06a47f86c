package io.ringwatch.core.spi;

/**
 * A rank set written as runs of consecutive ranks, as frames carry D_msg and a view's dead set: run {@code i} holds
 * {@code rangeFirstRank(i) .. rangeFirstRank(i) + rangeLength(i) - 1}. Implemented by the flyweights of those frames so
 * that {@link RankArray#setRuns} expands any of them with one loop.
 */
public interface RankRuns
{
    /**
     * @return number of runs.
     */
    int rangeCount();

    /**
     * @param index of the run, in {@code [0, rangeCount())}.
     * @return its first rank.
     */
    int rangeFirstRank(int index);

    /**
     * @param index of the run, in {@code [0, rangeCount())}.
     * @return its number of ranks.
     */
    int rangeLength(int index);

    /**
     * A linear scan of the runs, for a decoder that must check membership before it expands them.
     *
     * @param rank to look for.
     * @return true if a run holds it.
     */
    default boolean runsHold(final int rank)
    {
        for (int i = 0, count = rangeCount(); i < count; i++)
        {
            final int first = rangeFirstRank(i);
            if (rank >= first && rank - first < rangeLength(i))
            {
                return true;
            }
        }
        return false;
    }
}
