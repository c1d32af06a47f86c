package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.process.JobLayout;

/**
 * Parameters of one simulation run, set fluently and then fixed by {@link #conclude()}, which fills the derived
 * defaults and rejects bad values with a message naming them. The options are read back by concern: what the nodes
 * run ({@link #protocol()}), the network ({@link #network()}), the faults ({@link #faults()}), the process level
 * ({@link #processes()}), how nodes start and restart ({@link #boot()}) and what bounds the run ({@link #limits()});
 * each group validates its own values. Everything random is drawn from the one {@link #seed()}. A concluded config
 * is immutable; use {@link #copy()} to derive another (the batch runner does so per run, changing only the seed).
 */
public final class SimConfig
{
    /**
     * Most nodes a simulation takes: the protocol's own limit, checked here before the simulator sizes its arrays
     * (8 longs per node in one array, ranks in 28-bit event fields), which larger sizes would overflow.
     */
    public static final int MAX_NODES = io.ringwatch.core.protocol.ProtocolSettings.MAX_CLUSTER_SIZE;

    private int nodes = 64;
    private long seed = 42;
    private ProtocolOptions protocol = new ProtocolOptions();
    private NetworkOptions network = new NetworkOptions();
    private FaultOptions faults = new FaultOptions();
    private ProcessOptions processes = new ProcessOptions();
    private BootOptions boot = new BootOptions();
    private LimitOptions limits = new LimitOptions();
    private boolean concluded;

    /**
     * @return an unconcluded copy with the same settings.
     */
    public SimConfig copy()
    {
        final SimConfig copy = new SimConfig();
        copy.nodes = nodes;
        copy.seed = seed;
        copy.protocol = protocol.copy();
        copy.network = network.copy();
        copy.faults = faults.copy();
        copy.processes = processes.copy();
        copy.boot = boot.copy();
        copy.limits = limits.copy();
        return copy;
    }

    /**
     * Fill derived defaults and validate, group by group; the limits come last as their defaults span the others.
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
        Options.require(nodes >= 2 && nodes <= MAX_NODES, "nodes must be in [2, " + MAX_NODES + "]: " + nodes);
        protocol.conclude();
        network.conclude(nodes);
        faults.conclude(nodes, protocol);
        processes.conclude(nodes);
        boot.conclude(nodes);
        limits.conclude(this);
        concluded = true;
        return this;
    }

    private void checkMutable()
    {
        if (concluded)
        {
            throw new IllegalStateException("config already concluded; copy() it to change settings");
        }
    }

    private <T> T mutable(final T group)
    {
        checkMutable();
        return group;
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
     * @param ns η.
     * @return this.
     */
    public SimConfig heartbeatPeriodNs(final long ns)
    {
        mutable(protocol).heartbeatPeriodNs = ns;
        return this;
    }

    /**
     * @param ns δ.
     * @return this.
     */
    public SimConfig suspicionTimeoutNs(final long ns)
    {
        mutable(protocol).suspicionTimeoutNs = ns;
        return this;
    }

    /**
     * @param ns a duty cycle this late makes a node restart its suspicion window (its pause guard); default δ/2.
     * @return this.
     */
    public SimConfig pauseThresholdNs(final long ns)
    {
        mutable(protocol).pauseThresholdNs = ns;
        return this;
    }

    /**
     * @param ns least time between two fencing notices to the same zombie; default δ. {@link Long#MAX_VALUE} never
     *           re-sends a lost fence: a broken rule, for negative controls.
     * @return this.
     */
    public SimConfig fenceIntervalNs(final long ns)
    {
        mutable(protocol).fenceIntervalNs = ns;
        return this;
    }

    /**
     * @param ns probe round timeout; default min(η, δ/4); 0 declares suspicions without probing (a broken rule, for
     *           negative controls).
     * @return this.
     */
    public SimConfig probeTimeoutNs(final long ns)
    {
        mutable(protocol).probeTimeoutNs = ns;
        return this;
    }

    /**
     * @param ns view digest period; default 4δ; 0 turns view repair off (a broken rule, for negative controls).
     * @return this.
     */
    public SimConfig viewDigestPeriodNs(final long ns)
    {
        mutable(protocol).viewDigestPeriodNs = ns;
        return this;
    }

    /**
     * @param ns every node's startup grace, as the runtime's {@code ringwatch.startup.grace}: nobody is judged before
     *           δ after it ends, and a rank's first start joins at once while a restart asks once its grace is over;
     *           default 0.
     * @return this.
     */
    public SimConfig startupGraceNs(final long ns)
    {
        mutable(protocol).startupGraceNs = ns;
        return this;
    }

    /**
     * @param rules {@code BrokenRules.BREAK_*} bits: rules every node runs without (for negative controls).
     * @return this.
     */
    public SimConfig brokenRules(final int rules)
    {
        mutable(protocol).brokenRules = rules;
        return this;
    }

    /**
     * @param policy what nodes do when they cannot count a majority alive; default majority.
     * @return this.
     */
    public SimConfig partitionPolicy(final PartitionPolicy policy)
    {
        mutable(protocol).partitionPolicy = policy;
        return this;
    }

    /**
     * @param kind the broadcast schedule every node runs; default the double hypercube.
     * @return this.
     */
    public SimConfig broadcast(final BroadcastKind kind)
    {
        mutable(protocol).broadcast = kind;
        return this;
    }

    /**
     * @param on whether the cluster authenticates frames (the default): off, a forged frame is believed.
     * @return this.
     */
    public SimConfig authentication(final boolean on)
    {
        mutable(protocol).authentication = on;
        return this;
    }

    /**
     * @param on whether each node judges the frames it receives with a replay guard of its own, admitting a restarted
     *           rank's incarnation when it applies its JOIN, as the runtime does (off by default; at most
     *           {@value Wire#MAX_GUARDED_NODES} nodes, since the guards take 32·N² bytes).
     * @return this.
     */
    public SimConfig replayGuards(final boolean on)
    {
        mutable(protocol).replayGuards = on;
        return this;
    }

    /**
     * @param on whether each node, at its boot or restart, gets a candidate run drawn as the runtime draws one (its
     *           start time in virtual milliseconds above 16 bits derived from the seed, rank and incarnation), so the
     *           run's frames are bound to a run as live: seeds agree on one during their grace, joiners learn it
     *           from their contact, a re-form starts another (off by default: all frames then carry run 0).
     * @return this.
     */
    public SimConfig runBinding(final boolean on)
    {
        mutable(protocol).runBinding = on;
        return this;
    }

    /**
     * @param ns τ: each message takes a delay drawn uniformly from (0, τ].
     * @return this.
     */
    public SimConfig maxDelayNs(final long ns)
    {
        mutable(network).maxDelayNs = ns;
        return this;
    }

    /**
     * @param model message delays; default uniform in (0, τ]. τ stays the bound the checks and the Theorem 1
     *              bound assume, so a model exceeding it is expected to cause false suspicions.
     * @return this.
     */
    public SimConfig delayModel(final DelayModel model)
    {
        mutable(network).delayModel = model;
        return this;
    }

    /**
     * @param onePort serialize each node's sends and receives (the paper's one-port model).
     * @return this.
     */
    public SimConfig onePort(final boolean onePort)
    {
        mutable(network).onePort = onePort;
        return this;
    }

    /**
     * @param probability that any single message is lost.
     * @return this.
     */
    public SimConfig lossProbability(final double probability)
    {
        mutable(network).lossProbability = probability;
        return this;
    }

    /**
     * @param partition a partition of the network, healed after its duration.
     * @return this.
     */
    public SimConfig partition(final Partition partition)
    {
        mutable(network).partitions.add(partition);
        return this;
    }

    /**
     * @param cuts times the first partition's cut happens ({@link NetworkOptions#flaps()}), 1 for a plain partition.
     * @param upNs how long the network is whole between two of them.
     * @return this.
     */
    public SimConfig flap(final int cuts, final long upNs)
    {
        mutable(network).flaps = cuts;
        network.flapUpNs = upNs;
        return this;
    }

    /**
     * @param placement how generated crashes are placed.
     * @return this.
     */
    public SimConfig placement(final FailurePlacement placement)
    {
        mutable(faults).placement = placement;
        return this;
    }

    /**
     * @param failures f: crashes to generate (an upper limit for {@link FailurePlacement#EXPONENTIAL}).
     * @return this.
     */
    public SimConfig failures(final int failures)
    {
        mutable(faults).failures = failures;
        return this;
    }

    /**
     * @param ns random and contiguous crashes all strike within this long after the first failure time;
     *           default δ/2.
     * @return this.
     */
    public SimConfig crashWindowNs(final long ns)
    {
        mutable(faults).crashWindowNs = ns;
        return this;
    }

    /**
     * @param ns μ_ind, the MTBF of one node, for exponential arrivals.
     * @return this.
     */
    public SimConfig mtbfNs(final long ns)
    {
        mutable(faults).mtbfNs = ns;
        return this;
    }

    /**
     * @param ns time of the first generated crash; default δ + η, after the ring has warmed up.
     * @return this.
     */
    public SimConfig firstFailureNs(final long ns)
    {
        mutable(faults).firstFailureNs = ns;
        return this;
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
        faults.randomPauses = count;
        faults.randomPauseNs = durationNs;
        return this;
    }

    /**
     * @param stallNs how long each stall of a node on an edge of the first cut lasts
     *                ({@link FaultOptions#cutStallNs()}); 0 for none.
     * @return this.
     */
    public SimConfig stallsNearCut(final long stallNs)
    {
        mutable(faults).cutStallNs = stallNs;
        return this;
    }

    /**
     * @param count  nodes that stall once near their grace's end ({@link FaultOptions#bootStalls()}), in [0, N].
     * @param minNs  shortest stall; default min(2δ, maxNs).
     * @param maxNs  longest stall; default 8δ.
     * @param leadNs stalls start within this long before the stalled node's grace ends; default the whole grace.
     * @return this.
     */
    public SimConfig bootStalls(final int count, final long minNs, final long maxNs, final long leadNs)
    {
        checkMutable();
        faults.bootStalls = count;
        faults.bootStallMinNs = minNs;
        faults.bootStallMaxNs = maxNs;
        faults.bootStallLeadNs = leadNs;
        return this;
    }

    /**
     * @param injection a scripted fault.
     * @return this.
     */
    public SimConfig inject(final Injection injection)
    {
        mutable(faults).injections.add(injection);
        return this;
    }

    /**
     * @param perNode  application processes each daemon hosts (0: node level only).
     * @param failures processes crashed at random, anywhere in the job, within the crash window.
     * @return this.
     */
    public SimConfig processes(final int perNode, final int failures)
    {
        checkMutable();
        processes.perNode = perNode;
        processes.failures = failures;
        return this;
    }

    /**
     * @param job      the job: any number of processes per daemon (a job file's); replaces a count per node.
     * @param failures processes crashed at random, anywhere in the job, within the crash window.
     * @return this.
     */
    public SimConfig processes(final JobLayout job, final int failures)
    {
        checkMutable();
        processes.job = job;
        processes.perNode = 0;
        processes.failures = failures;
        return this;
    }

    /**
     * @param mode how the cluster starts ({@link BootOptions#mode()}); default {@link BootMode#MEMBERS}.
     * @return this.
     */
    public SimConfig boot(final BootMode mode)
    {
        mutable(boot).mode = mode;
        return this;
    }

    /**
     * @param count the seeds, the first ranks: they start at once; default {@link BootSeeds#DEFAULT}.
     * @return this.
     */
    public SimConfig seeds(final int count)
    {
        mutable(boot).seeds = count;
        return this;
    }

    /**
     * @param ns the ranks that are no seeds start at uniform random moments in [0, ns) (boot modes other than
     *           {@link BootMode#MEMBERS}).
     * @return this.
     */
    public SimConfig startSpreadNs(final long ns)
    {
        mutable(boot).startSpreadNs = ns;
        return this;
    }

    /**
     * @param jitter start each node at a random offset within one heartbeat period (default); false starts all
     *               at time 0 in lockstep.
     * @return this.
     */
    public SimConfig startJitter(final boolean jitter)
    {
        mutable(boot).startJitter = jitter;
        return this;
    }

    /**
     * @param ns delay from a stop to the restart ({@link BootOptions#restartAfterNs()}); 0 or less for no restarts
     *           (the default).
     * @return this.
     */
    public SimConfig restartAfterNs(final long ns)
    {
        mutable(boot).restartAfterNs = ns;
        return this;
    }

    /**
     * @param step added to the incarnation at each restart: 1, the rule; 0 breaks it, for negative controls.
     * @return this.
     */
    public SimConfig restartIncarnationStep(final int step)
    {
        mutable(boot).restartIncarnationStep = step;
        return this;
    }

    /**
     * @param ns how long a run goes on after it became stable, to catch late false suspicions; default 2δ.
     * @return this.
     */
    public SimConfig quietMarginNs(final long ns)
    {
        mutable(limits).quietMarginNs = ns;
        return this;
    }

    /**
     * @param ns virtual time at which a run stops even if it never stabilized (a violation).
     * @return this.
     */
    public SimConfig timeCapNs(final long ns)
    {
        mutable(limits).timeCapNs = ns;
        return this;
    }

    /**
     * @param events most events a run may process; past it the run stops with a {@code flood} violation, so a
     *               broadcast storm is a finding instead of an exhausted heap; default unlimited.
     * @return this.
     */
    public SimConfig eventBudget(final long events)
    {
        mutable(limits).eventBudget = events;
        return this;
    }

    /**
     * @param bound the bound each run's stabilization time is checked against (one-port runs only).
     * @return this.
     */
    public SimConfig bound(final StabilizationBound bound)
    {
        mutable(limits).bound = bound;
        return this;
    }

    public int nodes()
    {
        return nodes;
    }

    public long seed()
    {
        return seed;
    }

    public ProtocolOptions protocol()
    {
        return protocol;
    }

    public NetworkOptions network()
    {
        return network;
    }

    public FaultOptions faults()
    {
        return faults;
    }

    public ProcessOptions processes()
    {
        return processes;
    }

    public BootOptions boot()
    {
        return boot;
    }

    public LimitOptions limits()
    {
        return limits;
    }

    public String toString()
    {
        return "SimConfig{nodes=" + nodes + ", etaNs=" + protocol.heartbeatPeriodNs + ", deltaNs=" +
            protocol.suspicionTimeoutNs + ", tauNs=" + network.maxDelayNs + ", onePort=" + network.onePort + ", loss=" +
            network.lossProbability + ", seed=" + seed + ", placement=" + faults.placement + ", failures=" +
            faults.failures + ", crashWindowNs=" + faults.crashWindowNs + ", mtbfNs=" + faults.mtbfNs +
            ", injections=" + faults.injections.size() + "}";
    }
}
