package io.ringwatch.core.spi;

/**
 * A read-only, ascending set of ranks. Index access lets broadcast schedules relabel participants
 * without materialising the complement set, which matters at 256k nodes.
 */
public interface RankSet
{
    /**
     * @return number of ranks in the set.
     */
    int size();

    /**
     * @param index in {@code [0, size())}.
     * @return the rank at that position, ranks ascending.
     */
    int rankAt(int index);

    /**
     * @param rank to look up.
     * @return true if the rank is in the set.
     */
    boolean contains(int rank);

    /**
     * Number of members strictly below {@code rank}: the rank's shift when the set is removed from 0..N-1.
     *
     * @param rank bound, exclusive.
     * @return count of members less than {@code rank}.
     */
    default int countBelow(final int rank)
    {
        int lo = 0;
        int hi = size();
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (rankAt(mid) < rank)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }
}
