package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.protocol.ProtocolSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * Parameters of one simulation run, set fluently and then fixed by {@link #conclude()}, which fills the
 * derived defaults and rejects bad values with a message naming them. A concluded config is immutable; use
 * {@link #copy()} to derive another (the batch runner does so per run, changing only the seed).
 */
public final class SimConfig
{
    /**
     * Most nodes a simulation takes: the protocol's own limit, checked here before the simulator sizes its arrays
     * (8 longs per node in one array, ranks in 28-bit event fields), which larger sizes would overflow.
     */
    public static final int MAX_NODES = io.ringwatch.core.protocol.ProtocolSettings.MAX_CLUSTER_SIZE;

    private int nodes = 64;
    private long heartbeatPeriodNs = 100_000_000L;
    private long suspicionTimeoutNs = 1_000_000_000L;
    private long maxDelayNs = 1_000_000L;
    private DelayModel delayModel;
    private boolean onePort;
    private double lossProbability;
    private long seed = 42;
    private FailurePlacement placement = FailurePlacement.SCRIPTED;
    private int failures;
    private long crashWindowNs = -1;
    private long mtbfNs = 365L * 24 * 3600 * 1_000_000_000L;
    private long firstFailureNs = -1;
    private long quietMarginNs = -1;
    private long timeCapNs = -1;
    private boolean startJitter = true;
    private long pauseThresholdNs = -1;
    private long fenceIntervalNs = -1;
    private BroadcastKind broadcast = BroadcastKind.DOUBLE_HYPERCUBE;
    private int randomPauses;
    private int flaps = 1;
    private long flapUpNs;
    private long cutStallNs;
    private long randomPauseNs = -1;
    private StabilizationBound bound = StabilizationBound.THEOREM_1;
    private boolean authentication = true;
    private long restartAfterNs = -1;
    private int restartIncarnationStep = 1;
    private BootMode boot = BootMode.MEMBERS;
    private int seeds = -1;
    private long startSpreadNs;
    private PartitionPolicy partitionPolicy = PartitionPolicy.MAJORITY;
    private long probeTimeoutNs = -1;
    private long viewDigestPeriodNs = -1;
    private int brokenRules;
    private long eventBudget = Long.MAX_VALUE;
    private long startupGraceNs;
    private int bootStalls;
    private long bootStallMinNs = -1;
    private long bootStallMaxNs = -1;
    private long bootStallLeadNs = -1;
    private final List<Injection> injections = new ArrayList<>();
    private final List<Partition> partitions = new ArrayList<>();
    private int processesPerNode;
    private int processFailures;
    private JobLayout job;
    private boolean concluded;

    /**
     * @return an unconcluded copy with the same settings.
     */
    public SimConfig copy()
    {
        final SimConfig copy = new SimConfig();
        copy.nodes = nodes;
        copy.heartbeatPeriodNs = heartbeatPeriodNs;
        copy.suspicionTimeoutNs = suspicionTimeoutNs;
        copy.maxDelayNs = maxDelayNs;
        copy.delayModel = delayModel;
        copy.onePort = onePort;
        copy.lossProbability = lossProbability;
        copy.seed = seed;
        copy.placement = placement;
        copy.failures = failures;
        copy.crashWindowNs = crashWindowNs;
        copy.mtbfNs = mtbfNs;
        copy.firstFailureNs = firstFailureNs;
        copy.quietMarginNs = quietMarginNs;
        copy.timeCapNs = timeCapNs;
        copy.startJitter = startJitter;
        copy.pauseThresholdNs = pauseThresholdNs;
        copy.fenceIntervalNs = fenceIntervalNs;
        copy.broadcast = broadcast;
        copy.randomPauses = randomPauses;
        copy.flaps = flaps;
        copy.flapUpNs = flapUpNs;
        copy.cutStallNs = cutStallNs;
        copy.randomPauseNs = randomPauseNs;
        copy.bound = bound;
        copy.authentication = authentication;
        copy.restartAfterNs = restartAfterNs;
        copy.restartIncarnationStep = restartIncarnationStep;
        copy.boot = boot;
        copy.seeds = seeds;
        copy.startSpreadNs = startSpreadNs;
        copy.partitionPolicy = partitionPolicy;
        copy.probeTimeoutNs = probeTimeoutNs;
        copy.viewDigestPeriodNs = viewDigestPeriodNs;
        copy.brokenRules = brokenRules;
        copy.eventBudget = eventBudget;
        copy.startupGraceNs = startupGraceNs;
        copy.bootStalls = bootStalls;
        copy.bootStallMinNs = bootStallMinNs;
        copy.bootStallMaxNs = bootStallMaxNs;
        copy.bootStallLeadNs = bootStallLeadNs;
        copy.injections.addAll(injections);
        copy.partitions.addAll(partitions);
        copy.processesPerNode = processesPerNode;
        copy.processFailures = processFailures;
        copy.job = job;
        return copy;
    }

    /**
     * Fill derived defaults and validate.
     *
     * @return this.
     * @throws IllegalArgumentException naming the offending value.
     */
    public SimConfig conclude()
    {
        if (concluded)
        {
            return this;
        }
        require(nodes >= 2 && nodes <= MAX_NODES, "nodes must be in [2, " + MAX_NODES + "]: " + nodes);
        require(heartbeatPeriodNs > 0, "heartbeat period (eta) must be > 0: " + heartbeatPeriodNs + "ns");
        require(suspicionTimeoutNs > heartbeatPeriodNs,
            "suspicion timeout (delta) " + suspicionTimeoutNs + "ns must exceed eta " + heartbeatPeriodNs + "ns");
        require(maxDelayNs > 0, "max message delay (tau) must be > 0: " + maxDelayNs + "ns");
        require(lossProbability >= 0 && lossProbability < 1, "loss must be in [0, 1): " + lossProbability);
        require(failures >= 0 && failures < nodes, "failures must be in [0, nodes): " + failures);
        require(mtbfNs > 0, "mtbf must be > 0: " + mtbfNs + "ns");
        require(placement != null && bound != null && broadcast != null, "placement, bound and broadcast must be set");

        require(processesPerNode >= 0 && (long)processesPerNode * nodes <= JobLayout.MAX_PROCESSES,
            "processes per node must be in [0, " + JobLayout.MAX_PROCESSES / nodes + "]: " + processesPerNode);
        require(job == null || job.nodeCount() == nodes,
            "the job places processes on " + (job == null ? 0 : job.nodeCount()) + " nodes, not " + nodes);
        require(processFailures >= 0 && processFailures <= (job != null ? job.processCount() :
            (long)processesPerNode * nodes), "process failures must be in [0, processes of the job]: " +
            processFailures);
        if (pauseThresholdNs < 0)
        {
            pauseThresholdNs = suspicionTimeoutNs / 2;
        }
        require(pauseThresholdNs > 0 && pauseThresholdNs < suspicionTimeoutNs,
            "pause threshold must be in (0, delta): " + pauseThresholdNs + "ns");
        if (fenceIntervalNs < 0)
        {
            fenceIntervalNs = suspicionTimeoutNs;
        }
        require(fenceIntervalNs > 0, "fence interval must be > 0: " + fenceIntervalNs + "ns");
        require(partitionPolicy != null, "partition policy must be set");
        if (probeTimeoutNs < 0)
        {
            probeTimeoutNs = ProtocolSettings.defaultProbeTimeoutNs(heartbeatPeriodNs, suspicionTimeoutNs);
        }
        require(probeTimeoutNs < suspicionTimeoutNs, "probe timeout must be below delta: " + probeTimeoutNs + "ns");
        if (viewDigestPeriodNs < 0)
        {
            viewDigestPeriodNs = ProtocolSettings.defaultViewDigestPeriodNs(suspicionTimeoutNs);
        }
        if (crashWindowNs < 0)
        {
            crashWindowNs = suspicionTimeoutNs / 2;
        }
        if (randomPauseNs < 0)
        {
            randomPauseNs = 2 * suspicionTimeoutNs;
        }
        require(randomPauses >= 0 && randomPauses + failures < nodes,
            "random pauses must be in [0, nodes - failures): " + randomPauses);
        require(randomPauses == 0 || randomPauseNs > 0, "pause duration must be > 0: " + randomPauseNs + "ns");
        require(crashWindowNs < suspicionTimeoutNs,
            "crash window " + crashWindowNs + "ns must be shorter than delta " + suspicionTimeoutNs + "ns");
        if (firstFailureNs < 0)
        {
            // after every node has seen a heartbeat from its emitter: the start is jittered over one period
            firstFailureNs = suspicionTimeoutNs + heartbeatPeriodNs;
        }
        if (quietMarginNs < 0)
        {
            quietMarginNs = 2 * suspicionTimeoutNs;
        }
        require(boot != null, "boot mode must be set");
        if (seeds < 0)
        {
            seeds = BootSeeds.defaultFor(nodes);
        }
        require(seeds >= 1 && seeds <= nodes, "seeds must be in [1, " + nodes + "]: " + seeds);
        require(startSpreadNs >= 0, "start spread must be >= 0: " + startSpreadNs + "ns");
        require(startupGraceNs >= 0, "startup grace must be >= 0: " + startupGraceNs + "ns");
        if (bootStallMaxNs < 0)
        {
            bootStallMaxNs = 8 * suspicionTimeoutNs;
        }
        if (bootStallMinNs < 0)
        {
            bootStallMinNs = Math.min(2 * suspicionTimeoutNs, bootStallMaxNs);
        }
        if (bootStallLeadNs < 0)
        {
            bootStallLeadNs = startupGraceNs;
        }
        require(bootStalls >= 0 && bootStalls <= nodes, "boot stalls must be in [0, nodes]: " + bootStalls);
        require(bootStalls == 0 || bootStallMinNs > 0 && bootStallMinNs <= bootStallMaxNs,
            "boot stalls must last (0, max] with min <= max: " + bootStallMinNs + "ns.." + bootStallMaxNs + "ns");
        require(bootStalls == 0 || bootStallLeadNs > 0 && bootStallLeadNs <= startupGraceNs,
            "boot stalls start within the grace: lead must be in (0, grace " + startupGraceNs + "ns]: " +
            bootStallLeadNs + "ns");
        long lastInjectionNs = firstFailureNs + crashWindowNs + (randomPauses > 0 ? randomPauseNs : 0);
        if (boot != BootMode.MEMBERS)
        {
            // the last rank starts within the spread, then asks every δ/2 and is admitted within a broadcast
            lastInjectionNs = Math.max(lastInjectionNs, startSpreadNs + 4 * suspicionTimeoutNs);
        }
        if (startupGraceNs > 0)
        {
            // judging starts δ after the last grace ends; a boot stall may run on past it
            lastInjectionNs = Math.max(lastInjectionNs, (boot != BootMode.MEMBERS ? startSpreadNs : heartbeatPeriodNs) +
                startupGraceNs + 2 * suspicionTimeoutNs + (bootStalls > 0 ? bootStallMaxNs : 0));
        }
        for (final Injection injection : injections)
        {
            require(injection.rank() >= 0 && injection.rank() < nodes,
                "injection rank " + injection.rank() + " not in [0, " + nodes + ")");
            require(injection.peer() < nodes, "injection peer " + injection.peer() + " not in [0, " + nodes + ")");
            lastInjectionNs = Math.max(lastInjectionNs, injection.timeNs() + injection.durationNs());
        }
        for (final Partition partition : partitions)
        {
            require(partition.nodes() == nodes, "partition groups " + partition.describe() + " must add up to " +
                nodes + " nodes");
            lastInjectionNs = Math.max(lastInjectionNs, partition.endNs());
        }
        if (timeCapNs < 0)
        {
            final int f = Math.max(1, Math.max(failures, injections.size()));
            final long boundNs = StabilizationBound.THEOREM_1.boundNs(f, nodes, suspicionTimeoutNs, maxDelayNs);
            timeCapNs = lastInjectionNs + 2 * boundNs + quietMarginNs + 4 * suspicionTimeoutNs;
            if (restartAfterNs > 0)
            {
                // a restart comes D after its stop, and a stop can itself follow a restart (a fenced joiner)
                timeCapNs += 2 * restartAfterNs + 8 * suspicionTimeoutNs;
            }
        }
        require(restartIncarnationStep >= 0, "restart incarnation step must be >= 0: " + restartIncarnationStep);
        require(timeCapNs > firstFailureNs, "time cap " + timeCapNs + "ns must be after the first failure");
        concluded = true;
        return this;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    private void checkMutable()
    {
        if (concluded)
        {
            throw new IllegalStateException("config already concluded; copy() it to change settings");
        }
    }

    /**
     * Restart every node that stops (crash, leave or exclusion) after {@code ns}, under a new incarnation, through
     * the join protocol.
     *
     * @param ns delay from the stop to the restart; 0 or less for no restarts (the default).
     * @return this.
     */
    public SimConfig restartAfterNs(final long ns)
    {
        checkMutable();
        this.restartAfterNs = ns;
        return this;
    }

    /**
     * How much a restarted node's incarnation grows: 1, the rule. 0 breaks the rule (a restart reuses its
     * incarnation), for negative controls: such a joiner must never be admitted.
     *
     * @param step added to the incarnation at each restart.
     * @return this.
     */
    public SimConfig restartIncarnationStep(final int step)
    {
        checkMutable();
        this.restartIncarnationStep = step;
        return this;
    }

    /**
     * How the cluster starts: {@link BootMode#MEMBERS} (the default), {@link BootMode#JOIN} (start = join) or the
     * broken {@link BootMode#LATE_MEMBERS}, for negative controls.
     *
     * @param mode boot mode.
     * @return this.
     */
    public SimConfig boot(final BootMode mode)
    {
        checkMutable();
        this.boot = mode;
        return this;
    }

    /**
     * @param count the seeds, the first ranks: they start at once; default {@link BootSeeds#DEFAULT}.
     * @return this.
     */
    public SimConfig seeds(final int count)
    {
        checkMutable();
        this.seeds = count;
        return this;
    }

    /**
     * @param ns the ranks that are no seeds start at uniform random moments in [0, ns) (boot modes other than
     *           {@link BootMode#MEMBERS}).
     * @return this.
     */
    public SimConfig startSpreadNs(final long ns)
    {
        checkMutable();
        this.startSpreadNs = ns;
        return this;
    }

    /**
     * @return how the cluster starts.
     */
    public BootMode boot()
    {
        return boot;
    }

    /**
     * @return the seeds, once concluded.
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
     * @return delay from a stop to its restart, or a value &lt;= 0 for no restarts.
     */
    public long restartAfterNs()
    {
        return restartAfterNs;
    }

    /**
     * @return what a restart adds to the incarnation.
     */
    public int restartIncarnationStep()
    {
        return restartIncarnationStep;
    }

    /**
     * @param nodes N, ranks 0..N-1.
     * @return this.
     */
    public SimConfig nodes(final int nodes)
    {
        checkMutable();
        this.nodes = nodes;
        return this;
    }

    /**
     * @param ns η.
     * @return this.
     */
    public SimConfig heartbeatPeriodNs(final long ns)
    {
        checkMutable();
        this.heartbeatPeriodNs = ns;
        return this;
    }

    /**
     * @param ns δ.
     * @return this.
     */
    public SimConfig suspicionTimeoutNs(final long ns)
    {
        checkMutable();
        this.suspicionTimeoutNs = ns;
        return this;
    }

    /**
     * @param ns τ: each message takes a delay drawn uniformly from (0, τ].
     * @return this.
     */
    public SimConfig maxDelayNs(final long ns)
    {
        checkMutable();
        this.maxDelayNs = ns;
        return this;
    }

    /**
     * @param model message delays; default uniform in (0, τ]. τ stays the bound the checks and the Theorem 1
     *              bound assume, so a model exceeding it is expected to cause false suspicions.
     * @return this.
     */
    public SimConfig delayModel(final DelayModel model)
    {
        checkMutable();
        this.delayModel = model;
        return this;
    }

    /**
     * @param onePort serialize each node's sends and receives (the paper's one-port model).
     * @return this.
     */
    public SimConfig onePort(final boolean onePort)
    {
        checkMutable();
        this.onePort = onePort;
        return this;
    }

    /**
     * @param probability that any single message is lost.
     * @return this.
     */
    public SimConfig lossProbability(final double probability)
    {
        checkMutable();
        this.lossProbability = probability;
        return this;
    }

    /**
     * @param seed the only source of randomness of the run.
     * @return this.
     */
    public SimConfig seed(final long seed)
    {
        checkMutable();
        this.seed = seed;
        return this;
    }

    /**
     * @param placement how generated crashes are placed.
     * @return this.
     */
    public SimConfig placement(final FailurePlacement placement)
    {
        checkMutable();
        this.placement = placement;
        return this;
    }

    /**
     * @param failures f: crashes to generate (an upper limit for {@link FailurePlacement#EXPONENTIAL}).
     * @return this.
     */
    public SimConfig failures(final int failures)
    {
        checkMutable();
        this.failures = failures;
        return this;
    }

    /**
     * @param ns random and contiguous crashes all strike within this long after the first failure time;
     *           default δ/2.
     * @return this.
     */
    public SimConfig crashWindowNs(final long ns)
    {
        checkMutable();
        this.crashWindowNs = ns;
        return this;
    }

    /**
     * @param ns μ_ind, the MTBF of one node, for exponential arrivals.
     * @return this.
     */
    public SimConfig mtbfNs(final long ns)
    {
        checkMutable();
        this.mtbfNs = ns;
        return this;
    }

    /**
     * @param ns time of the first generated crash; default δ + η, after the ring has warmed up.
     * @return this.
     */
    public SimConfig firstFailureNs(final long ns)
    {
        checkMutable();
        this.firstFailureNs = ns;
        return this;
    }

    /**
     * @param ns how long a run goes on after it became stable, to catch late false suspicions; default 2δ.
     * @return this.
     */
    public SimConfig quietMarginNs(final long ns)
    {
        checkMutable();
        this.quietMarginNs = ns;
        return this;
    }

    /**
     * @param ns virtual time at which a run stops even if it never stabilized (a violation).
     * @return this.
     */
    public SimConfig timeCapNs(final long ns)
    {
        checkMutable();
        this.timeCapNs = ns;
        return this;
    }

    /**
     * @param jitter start each node at a random offset within one heartbeat period (default); false starts all
     *               at time 0 in lockstep.
     * @return this.
     */
    public SimConfig startJitter(final boolean jitter)
    {
        checkMutable();
        this.startJitter = jitter;
        return this;
    }

    /**
     * @param kind the broadcast schedule every node runs; default the double hypercube.
     * @return this.
     */
    public SimConfig broadcast(final BroadcastKind kind)
    {
        checkMutable();
        this.broadcast = kind;
        return this;
    }

    public BroadcastKind broadcast()
    {
        return broadcast;
    }

    /**
     * @param count      nodes paused per run, chosen at random among those that do not crash, each at a random time
     *                   within the crash window: nodes that come back as zombies and must be fenced.
     * @param durationNs how long each pause lasts; default 2δ (long enough to be declared dead).
     * @return this.
     */
    public SimConfig randomPauses(final int count, final long durationNs)
    {
        checkMutable();
        this.randomPauses = count;
        this.randomPauseNs = durationNs;
        return this;
    }

    /**
     * A flapping link: the first partition's cut (the same groups) goes down {@code cuts} times, each for its
     * duration, up for {@code upNs} in between.
     *
     * @param cuts times the cut happens, 1 for a plain partition.
     * @param upNs how long the network is whole between two of them.
     * @return this.
     */
    public SimConfig flap(final int cuts, final long upNs)
    {
        checkMutable();
        require(cuts >= 1, "flap needs at least one cut: " + cuts);
        require(cuts == 1 || upNs > 0, "flapping needs an up time > 0: " + upNs + "ns");
        this.flaps = cuts;
        this.flapUpNs = upNs;
        return this;
    }

    public int flaps()
    {
        return flaps;
    }

    public long flapUpNs()
    {
        return flapUpNs;
    }

    /**
     * Scheduling stalls near the cut: the nodes on either side of each edge of the first partition (a node whose
     * ring predecessor is in another group, and that predecessor) pause for {@code stallNs} at a random time within
     * the first cut, as an overloaded host's agents would.
     *
     * @param stallNs how long each stall lasts; 0 for none.
     * @return this.
     */
    public SimConfig stallsNearCut(final long stallNs)
    {
        checkMutable();
        require(stallNs >= 0, "stall must be >= 0: " + stallNs + "ns");
        this.cutStallNs = stallNs;
        return this;
    }

    public long cutStallNs()
    {
        return cutStallNs;
    }

    public int randomPauses()
    {
        return randomPauses;
    }

    public long randomPauseNs()
    {
        return randomPauseNs;
    }

    /**
     * @param ns least time between two fencing notices to the same zombie; default δ. {@link Long#MAX_VALUE} never
     *           re-sends a lost fence: a broken rule, for negative controls.
     * @return this.
     */
    public SimConfig fenceIntervalNs(final long ns)
    {
        checkMutable();
        this.fenceIntervalNs = ns;
        return this;
    }

    /**
     * @param ns a duty cycle this late makes a node restart its suspicion window (its pause guard); default δ/2.
     * @return this.
     */
    public SimConfig pauseThresholdNs(final long ns)
    {
        checkMutable();
        this.pauseThresholdNs = ns;
        return this;
    }

    /**
     * @param bound the bound each run's stabilization time is checked against (one-port runs only).
     * @return this.
     */
    public SimConfig bound(final StabilizationBound bound)
    {
        checkMutable();
        this.bound = bound;
        return this;
    }

    /**
     * @param on whether the cluster authenticates frames (the default): off, a forged frame is believed.
     * @return this.
     */
    public SimConfig authentication(final boolean on)
    {
        checkMutable();
        this.authentication = on;
        return this;
    }

    /**
     * @param policy what nodes do when they cannot count a majority alive; default majority.
     * @return this.
     */
    public SimConfig partitionPolicy(final PartitionPolicy policy)
    {
        checkMutable();
        this.partitionPolicy = policy;
        return this;
    }

    public PartitionPolicy partitionPolicy()
    {
        return partitionPolicy;
    }

    /**
     * @param ns probe round timeout; default min(η, δ/4); 0 declares suspicions without probing (a broken rule, for
     *           negative controls).
     * @return this.
     */
    public SimConfig probeTimeoutNs(final long ns)
    {
        checkMutable();
        this.probeTimeoutNs = ns;
        return this;
    }

    public long probeTimeoutNs()
    {
        return probeTimeoutNs;
    }

    /**
     * @param ns view digest period; default 4δ; 0 turns view repair off (a broken rule, for negative controls).
     * @return this.
     */
    public SimConfig viewDigestPeriodNs(final long ns)
    {
        checkMutable();
        this.viewDigestPeriodNs = ns;
        return this;
    }

    public long viewDigestPeriodNs()
    {
        return viewDigestPeriodNs;
    }

    /**
     * @param rules {@code ProtocolSettings.BREAK_*} bits: rules every node runs without (for negative controls).
     * @return this.
     */
    public SimConfig brokenRules(final int rules)
    {
        checkMutable();
        this.brokenRules = rules;
        return this;
    }

    public int brokenRules()
    {
        return brokenRules;
    }

    /**
     * @param events most events a run may process; past it the run stops with a {@code flood} violation, so a
     *               broadcast storm is a finding instead of an exhausted heap; default unlimited.
     * @return this.
     */
    public SimConfig eventBudget(final long events)
    {
        checkMutable();
        if (events < 1)
        {
            throw new IllegalArgumentException("eventBudget must be >= 1: " + events);
        }
        this.eventBudget = events;
        return this;
    }

    public long eventBudget()
    {
        return eventBudget;
    }

    /**
     * @param ns every node's startup grace, as the runtime's {@code ringwatch.startup.grace}: nobody is judged before
     *           δ after it ends, and a rank's first start joins at once while a restart asks once its grace is over;
     *           default 0.
     * @return this.
     */
    public SimConfig startupGraceNs(final long ns)
    {
        checkMutable();
        this.startupGraceNs = ns;
        return this;
    }

    public long startupGraceNs()
    {
        return startupGraceNs;
    }

    /**
     * Boot stalls, as JVMs warming up on a loaded host: {@code count} distinct random nodes each stall (pause) once
     * for a duration uniform in [minNs, maxNs], starting at a uniform moment within {@code leadNs} before its own
     * grace ends (so a stall may run on past the grace). Drawn from the run's seed.
     *
     * @param count  stalled nodes, in [0, nodes].
     * @param minNs  shortest stall; default min(2δ, maxNs).
     * @param maxNs  longest stall; default 8δ.
     * @param leadNs stalls start within this long before the stalled node's grace ends; default the whole grace.
     * @return this.
     */
    public SimConfig bootStalls(final int count, final long minNs, final long maxNs, final long leadNs)
    {
        checkMutable();
        this.bootStalls = count;
        this.bootStallMinNs = minNs;
        this.bootStallMaxNs = maxNs;
        this.bootStallLeadNs = leadNs;
        return this;
    }

    public int bootStalls()
    {
        return bootStalls;
    }

    public long bootStallMinNs()
    {
        return bootStallMinNs;
    }

    public long bootStallMaxNs()
    {
        return bootStallMaxNs;
    }

    public long bootStallLeadNs()
    {
        return bootStallLeadNs;
    }

    /**
     * @param partition a partition of the network, healed after its duration.
     * @return this.
     */
    public SimConfig partition(final Partition partition)
    {
        checkMutable();
        partitions.add(partition);
        return this;
    }

    /**
     * @return the partitions, in the order given.
     */
    public List<Partition> partitions()
    {
        return List.copyOf(partitions);
    }

    /**
     * @param injection a scripted fault.
     * @return this.
     */
    public SimConfig inject(final Injection injection)
    {
        checkMutable();
        injections.add(injection);
        return this;
    }

    public int nodes()
    {
        return nodes;
    }

    public long heartbeatPeriodNs()
    {
        return heartbeatPeriodNs;
    }

    public long suspicionTimeoutNs()
    {
        return suspicionTimeoutNs;
    }

    public long maxDelayNs()
    {
        return maxDelayNs;
    }

    /**
     * @return the delay model: the one set, else uniform in (0, τ].
     */
    public DelayModel delayModel()
    {
        return delayModel != null ? delayModel : DelayModel.uniform(maxDelayNs);
    }

    /**
     * @return true if a delay model was set, which may exceed τ.
     */
    public boolean customDelays()
    {
        return delayModel != null;
    }

    public boolean onePort()
    {
        return onePort;
    }

    public double lossProbability()
    {
        return lossProbability;
    }

    public long seed()
    {
        return seed;
    }

    public FailurePlacement placement()
    {
        return placement;
    }

    public int failures()
    {
        return failures;
    }

    public long crashWindowNs()
    {
        return crashWindowNs;
    }

    public long mtbfNs()
    {
        return mtbfNs;
    }

    public long firstFailureNs()
    {
        return firstFailureNs;
    }

    public long quietMarginNs()
    {
        return quietMarginNs;
    }

    public long timeCapNs()
    {
        return timeCapNs;
    }

    public boolean startJitter()
    {
        return startJitter;
    }

    public long pauseThresholdNs()
    {
        return pauseThresholdNs;
    }

    public long fenceIntervalNs()
    {
        return fenceIntervalNs;
    }

    public StabilizationBound bound()
    {
        return bound;
    }

    /**
     * @return whether frames are authenticated, so that forged ones are refused.
     */
    public boolean authentication()
    {
        return authentication;
    }

    /**
     * @return the scripted faults, in the order given.
     */
    public List<Injection> injections()
    {
        return List.copyOf(injections);
    }

    /**
     * @param perNode  application processes each daemon hosts (0: node level only).
     * @param failures processes crashed at random, anywhere in the job, within the crash window.
     * @return this.
     */
    public SimConfig processes(final int perNode, final int failures)
    {
        checkMutable();
        this.processesPerNode = perNode;
        this.processFailures = failures;
        return this;
    }

    public int processesPerNode()
    {
        return processesPerNode;
    }

    /**
     * @param job      the job: any number of processes per daemon (a job file's); replaces a count per node.
     * @param failures processes crashed at random, anywhere in the job, within the crash window.
     * @return this.
     */
    public SimConfig processes(final JobLayout job, final int failures)
    {
        checkMutable();
        this.job = job;
        this.processesPerNode = 0;
        this.processFailures = failures;
        return this;
    }

    /**
     * @return the job of the process level, or null for the node level only.
     */
    public JobLayout jobLayout()
    {
        return job != null ? job : processesPerNode > 0 ? JobLayout.uniform(nodes, processesPerNode) : null;
    }

    public int processFailures()
    {
        return processFailures;
    }

    public boolean isConcluded()
    {
        return concluded;
    }

    public String toString()
    {
        return "SimConfig{nodes=" + nodes + ", etaNs=" + heartbeatPeriodNs + ", deltaNs=" + suspicionTimeoutNs +
            ", tauNs=" + maxDelayNs + ", onePort=" + onePort + ", loss=" + lossProbability + ", seed=" + seed +
            ", placement=" + placement + ", failures=" + failures + ", crashWindowNs=" + crashWindowNs +
            ", mtbfNs=" + mtbfNs + ", injections=" + injections.size() + "}";
    }
}
