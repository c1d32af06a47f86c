package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * The double hypercube of paper 002: with n participants labelled from the source ({@code label = (index -
 * index(source)) mod n}) and {@code k = ⌊log₂ n⌋}, cube H1 holds labels {@code c} and cube H2 labels
 * {@code (n - c) mod n} for coordinates {@code c < 2^k}. Together they cover all n participants.
 * <p>
 * Within each cube a participant floods all k cube edges on first receipt. A k-cube stays connected with up to
 * k-1 missing vertices (its connectivity is k), so the broadcast reaches every live participant of the cube as
 * long as at most k-1 of them die meanwhile, each within k+1 hops (the fault diameter of the cube). Edges of
 * the binomial spanning tree rooted at the source go first, highest dimension first: in the failure-free case
 * the tree alone completes the broadcast in k one-port steps, and the other edges only add redundancy.
 */
public final class DoubleHypercubeSchedule implements BroadcastSchedule
{
    public int maxFanout(final int clusterSize)
    {
        return 2 * Math.max(1, Participants.floorLog2(clusterSize));
    }

    public int neighbours(
        final int self, final int source, final RankSet excluded, final int clusterSize, final int[] out)
    {
        final int n = Participants.count(clusterSize, excluded);
        if (n <= 1)
        {
            return 0;
        }

        final int k = Participants.floorLog2(n);
        final int cubeSize = 1 << k;
        final int sourceIndex = Participants.indexOf(source, excluded);
        final int label = Math.floorMod(Participants.indexOf(self, excluded) - sourceIndex, n);
        final int c1 = label < cubeSize ? label : -1;
        final int mirrored = (n - label) % n;
        final int c2 = mirrored < cubeSize ? mirrored : -1;

        int count = 0;
        count = addTreeChildren(c1, false, k, n, sourceIndex, excluded, out, count);
        count = addTreeChildren(c2, true, k, n, sourceIndex, excluded, out, count);
        count = addOtherEdges(c1, false, k, n, sourceIndex, excluded, out, count);
        count = addOtherEdges(c2, true, k, n, sourceIndex, excluded, out, count);
        return count;
    }

    private static int addTreeChildren(
        final int coordinate,
        final boolean mirrored,
        final int k,
        final int n,
        final int sourceIndex,
        final RankSet excluded,
        final int[] out,
        final int count)
    {
        if (coordinate < 0)
        {
            return count;
        }
        int written = count;
        final int lowestSetBit = coordinate == 0 ? k : Integer.numberOfTrailingZeros(coordinate);
        for (int bit = lowestSetBit - 1; bit >= 0; bit--)
        {
            written = add(coordinate | (1 << bit), mirrored, n, sourceIndex, excluded, out, written);
        }
        return written;
    }

    private static int addOtherEdges(
        final int coordinate,
        final boolean mirrored,
        final int k,
        final int n,
        final int sourceIndex,
        final RankSet excluded,
        final int[] out,
        final int count)
    {
        if (coordinate < 0)
        {
            return count;
        }
        int written = count;
        final int lowestSetBit = coordinate == 0 ? k : Integer.numberOfTrailingZeros(coordinate);
        for (int bit = k - 1; bit >= lowestSetBit; bit--)
        {
            written = add(coordinate ^ (1 << bit), mirrored, n, sourceIndex, excluded, out, written);
        }
        return written;
    }

    private static int add(
        final int coordinate,
        final boolean mirrored,
        final int n,
        final int sourceIndex,
        final RankSet excluded,
        final int[] out,
        final int count)
    {
        final int label = mirrored ? (n - coordinate) % n : coordinate;
        final int rank = Participants.rankAt((label + sourceIndex) % n, excluded);
        for (int i = 0; i < count; i++)
        {
            if (out[i] == rank)
            {
                return count;
            }
        }
        out[count] = rank;
        return count + 1;
    }
}
