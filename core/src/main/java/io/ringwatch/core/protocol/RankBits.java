package io.ringwatch.core.protocol;

/**
 * One bit per rank of the cluster file, in a plain {@code long[]}: which ranks answered a probe session or a re-form
 * poll, each counted once however often it answers. The arrays are made once per node, so counting allocates nothing.
 */
final class RankBits
{
    private RankBits()
    {
    }

    /**
     * @param clusterSize N.
     * @return bits for every rank, all clear.
     */
    static long[] forCluster(final int clusterSize)
    {
        return new long[(clusterSize + 63) >>> 6];
    }

    static boolean has(final long[] bits, final int r)
    {
        return (bits[r >>> 6] & (1L << r)) != 0;
    }

    /**
     * @return true if {@code r} was not set yet (it is now): its first answer.
     */
    static boolean addFirst(final long[] bits, final int r)
    {
        if (has(bits, r))
        {
            return false;
        }
        bits[r >>> 6] |= 1L << r;
        return true;
    }
}
