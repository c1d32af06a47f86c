package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns the {@link FaultOptions}, the partitions and the boot of a run into events: when each rank starts, who
 * crashes, pauses or stalls and when, which ranks each partition's groups get, forged frames, and exponential crash
 * arrivals while the run goes on.
 * Everything is drawn from the run's one random source, in a fixed order; each kind of fault draws only when the run
 * has it, so adding a kind to the simulator keeps the outcomes of the seeds of runs without it.
 */
final class FaultPlan
{
    static final long NONE = -1;
    /** Event value of a crash drawn by the exponential arrivals, whose rank is picked when it strikes. */
    static final long GENERATED = 1;

    private final SimConfig config;
    private final int n;
    private final SplittableRandom random;
    private final EventQueue queue;
    private final Network network;
    private final Forgery forgery;
    private final List<long[]> bootStallsNs = new ArrayList<>();
    private final long[] jitterNs;
    private final long[] firstStartNs;
    private final long[] bootStartNs;
    private int[] firstPartitionGroups;
    private boolean[] losing;
    private int[] majority = new int[0];
    private long firstFailureNs = NONE;
    private long lastNs;
    private long runUntilNs;
    private boolean arrivals;

    FaultPlan(
        final SimConfig config,
        final SplittableRandom random,
        final EventQueue queue,
        final Network network,
        final Forgery forgery)
    {
        this.config = config;
        n = config.nodes();
        this.random = random;
        this.queue = queue;
        this.network = network;
        this.forgery = forgery;
        jitterNs = new long[n];
        firstStartNs = new long[n];
        bootStartNs = new long[n];
        Arrays.fill(bootStartNs, NONE);
    }

    /**
     * When each rank starts: at a random offset within one heartbeat period (unless the start jitter is off) and,
     * when the cluster boots through joins, the ranks that are no seeds at random within the start spread. Drawn
     * after the partitions' placement.
     */
    void placeStarts()
    {
        final BootOptions boot = config.boot();
        for (int rank = 0; rank < n; rank++)
        {
            jitterNs[rank] = boot.startJitter() ? random.nextLong(config.protocol().heartbeatPeriodNs()) : 0;
            firstStartNs[rank] = jitterNs[rank];
        }
        if (boot.mode() != BootMode.MEMBERS)
        {
            // drawn only in these modes, so runs booting as members keep their seeds' outcomes
            for (int rank = boot.seeds(); rank < n; rank++)
            {
                bootStartNs[rank] = boot.startSpreadNs() > 0 ? random.nextLong(boot.startSpreadNs()) : 0;
                firstStartNs[rank] = bootStartNs[rank];
            }
        }
    }

    /**
     * @return the start offset a boot member's node gets.
     */
    long jitterNs(final int rank)
    {
        return jitterNs[rank];
    }

    /**
     * @return when a rank that is no seed starts, booting through joins; {@link #NONE} for the ranks that start
     * with the cluster.
     */
    long bootStartNs(final int rank)
    {
        return bootStartNs[rank];
    }

    /**
     * @return when each rank's first life starts; read only.
     */
    long[] firstStartNs()
    {
        return firstStartNs;
    }

    /**
     * Gives each partition's groups their ranks and hands them to the network. Draws only when there are partitions,
     * so runs without them keep their seeds' outcomes.
     */
    void placePartitions()
    {
        for (final Partition partition : config.network().partitions())
        {
            final int[] order = new int[n];
            final int offset = random.nextInt(n);
            for (int i = 0; i < n; i++)
            {
                order[i] = (offset + i) % n;
            }
            if (partition.randomPlacement())
            {
                for (int i = n - 1; i > 0; i--)
                {
                    final int j = random.nextInt(i + 1);
                    final int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
            }
            final int[] groups = new int[n];
            final int[] sizes = partition.groupSizes();
            int next = 0;
            for (int g = 0; g < sizes.length; g++)
            {
                for (int k = 0; k < sizes[g]; k++)
                {
                    groups[order[next++]] = g;
                }
            }
            network.partition(groups, partition.startNs(), partition.endNs(), partition.oneWay());
            if (firstPartitionGroups == null)
            {
                firstPartitionGroups = groups;
                losing = PartitionOutcome.losingNodes(partition, groups);
                majority = ranksNotIn(losing);
            }
        }
    }

    private static int[] ranksNotIn(final boolean[] marked)
    {
        int count = 0;
        for (final boolean m : marked)
        {
            count += m ? 0 : 1;
        }
        final int[] ranks = new int[count];
        int next = 0;
        for (int rank = 0; rank < marked.length; rank++)
        {
            if (!marked[rank])
            {
                ranks[next++] = rank;
            }
        }
        return ranks;
    }

    /**
     * Schedules every planned fault.
     *
     * @param processes the process level, or null.
     */
    void plan(final ProcessLevel processes)
    {
        lastNs = 0;
        final BootOptions boot = config.boot();
        final FaultOptions faults = config.faults();
        if (boot.mode() != BootMode.MEMBERS)
        {
            // the boot is what the cluster stabilizes from: every started rank admitted everywhere
            firstFailureNs = 0;
            lastNs = boot.startSpreadNs();
        }
        for (final Partition partition : config.network().partitions())
        {
            // a partition is a failure of the network: stabilization counts from its start
            if (firstFailureNs == NONE || partition.startNs() < firstFailureNs)
            {
                firstFailureNs = partition.startNs();
            }
            lastNs = Math.max(lastNs, partition.endNs());
        }
        final long graceNs = config.protocol().startupGraceNs();
        if (graceNs > 0)
        {
            // run on until every node has judged for a while (the arming at the grace's end is what is tested),
            // without counting the grace as time to stabilize
            for (final long startNs : firstStartNs)
            {
                runUntilNs = Math.max(runUntilNs, startNs + graceNs + 4 * config.protocol().suspicionTimeoutNs());
            }
        }
        planFlapsAndStalls();
        planInjections(faults.injections());

        final int f = faults.failures();
        final long firstNs = faults.firstFailureNs();
        switch (faults.placement())
        {
            case RANDOM, CONTIGUOUS ->
            {
                if (f == 0)
                {
                    break;
                }
                final long[] times = crashTimes(f, firstNs);
                if (faults.placement() == FailurePlacement.CONTIGUOUS)
                {
                    final int start = random.nextInt(n);
                    for (int i = 0; i < f; i++)
                    {
                        scheduleCrash(times[i], (start + i) % n);
                    }
                }
                else
                {
                    final boolean[] picked = new boolean[n];
                    for (int i = 0; i < f; i++)
                    {
                        scheduleCrash(times[i], pickUnpicked(picked));
                    }
                }
            }
            case EXPONENTIAL ->
            {
                if (f > 0)
                {
                    arrivals = true;
                    queue.schedule(firstNs, EventQueue.CRASH, -1, -1, GENERATED, null);
                    lastNs = Math.max(lastNs, firstNs);
                }
            }
            case SCRIPTED ->
            {
            }
        }
        planRandomPauses(firstNs);
        if (processes != null && config.processes().failures() > 0)
        {
            // drawn last, so runs without process failures keep their seeds' outcomes
            lastNs = Math.max(lastNs, processes.plan(
                random, config.processes().failures(), firstNs, faults.crashWindowNs(), queue));
        }
        planBootStalls();
    }

    private void planInjections(final List<Injection> injections)
    {
        for (final Injection injection : injections)
        {
            lastNs = Math.max(lastNs, injection.timeNs() + injection.durationNs());
            if (injection.kind() == Injection.Kind.CUT)
            {
                network.cut(injection.rank(), injection.peer(), injection.timeNs(),
                    injection.timeNs() + injection.durationNs());
                continue;
            }
            if (injection.kind() == Injection.Kind.FORGE)
            {
                queue.schedule(injection.timeNs(), EventQueue.FORGED_NOTICE, -1, injection.peer(), 0,
                    forgery.forge(injection.rank(), injection.peer()));
                continue;
            }
            final byte type = switch (injection.kind())
            {
                case CRASH -> EventQueue.CRASH;
                case PAUSE -> EventQueue.PAUSE;
                default -> EventQueue.LEAVE_NODE;
            };
            queue.schedule(injection.timeNs(), type, -1, injection.rank(), injection.durationNs(), null);
        }
    }

    /**
     * The first partition's cut again, {@link NetworkOptions#flaps()} times in all, and stalls of the nodes on its
     * edges.
     */
    private void planFlapsAndStalls()
    {
        if (firstPartitionGroups == null)
        {
            return;
        }
        final Partition first = config.network().partitions().get(0);
        for (int k = 1; k < config.network().flaps(); k++)
        {
            final long startNs = first.startNs() + k * (first.durationNs() + config.network().flapUpNs());
            network.partition(firstPartitionGroups, startNs, startNs + first.durationNs(), first.oneWay());
            lastNs = Math.max(lastNs, startNs + first.durationNs());
        }
        final long stallNs = config.faults().cutStallNs();
        if (stallNs == 0)
        {
            return;
        }
        for (int rank = 0; rank < n; rank++)
        {
            final int predecessor = rank == 0 ? n - 1 : rank - 1;
            if (firstPartitionGroups[rank] != firstPartitionGroups[predecessor])
            {
                for (final int stalled : new int[]{predecessor, rank})
                {
                    final long atNs = first.startNs() + random.nextLong(first.durationNs());
                    queue.schedule(atNs, EventQueue.PAUSE, -1, stalled, stallNs, null);
                    lastNs = Math.max(lastNs, atNs + stallNs);
                }
            }
        }
    }

    /**
     * @return a random rank not yet in {@code picked}, now marked there.
     */
    private int pickUnpicked(final boolean[] picked)
    {
        int rank;
        do
        {
            rank = random.nextInt(n);
        }
        while (picked[rank]);
        picked[rank] = true;
        return rank;
    }

    /**
     * Boot stalls, drawn last so runs without them keep their seeds' outcomes: distinct random nodes each stall once,
     * starting within the lead before their own grace ends.
     */
    private void planBootStalls()
    {
        final FaultOptions faults = config.faults();
        final boolean[] picked = new boolean[n];
        for (int i = 0; i < faults.bootStalls(); i++)
        {
            final int rank = pickUnpicked(picked);
            final long graceEndNs = firstStartNs[rank] + config.protocol().startupGraceNs();
            final long atNs = graceEndNs - 1 - random.nextLong(faults.bootStallLeadNs());
            final long spanNs = faults.bootStallMaxNs() - faults.bootStallMinNs();
            final long durationNs = faults.bootStallMinNs() + (spanNs > 0 ? random.nextLong(spanNs + 1) : 0);
            queue.schedule(atNs, EventQueue.PAUSE, -1, rank, durationNs, null);
            bootStallsNs.add(new long[] {atNs, atNs + durationNs});
            lastNs = Math.max(lastNs, atNs + durationNs);
        }
    }

    /**
     * Pauses of random nodes within the crash window, drawn after the crashes so runs without pauses keep their
     * seeds' outcomes. A paused node may also be picked to crash later; it then simply stays down.
     */
    private void planRandomPauses(final long firstNs)
    {
        final FaultOptions faults = config.faults();
        if (faults.randomPauses() == 0)
        {
            return;
        }
        final boolean[] picked = new boolean[n];
        for (int i = 0; i < faults.randomPauses(); i++)
        {
            final int rank = pickUnpicked(picked);
            final long atNs = firstNs + withinCrashWindowNs();
            queue.schedule(atNs, EventQueue.PAUSE, -1, rank, faults.randomPauseNs(), null);
            lastNs = Math.max(lastNs, atNs + faults.randomPauseNs());
        }
    }

    /**
     * One crash at the first-failure time, the others uniform within the window, in random order over the ranks.
     */
    private long[] crashTimes(final int f, final long firstNs)
    {
        final long[] times = new long[f];
        times[0] = firstNs;
        for (int i = 1; i < f; i++)
        {
            times[i] = firstNs + withinCrashWindowNs();
        }
        for (int i = f - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final long t = times[i];
            times[i] = times[j];
            times[j] = t;
        }
        return times;
    }

    private long withinCrashWindowNs()
    {
        final long windowNs = config.faults().crashWindowNs();
        return windowNs > 0 ? random.nextLong(windowNs) : 0;
    }

    private void scheduleCrash(final long timeNs, final int rank)
    {
        queue.schedule(timeNs, EventQueue.CRASH, -1, rank, 0, null);
        lastNs = Math.max(lastNs, timeNs);
    }

    /**
     * After a generated crash: the next Poisson arrival, of rate λ = n/μ_ind over the nodes still alive.
     */
    void nextArrival(final long nowNs, final int liveCount)
    {
        final double meanGapNs = (double)config.faults().mtbfNs() / liveCount;
        final long gapNs = (long)Math.ceil(-Math.log(1.0 - random.nextDouble()) * meanGapNs);
        queue.schedule(nowNs + Math.max(1, gapNs), EventQueue.CRASH, -1, -1, GENERATED, null);
    }

    /**
     * @return whether generated crashes still strike.
     */
    boolean arrivalsActive()
    {
        return arrivals;
    }

    /**
     * The run became stable: a pending arrival is cancelled, so it must not hold stability back.
     */
    void stopArrivals()
    {
        arrivals = false;
    }

    /**
     * @return when the first failure happens by plan (the boot, a partition), or {@link #NONE}.
     */
    long firstFailureNs()
    {
        return firstFailureNs;
    }

    /**
     * @return when the last planned fault ends.
     */
    long lastNs()
    {
        return lastNs;
    }

    /**
     * @return the run goes on at least until then, so that every node has judged a while after its grace.
     */
    long runUntilNs()
    {
        return runUntilNs;
    }

    /**
     * @return the boot stalls planned, as [from, until] pairs.
     */
    List<long[]> bootStallsNs()
    {
        return bootStallsNs;
    }

    /**
     * @return the group of each rank during the first partition, or null without partitions.
     */
    int[] firstPartitionGroups()
    {
        return firstPartitionGroups;
    }

    /**
     * @return per rank, whether it is on a side of the first partition without a majority, or null.
     */
    boolean[] losing()
    {
        return losing;
    }

    /**
     * @return ranks of the side of the first partition that should survive under the majority rule (a strict
     * majority, or half holding rank 0; for a one-way cut, all but the deaf group), or an empty array.
     */
    int[] majority()
    {
        return majority;
    }
}
