package io.ringwatch.core.sim;

/**
 * An upper bound on stabilization time that the simulator checks each run against.
 */
@FunctionalInterface
public interface StabilizationBound
{
    /**
     * Theorem 1 of paper 002 (one-port model, η ≥ 3τ): T(f) ≤ f(f+1)δ + fτ + f(f+1)/2 · B(n) with
     * B(n) = 8τ log₂ n, valid for f ≤ ⌊log₂ n⌋ − 1.
     */
    StabilizationBound THEOREM_1 = (failures, aliveNodes, deltaNs, tauNs) ->
    {
        final double f = failures;
        final double broadcastNs = 8.0 * tauNs * (Math.log(aliveNodes) / Math.log(2));
        return (long)Math.ceil(f * (f + 1) * deltaNs + f * tauNs + f * (f + 1) / 2.0 * broadcastNs);
    };

    /**
     * @param failures   f, crashes between the first one and stabilization.
     * @param aliveNodes n, nodes alive before the first crash.
     * @param deltaNs    δ.
     * @param tauNs      τ.
     * @return the bound in nanoseconds.
     */
    long boundNs(int failures, int aliveNodes, long deltaNs, long tauNs);

    /**
     * @param failures   f.
     * @param aliveNodes n.
     * @return true when Theorem 1 covers this many overlapping failures: 1 ≤ f ≤ ⌊log₂ n⌋ − 1.
     */
    static boolean theoremApplies(final int failures, final int aliveNodes)
    {
        return failures >= 1 && aliveNodes >= 2 && failures <= (31 - Integer.numberOfLeadingZeros(aliveNodes)) - 1;
    }
}
