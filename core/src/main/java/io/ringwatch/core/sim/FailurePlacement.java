package io.ringwatch.core.sim;

/**
 * Where and when the simulator injects crashes, on top of any scripted {@link Injection}s.
 */
public enum FailurePlacement
{
    /** Only the scripted injections. */
    SCRIPTED,
    /** f crashes at distinct random ranks, all within the crash window. */
    RANDOM,
    /** f crashes on consecutive ranks, all within the crash window: the paper's worst case. */
    CONTIGUOUS,
    /**
     * Crashes arriving as a Poisson process of rate λ = n/μ_ind at random live ranks, starting with one at the
     * first-failure time, until the configuration is stable again or f crashes have happened.
     */
    EXPONENTIAL;

    /**
     * @param name case-insensitive name.
     * @return the placement.
     * @throws IllegalArgumentException naming the accepted values.
     */
    public static FailurePlacement parse(final String name)
    {
        for (final FailurePlacement placement : values())
        {
            if (placement.name().equalsIgnoreCase(name))
            {
                return placement;
            }
        }
        throw new IllegalArgumentException(
            "unknown placement '" + name + "' (expected scripted, random, contiguous or exponential)");
    }
}
