package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * The binomial graph (BMG) broadcast of paper 001, its Algorithm 1 (after Angskun, Bosilca and Dongarra's BMG
 * topology): participant {@code i} of n is linked to {@code (i + 2^j) mod n} and {@code (i - 2^j) mod n} for
 * {@code j = 0..⌈log₂ n⌉-1}, and on first receipt sends to all its links. (The paper's loop "for k from 0 to
 * log₂ N" reads the same way: one more step would only add {@code i ± n ≡ i}, the node itself.)
 * <p>
 * Participants are the ranks not in D_msg, labelled from the source like {@link DoubleHypercubeSchedule}. A
 * circulant graph is invariant under that rotation, so the links are exactly the paper's; only the order
 * depends on the source. As the paper asks, the edges of a binomial spanning tree rooted at the source go first:
 * label {@code c}'s children are {@code c + 2^j < n} for every {@code j} below its lowest set bit, highest first,
 * so without failures the tree alone finishes in {@code ⌈log₂ n⌉} one-port steps. The other links follow in the
 * paper's order ({@code +2^j, -2^j} for ascending {@code j}); a {@code -2^j} link that coincides with a
 * {@code +2^i} one is listed once, on the {@code +2^i} turn.
 * <p>
 * <b>Fault tolerance.</b> The degree d is {@code 2⌈log₂ n⌉} less the coinciding links: {@code i + 2^a ≡ i - 2^b}
 * exactly when {@code n = 2^a + 2^b}, so d is {@code 2⌈log₂ n⌉ - 1} for n a power of two, {@code 2⌈log₂ n⌉ - 2}
 * for n a sum of two distinct powers of two, {@code 2⌈log₂ n⌉} otherwise.
 * Angskun et al. show the BMG optimally connected (vertex connectivity equal to d), so flooding reaches every live
 * participant as long as at most {@code d - 1} participants fail during the broadcast: about twice what a cube
 * of the double hypercube tolerates, for up to twice its messages (d - 1 per participant, against 19 for the
 * double hypercube at {@code n = 2^18}). See
 * {@link #faultTolerance(int)}; the tests check it exhaustively for every n up to 16 and on random adversarial
 * failure sets up to 4096.
 */
public final class BinomialGraphSchedule extends LabelledSchedule
{
    public int maxFanout(final int clusterSize)
    {
        return 2 * Math.max(1, Participants.ceilLog2(Math.max(1, clusterSize)));
    }

    /**
     * @param n number of participants, positive.
     * @return how many participants may fail during a broadcast while every other live one is still reached: the
     * BMG degree minus one.
     */
    public static int faultTolerance(final int n)
    {
        if (n <= 1)
        {
            return 0;
        }
        final int m = Participants.ceilLog2(n);
        final int bits = Integer.bitCount(n);
        final int coinciding = bits == 1 ? 1 : bits == 2 ? 2 : 0;
        return 2 * m - coinciding - 1;
    }

    int neighboursOfLabel(final int label, final int sourceIndex, final int n, final RankSet excluded, final int[] out)
    {
        final int m = Participants.ceilLog2(n);

        // Binomial-tree children first: the +2^j links below this label's lowest set bit that stay below n.
        int count = 0;
        final int treeDimensions = label == 0 ? m : Integer.numberOfTrailingZeros(label);
        for (int j = treeDimensions - 1; j >= 0; j--)
        {
            final int child = label + (1 << j);
            if (child < n)
            {
                count = add(child, sourceIndex, n, excluded, out, count);
            }
        }

        // Then the rest. The +2^j links are distinct (0 < 2^j < n); -2^j coincides with +(n - 2^j) exactly when
        // n - 2^j is a power of two, and that link is listed on its own turn, so no scan of out is needed.
        for (int j = 0; j < m; j++)
        {
            final int step = 1 << j;
            final int up = label + step;
            if (j >= treeDimensions || up >= n)
            {
                count = add(up >= n ? up - n : up, sourceIndex, n, excluded, out, count);
            }
            if (Integer.bitCount(n - step) != 1)
            {
                final int down = label - step;
                count = add(down < 0 ? down + n : down, sourceIndex, n, excluded, out, count);
            }
        }
        return count;
    }

    private static int add(
        final int label, final int sourceIndex, final int n, final RankSet excluded, final int[] out, final int count)
    {
        out[count] = Participants.rankOfLabel(label, sourceIndex, n, excluded);
        return count + 1;
    }
}
