package io.ringwatch.core.broadcast;

import io.ringwatch.core.spi.RankSet;

/**
 * The double hypercube broadcast of paper 002, Section 2. With n participants labelled from the source and
 * {@code k = ⌊log₂ n⌋}, cube H1 holds labels {@code c} and cube H2 labels {@code (n - c) mod n}, for coordinates
 * {@code c < 2^k}; two members of a cube are adjacent when their coordinates differ in one bit. Each cube is a
 * k-dimensional hypercube Q_k with the source at coordinate 0, and together they cover all n participants
 * ({@code 2^k > n / 2}).
 * <p>
 * <b>Rule.</b> On first receipt a participant sends to all its cube neighbours, in both cubes if it belongs to
 * both. The edges of the binomial spanning tree rooted at the source go first (coordinate {@code c}'s children are
 * {@code c | 2^b} for every {@code b} below its lowest set bit, highest dimension first), then the other cube
 * edges; a node in both cubes lists H1's tree edges, H2's, then H1's other edges, then H2's. Without failures
 * H1's tree alone finishes in k one-port steps (coordinate c is reached at step {@code k - lowestSetBit(c)});
 * the other edges carry the redundancy.
 * <p>
 * <b>Why k-1 failures cannot stop it.</b> Take a target coordinate {@code t} with p bits set, {@code b_1..b_p}.
 * For each set bit {@code b_i} there is a path of length p that flips {@code b_i, b_i+1, ..., b_p, b_1, ...,
 * b_i-1} in that cyclic order; its j-th inner vertex holds the j bits of a cyclic run starting at {@code b_i}, so
 * two such paths never share a vertex. For each of the k-p clear bits {@code z} there is a path of length p+2 that
 * sets {@code z}, flips {@code b_1..b_p}, then clears {@code z}; all its inner vertices contain {@code z}, which no
 * other path's inner vertices do. That gives k internally vertex-disjoint paths from the source to every vertex
 * (Q_k's vertex connectivity is k), so k-1 vertices dying during the broadcast leave at least one path whole, of
 * length at most {@code p + 2 <= k + 1} (or exactly k when {@code p = k}): the fault diameter bound.
 * <p>
 * Flooding uses every surviving path: by induction on the hops, a live vertex at distance d from the source in
 * the cube minus the dead vertices receives by hop d, because its predecessor on a shortest surviving path
 * received by hop d-1 and then sent on all its cube edges. So each cube, on its own, reaches every live member
 * within k+1 hops when at most k-1 of its members fail during the broadcast; the union reaches everyone when each
 * cube loses at most k-1 members, in particular for any k-1 failures overall. Receipt through the other cube only
 * makes a vertex forward earlier, and a participant that dies after forwarding part of its list only helps.
 * <p>
 * Cost: every participant sends one copy per distinct neighbour but the one it first heard from, of at most
 * {@code 2k}. H2 shares many edges with H1, so fewer in practice: 19 per participant at {@code n = 2^18}
 * (k = 18), 8.2 at n = 1000.
 */
public final class DoubleHypercubeSchedule extends LabelledSchedule
{
    private static final int NOT_IN_CUBE = -1;

    public int maxFanout(final int clusterSize)
    {
        return 2 * Math.max(1, Participants.floorLog2(Math.max(1, clusterSize)));
    }

    int neighboursOfLabel(final int label, final int sourceIndex, final int n, final RankSet excluded, final int[] out)
    {
        final int k = Participants.floorLog2(n);
        final int cubeSize = 1 << k;
        final int c1 = label < cubeSize ? label : NOT_IN_CUBE;
        final int negated = label == 0 ? 0 : n - label;
        final int c2 = negated < cubeSize ? negated : NOT_IN_CUBE;
        final int lowest1 = lowestSetBit(c1, k);
        final int lowest2 = lowestSetBit(c2, k);

        // Bits below a coordinate's lowest set bit lead to its binomial-tree children, the others to the rest.
        int count = 0;
        count = addEdges(c1, false, lowest1, 0, c1, n, cubeSize, sourceIndex, excluded, out, count);
        count = addEdges(c2, true, lowest2, 0, c1, n, cubeSize, sourceIndex, excluded, out, count);
        count = addEdges(c1, false, k, lowest1, c1, n, cubeSize, sourceIndex, excluded, out, count);
        count = addEdges(c2, true, k, lowest2, c1, n, cubeSize, sourceIndex, excluded, out, count);
        return count;
    }

    private static int lowestSetBit(final int coordinate, final int k)
    {
        return coordinate == 0 ? k : Integer.numberOfTrailingZeros(coordinate);
    }

    /**
     * Appends the neighbours across dimensions {@code [lowBit, highBit)}, highest first. Edges within one cube
     * never repeat; an H2 neighbour repeats an H1 one exactly when this node is in H1 and that label is its H1
     * neighbour too, which is checked in O(1) instead of scanning {@code out}.
     *
     * @param coordinate this node's position in the cube, or {@link #NOT_IN_CUBE}.
     * @param mirrored   true for H2, where coordinate {@code c} is label {@code (n - c) mod n}.
     * @param selfInH1   this node's H1 coordinate, or {@link #NOT_IN_CUBE}.
     */
    private static int addEdges(
        final int coordinate,
        final boolean mirrored,
        final int highBit,
        final int lowBit,
        final int selfInH1,
        final int n,
        final int cubeSize,
        final int sourceIndex,
        final RankSet excluded,
        final int[] out,
        final int count)
    {
        if (coordinate == NOT_IN_CUBE)
        {
            return count;
        }
        int written = count;
        for (int bit = highBit - 1; bit >= lowBit; bit--)
        {
            final int neighbour = coordinate ^ (1 << bit);
            final int label = mirrored ? (neighbour == 0 ? 0 : n - neighbour) : neighbour;
            final boolean listedViaH1 =
                mirrored && selfInH1 != NOT_IN_CUBE && label < cubeSize && Integer.bitCount(label ^ selfInH1) == 1;
            if (!listedViaH1)
            {
                out[written++] = Participants.rankOfLabel(label, sourceIndex, n, excluded);
            }
        }
        return written;
    }
}
