package io.ringwatch.core.config;

import java.util.Locale;

/**
 * What a node does when the network splits the cluster ({@code ringwatch.partition.policy}).
 */
public enum PartitionPolicy
{
    /**
     * A node that cannot count a strict majority of the settled membership alive stops itself (ties: the half
     * holding the lowest live rank goes on). Suspicions are confirmed by probes before they become notices, so a
     * node that cannot hear accuses nobody, and a notice or fence whose dead set leaves no majority is never merged.
     * At most one side survives a partition, so no split brain.
     */
    MAJORITY,
    /**
     * The paper's behaviour: a suspicion is a notice at once and every side of a partition goes on with the nodes
     * it can reach. Two sides that hold each other dead both keep running (split brain) and never fence each other.
     */
    NONE;

    /**
     * @param name {@code majority} or {@code none}, any case.
     * @return the policy.
     * @throws IllegalArgumentException naming the value for anything else.
     */
    public static PartitionPolicy parse(final String name)
    {
        for (final PartitionPolicy policy : values())
        {
            if (policy.name().equalsIgnoreCase(name.trim()))
            {
                return policy;
            }
        }
        throw new IllegalArgumentException("bad partition policy '" + name + "' (expected majority or none)");
    }

    /**
     * @return the name as written in properties and flags.
     */
    public String toString()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
