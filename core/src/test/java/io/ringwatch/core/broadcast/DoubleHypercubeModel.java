package io.ringwatch.core.broadcast;

/**
 * DESIGN.md's definition of the two cubes, written out independently of the production code: with
 * {@code k = ⌊log₂ n⌋}, H1 holds label {@code c} at coordinate {@code c} and H2 holds label {@code (n - c) mod n}
 * at coordinate {@code c}, for {@code c < 2^k}.
 */
final class DoubleHypercubeModel
{
    static final int H1 = 1;
    static final int H2 = 2;
    static final int NOT_IN_CUBE = -1;

    private final int n;
    private final int k;
    private final int[] coordinateInH1;
    private final int[] coordinateInH2;

    DoubleHypercubeModel(final int n)
    {
        this.n = n;
        int dimensions = 0;
        while ((2L << dimensions) <= n)
        {
            dimensions++;
        }
        this.k = dimensions;
        coordinateInH1 = new int[n];
        coordinateInH2 = new int[n];
        for (int label = 0; label < n; label++)
        {
            coordinateInH1[label] = label < (1 << k) ? label : NOT_IN_CUBE;
            final int c = (n - label) % n;
            coordinateInH2[label] = c < (1 << k) ? c : NOT_IN_CUBE;
        }
    }

    int dimensions()
    {
        return k;
    }

    /**
     * @return coordinate of {@code label} in {@code cube}, or {@link #NOT_IN_CUBE}.
     */
    int coordinate(final int cube, final int label)
    {
        return cube == H1 ? coordinateInH1[label] : coordinateInH2[label];
    }

    int label(final int cube, final int coordinate)
    {
        return cube == H1 ? coordinate : (n - coordinate) % n;
    }

    boolean contains(final int cube, final int label)
    {
        return coordinate(cube, label) != NOT_IN_CUBE;
    }

    boolean adjacent(final int cube, final int fromLabel, final int toLabel)
    {
        final int a = coordinate(cube, fromLabel);
        final int b = coordinate(cube, toLabel);
        return a != NOT_IN_CUBE && b != NOT_IN_CUBE && Integer.bitCount(a ^ b) == 1;
    }

    boolean adjacentInEither(final int fromLabel, final int toLabel)
    {
        return adjacent(H1, fromLabel, toLabel) || adjacent(H2, fromLabel, toLabel);
    }

    /**
     * @return number of distinct labels adjacent to {@code label} in H1 or H2.
     */
    int degree(final int label)
    {
        int degree = 0;
        final int c1 = coordinate(H1, label);
        for (int bit = 0; c1 != NOT_IN_CUBE && bit < k; bit++)
        {
            degree++;
        }
        final int c2 = coordinate(H2, label);
        for (int bit = 0; c2 != NOT_IN_CUBE && bit < k; bit++)
        {
            final int other = label(H2, c2 ^ (1 << bit));
            if (!adjacent(H1, label, other))
            {
                degree++;
            }
        }
        return degree;
    }
}
