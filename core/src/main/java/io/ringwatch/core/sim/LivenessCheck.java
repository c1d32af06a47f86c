package io.ringwatch.core.sim;

import java.util.List;

/**
 * Liveness and its bound: after the first failure the configuration becomes stable before the time cap, and within
 * the stabilization bound where Theorem 1's model holds.
 */
public final class LivenessCheck
{
    private LivenessCheck()
    {
    }

    /**
     * Liveness: after the first failure, the configuration becomes stable before the time cap.
     *
     * @param stable       whether it was stable at the end.
     * @param timeCapNs    the cap.
     * @param firstFailureNs when the first failure happened.
     * @param unsettled    live nodes not stable at the end.
     * @param live         live nodes.
     * @param seed         for the message.
     * @param out          a violation is appended here if not stable.
     */
    public static void check(
        final boolean stable,
        final long timeCapNs,
        final long firstFailureNs,
        final int unsettled,
        final int live,
        final long seed,
        final List<String> out)
    {
        if (!stable)
        {
            out.add("seed=" + seed + ": liveness: not stable at the time cap " + timeCapNs + "ns (first failure at " +
                firstFailureNs + "ns, " + unsettled + " of " + live + " live nodes unsettled)");
        }
    }

    /**
     * @param stabilizationNs measured stabilization time.
     * @param boundNs         the bound.
     * @param failures        f it was computed for.
     * @param aliveNodes      n it was computed for.
     * @param seed            for the message.
     * @param out             a violation is appended here if the bound was exceeded.
     * @return true if within the bound.
     */
    public static boolean checkBound(
        final long stabilizationNs,
        final long boundNs,
        final int failures,
        final int aliveNodes,
        final long seed,
        final List<String> out)
    {
        if (stabilizationNs <= boundNs)
        {
            return true;
        }
        out.add("seed=" + seed + ": bound: stabilization took " + stabilizationNs + "ns > bound " + boundNs +
            "ns for f=" + failures + ", n=" + aliveNodes);
        return false;
    }
}
