package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankSet;

/**
 * A frame that carries a rank set as runs of consecutive ranks (notice, VIEW, PROCESS_FAILURE): {@link #writeRuns}
 * compresses the set the same way for all of them, into maximal runs, so each set has one encoding.
 *
 * @param <T> the flyweight, returned by {@link #range} for a fluent API.
 */
interface RunWriter<T>
{
    /**
     * @param index     of the run, from 0.
     * @param firstRank first rank of the run.
     * @param length    number of consecutive ranks.
     * @return the flyweight for a fluent API.
     */
    T range(int index, int firstRank, int length);

    /**
     * Write {@code set} as maximal runs from run 0.
     *
     * @param set ascending ranks, as validated by the encoder.
     * @return number of runs written, 0 for an empty set.
     */
    default int writeRuns(final RankSet set)
    {
        final int size = set.size();
        if (size == 0)
        {
            return 0;
        }
        int runs = 0;
        int first = set.rankAt(0);
        int previous = first;
        for (int i = 1; i < size; i++)
        {
            final int rank = set.rankAt(i);
            if (rank != previous + 1)
            {
                range(runs++, first, previous - first + 1);
                first = rank;
            }
            previous = rank;
        }
        range(runs++, first, previous - first + 1);
        return runs;
    }
}
