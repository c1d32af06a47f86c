package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.Theorem1;

/**
 * An upper bound on stabilization time that the simulator checks each run against.
 */
@FunctionalInterface
public interface StabilizationBound
{
    /**
     * {@link Theorem1}: T(f) ≤ f(f+1)δ + fτ + f(f+1)/2 · 8τ log₂ n, for f ≤ ⌊log₂ n⌋ − 1.
     */
    StabilizationBound THEOREM_1 = Theorem1::boundNs;

    /**
     * @param failures   f, crashes between the first one and stabilization.
     * @param aliveNodes n, nodes alive before the first crash.
     * @param deltaNs    δ.
     * @param tauNs      τ.
     * @return the bound in nanoseconds.
     */
    long boundNs(int failures, int aliveNodes, long deltaNs, long tauNs);
}
