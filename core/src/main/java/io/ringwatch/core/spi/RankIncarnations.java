package io.ringwatch.core.spi;

/**
 * A read-only, sparse map from rank to incarnation, ranks ascending: only ranks whose incarnation is not the boot
 * incarnation 0 are listed, so a view of a 256k-node cluster where a handful of ranks rejoined holds a handful of
 * entries.
 */
public interface RankIncarnations
{
    /**
     * @return number of listed ranks.
     */
    int size();

    /**
     * @param index in {@code [0, size())}.
     * @return the listed rank at that position, ascending.
     */
    int rankAt(int index);

    /**
     * @param index in {@code [0, size())}.
     * @return the incarnation of {@link #rankAt(int) rankAt(index)}.
     */
    long incarnationAt(int index);

    /**
     * @param rank any rank.
     * @return its incarnation, 0 if it is not listed.
     */
    long incarnationOf(int rank);
}
