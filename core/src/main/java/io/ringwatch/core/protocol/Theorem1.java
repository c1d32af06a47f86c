package io.ringwatch.core.protocol;

/**
 * Theorem 1 of paper 002, in one place for the simulator's checker and the risk model: with the one-port model and
 * η ≥ 3τ, a cluster of n nodes hit by f ≤ ⌊log₂ n⌋ − 1 overlapping failures is stable again within
 * <pre>
 *   T(f) = f(f+1)δ + fτ + f(f+1)/2 · B(n),   B(n) = 8τ log₂ n
 * </pre>
 * where B(n) bounds one broadcast over the double hypercube.
 */
public final class Theorem1
{
    private static final double LN_2 = Math.log(2);

    private Theorem1()
    {
    }

    /**
     * @param n nodes alive before the first failure.
     * @return M = ⌊log₂ n⌋ − 1, the most overlapping failures the theorem covers; 0 for n below 4.
     */
    public static int maxTolerated(final int n)
    {
        return n < 2 ? 0 : Math.max(0, (31 - Integer.numberOfLeadingZeros(n)) - 1);
    }

    /**
     * @param failures f.
     * @param n        nodes alive before the first failure.
     * @return true when 1 ≤ f ≤ ⌊log₂ n⌋ − 1.
     */
    public static boolean applies(final int failures, final int n)
    {
        return failures >= 1 && n >= 2 && failures <= maxTolerated(n);
    }

    /**
     * T(f) in any one unit of time: δ and τ in seconds give seconds.
     *
     * @param failures f.
     * @param n        nodes alive before the first failure.
     * @param delta    δ.
     * @param tau      τ.
     * @return the bound, same unit as δ and τ.
     */
    public static double bound(final int failures, final int n, final double delta, final double tau)
    {
        final double f = failures;
        return f * (f + 1) * delta + f * tau + f * (f + 1) / 2.0 * broadcast(n, tau);
    }

    /**
     * @param failures f.
     * @param n        nodes alive before the first failure.
     * @param deltaNs  δ.
     * @param tauNs    τ.
     * @return T(f) in nanoseconds, rounded up.
     */
    public static long boundNs(final int failures, final int n, final long deltaNs, final long tauNs)
    {
        return (long)Math.ceil(bound(failures, n, deltaNs, tauNs));
    }

    /**
     * @param n   participants.
     * @param tau τ.
     * @return B(n) = 8τ log₂ n, same unit as τ.
     */
    public static double broadcast(final int n, final double tau)
    {
        return 8.0 * tau * (Math.log(n) / LN_2);
    }
}
