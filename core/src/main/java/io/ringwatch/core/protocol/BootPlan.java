package io.ringwatch.core.protocol;

/**
 * How a node enters its cluster (start = join, see {@code docs/membership.md}): decided here from what the runtime
 * knows about the rank, so the live agent and every launcher start a node by the same rule, and carried out on the
 * node through its public entry points.
 */
public enum BootPlan
{
    /** Every rank is a seed: all take part at once as members of the whole cluster ({@link DetectorNode#start}). */
    MEMBER,
    /**
     * A seed of a cluster that boots through joins: the seeds form the membership, every other rank is held not yet
     * admitted until it joins ({@link DetectorNode#bootAsSeed}).
     */
    SEED,
    /**
     * A rank that is no seed, at its first start with the seeds: it asks at once, within everyone's startup grace
     * ({@link DetectorNode#joinAtBoot}).
     */
    JOIN_AT_BOOT,
    /**
     * A restarted rank, or one told to join: it asks to be admitted under its new incarnation once its own grace is
     * over ({@link DetectorNode#join(long, int)}).
     */
    JOIN;

    /**
     * @param rank        the rank.
     * @param seeds       the seeds: ranks below this form the first membership.
     * @param clusterSize N.
     * @param joinAsked   the operator asked it to join (a restart the runtime could not recognise itself).
     * @param ranBefore   this rank has run under this cluster before here (its incarnation file exists): a restart,
     *                    for a seed as for any other rank, so one command line serves a first boot and every restart.
     * @return the plan.
     */
    public static BootPlan decide(
        final int rank, final int seeds, final int clusterSize, final boolean joinAsked, final boolean ranBefore)
    {
        if (joinAsked || ranBefore)
        {
            return JOIN;
        }
        if (rank >= seeds)
        {
            return JOIN_AT_BOOT;
        }
        return seeds < clusterSize ? SEED : MEMBER;
    }

    /**
     * @return true if the node asks to be admitted before it takes part.
     */
    public boolean joins()
    {
        return this == JOIN || this == JOIN_AT_BOOT;
    }

    /**
     * Start {@code node} by this plan, before its first duty cycle.
     *
     * @param node  the node, built and not yet started.
     * @param seeds the seeds.
     * @param nowNs protocol time.
     */
    public void start(final DetectorNode node, final int seeds, final long nowNs)
    {
        switch (this)
        {
            case MEMBER -> node.start(nowNs);
            case SEED -> node.bootAsSeed(seeds, nowNs);
            case JOIN_AT_BOOT -> node.joinAtBoot(nowNs, seeds);
            case JOIN -> node.join(nowNs, seeds);
        }
    }
}
