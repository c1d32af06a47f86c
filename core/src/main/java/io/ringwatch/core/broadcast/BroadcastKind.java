package io.ringwatch.core.broadcast;

import java.util.Locale;

/**
 * The broadcast schedules a cluster can run. Every node of a cluster must use the same one: each computes its
 * forwarding targets from the notice alone, and two schedules do not reach each other's participants.
 */
public enum BroadcastKind
{
    /** Paper 002: two overlapping ⌊log₂ n⌋-cubes, flooded over cube edges; the default. */
    DOUBLE_HYPERCUBE("double-hypercube")
    {
        public BroadcastSchedule newSchedule()
        {
            return new DoubleHypercubeSchedule();
        }
    },
    /** Paper 001: the binomial graph of resilient PRRTE. */
    BINOMIAL_GRAPH("binomial-graph")
    {
        public BroadcastSchedule newSchedule()
        {
            return new BinomialGraphSchedule();
        }
    };

    private final String configName;

    BroadcastKind(final String configName)
    {
        this.configName = configName;
    }

    /**
     * @return a new schedule of this kind; schedules keep no per-broadcast state, one per node is enough.
     */
    public abstract BroadcastSchedule newSchedule();

    /**
     * @return the name used in properties, cluster files and command lines.
     */
    public String configName()
    {
        return configName;
    }

    /**
     * @param name a {@link #configName()}, case-insensitive.
     * @return the kind.
     * @throws IllegalArgumentException naming the accepted values.
     */
    public static BroadcastKind parse(final String name)
    {
        for (final BroadcastKind kind : values())
        {
            if (kind.configName.equalsIgnoreCase(name.trim()))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown broadcast '" + name + "': expected double-hypercube or " +
            "binomial-graph");
    }

    /**
     * @return the config name.
     */
    public String toString()
    {
        return configName.toLowerCase(Locale.ROOT);
    }
}
