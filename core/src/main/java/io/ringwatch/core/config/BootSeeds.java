package io.ringwatch.core.config;

/**
 * The seeds of a cluster that boots through joins: the first ranks of the cluster file start as its membership and
 * admit everybody else.
 */
public final class BootSeeds
{
    /**
     * Seeds when none are configured: the first three ranks (fewer in a smaller cluster). One seed would be a single
     * point of failure for the boot and, under the majority rule, M is the seeds until the view settles with the
     * joiners; three survive one seed lost at boot.
     */
    public static final int DEFAULT = 3;

    private BootSeeds()
    {
    }

    /**
     * @param clusterSize N.
     * @return the seeds a node takes when none are configured: {@link #DEFAULT}, at most N.
     */
    public static int defaultFor(final int clusterSize)
    {
        return Math.min(DEFAULT, clusterSize);
    }
}
