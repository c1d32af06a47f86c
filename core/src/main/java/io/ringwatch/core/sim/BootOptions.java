package io.ringwatch.core.sim;

import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.StartIncarnation;

import static io.ringwatch.core.sim.Options.require;

/**
 * How the nodes start and come back: the boot mode, the seeds and the spread of the other ranks' starts, the
 * start jitter, and restarts under a new incarnation. Set through {@link SimConfig}.
 */
public final class BootOptions
{
    BootMode mode = BootMode.MEMBERS;
    int seeds = -1;
    long startSpreadNs;
    boolean startJitter = true;
    long restartAfterNs = -1;
    int restartIncarnationStep = 1;

    BootOptions copy()
    {
        final BootOptions copy = new BootOptions();
        copy.mode = mode;
        copy.seeds = seeds;
        copy.startSpreadNs = startSpreadNs;
        copy.startJitter = startJitter;
        copy.restartAfterNs = restartAfterNs;
        copy.restartIncarnationStep = restartIncarnationStep;
        return copy;
    }

    void conclude(final int nodes)
    {
        require(mode != null, "boot mode must be set");
        if (seeds < 0)
        {
            seeds = BootSeeds.defaultFor(nodes);
        }
        require(seeds >= 1 && seeds <= nodes, "seeds must be in [1, " + nodes + "]: " + seeds);
        require(startSpreadNs >= 0, "start spread must be >= 0: " + startSpreadNs + "ns");
        require(restartIncarnationStep >= 0, "restart incarnation step must be >= 0: " + restartIncarnationStep);
    }

    /**
     * How a life of {@code rank} enters the cluster: by the runtime's rule ({@link BootPlan#decide}), from what the
     * runtime would know (a restart has run before), with the seeds of {@link #planSeeds}. A restart under the boot
     * incarnation 0 (the broken step 0 of {@link #restartIncarnationStep()} in a cluster booted as members) cannot
     * join, as every member already assumes that life: it takes part at once, as a member.
     *
     * @param rank        the rank.
     * @param nodes       N.
     * @param restart     a life after one that stopped, not the rank's first.
     * @param incarnation the new life's incarnation.
     * @return the plan.
     */
    BootPlan plan(final int rank, final int nodes, final boolean restart, final long incarnation)
    {
        return restart && incarnation == 0 ?
            BootPlan.MEMBER : BootPlan.decide(rank, planSeeds(nodes), nodes, false, restart);
    }

    /**
     * The incarnation of a rank's new life: a joiner's by the runtime's rule ({@link StartIncarnation#next}; virtual
     * time has no wall clock, so the last one + 1, which makes a first life under start = join incarnation 1), a late
     * member's the boot incarnation 0; a restart under a broken step ({@link #restartIncarnationStep()} other than 1)
     * adds that step instead.
     *
     * @param previous the rank's incarnation so far, 0 before its first life.
     * @param restart  a life after one that stopped, not the rank's first.
     * @return the new life's incarnation.
     */
    long incarnation(final long previous, final boolean restart)
    {
        if (restart && restartIncarnationStep != 1)
        {
            return previous + restartIncarnationStep;
        }
        return restart || mode == BootMode.JOIN ? StartIncarnation.next(previous, 0) : previous;
    }

    /**
     * @param nodes N.
     * @return the seeds as {@link BootPlan} takes them: under {@link BootMode#JOIN} the seeds, else N (every rank a
     * member from the start, as the runtime boots with seeds = N).
     */
    int planSeeds(final int nodes)
    {
        return mode == BootMode.JOIN ? seeds : nodes;
    }

    /**
     * @return how the cluster starts: {@link BootMode#MEMBERS}, {@link BootMode#JOIN} (start = join) or the broken
     * {@link BootMode#LATE_MEMBERS}, for negative controls.
     */
    public BootMode mode()
    {
        return mode;
    }

    /**
     * @return the seeds, the first ranks, once concluded.
     */
    public int seeds()
    {
        return seeds;
    }

    /**
     * @return the spread of the start times of the ranks that are no seeds.
     */
    public long startSpreadNs()
    {
        return startSpreadNs;
    }

    /**
     * @return whether each node starts at a random offset within one heartbeat period.
     */
    public boolean startJitter()
    {
        return startJitter;
    }

    /**
     * Every node that stops (crash, leave or exclusion) restarts this long after, under a new incarnation, through
     * the join protocol.
     *
     * @return delay from a stop to its restart, or a value &lt;= 0 for no restarts.
     */
    public long restartAfterNs()
    {
        return restartAfterNs;
    }

    /**
     * @return what a restart adds to the incarnation: 1, the rule; 0 breaks it (a restart reuses its incarnation),
     * and such a joiner must never be admitted.
     */
    public int restartIncarnationStep()
    {
        return restartIncarnationStep;
    }
}
