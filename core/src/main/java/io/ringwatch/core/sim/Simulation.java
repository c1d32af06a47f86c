package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.protocol.Theorem1;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded discrete-event simulation of a whole cluster running the real {@link DetectorNode}s in virtual time.
 * <p>
 * Each node is woken only at its {@link DetectorNode#nextDeadlineNs()} and when something reaches it: a
 * heartbeat lands in its slot (it runs a duty cycle at that instant, as a busy-polling agent would), or a control
 * message is handed to it. Every heartbeat is simulated. Messages take a delay drawn uniformly from (0, τ]; with
 * the one-port model a message also occupies its sender's port and then its receiver's port for that delay,
 * each port serving one message at a time in the order they come. Crashed nodes lose everything sent to them;
 * paused nodes keep receiving into their slot (as with RDMA) and handle queued control messages when they resume.
 * <p>
 * The run tracks, event by event, whether the configuration is stable (every live node knows exactly the stopped
 * ranks and is linked to its live neighbours), stops a quiet margin after it became stable for good or at the
 * time cap, and then applies the {@link Checks}. One {@link SplittableRandom} seeded from the config draws
 * everything, so a run is a pure function of its config.
 * <p>
 * Single use: construct, {@link #run()}, read the result.
 */
public final class Simulation implements ClusterState
{
    private static final byte RUNNING = 0;
    private static final byte PAUSED = 1;
    private static final byte CRASHED = 2;
    private static final byte STOPPED = 3;

    private static final int CELL = 8;
    private static final int STATUS = 0;
    private static final int SLOT_COUNTER = 1;
    private static final int SLOT_WRITER = 2;
    private static final int WAKE_SEQ = 3;
    private static final int WAKE_TIME = 4;
    private static final int SEEN_EPOCH = 5;
    private static final int SEEN_LINKS = 6;
    // bit 0: the node is stable; above it, the size of its dead set when last seen (after each call into it), so a
    // change of the ground truth can rule out the nodes whose view cannot match without touching them
    private static final int STABLE = 7;

    private static final long NONE = -1;
    private static final long GENERATED = 1;
    private static final long BOOT = 1;

    private final SimConfig config;
    private final int n;
    private final long deltaNs;
    private final long tauNs;
    private final boolean onePort;
    private final double loss;
    private final long seed;
    private final SplittableRandom random;
    private final SimFrame frame = new SimFrame();
    private final EventQueue queue;
    private final Network network;
    private final DetectorNode[] nodes;
    private final Port port = new Port();
    private final Forgery forgery;
    private final ProcessLevel processes;

    // The per-node state touched by every event, one 64-byte record per node: at 256k nodes the run is bound by
    // cache misses, and separate arrays would cost one miss each.
    private final long[] cells;
    private final long[] resumeAtNs;
    private final long[] lastResumeNs;
    private final boolean[] condemned;
    private final boolean[] cutOffDeclared;
    private final FirstFailureSpread firstSpread;
    private final ExclusionCause[] exclusionCauses;
    private final int[] majorityGroup;
    private final ProtocolSettings settings;
    private final BroadcastSchedule schedule;
    private final long restartAfterNs;
    private long reformsOfReplacedNodes;
    // for the majority checker: who ever crashed, and each rank's first exclusion
    private final boolean[] crashedEver;
    private final long[] firstExcludedNs;
    private final ExclusionCause[] firstExclusionCauses;
    // ground truth per rank: the incarnation of its current (or last) life
    private final int[] incarnations;
    private final JoinSpreadCheck joinSpread;
    private int restarts;
    // ranks restarted at least once, in order: a node is stable only once it knows each one's current life
    private final RankArray restarted = new RankArray(8);
    private int joinViolations;
    // boot through joins: when each rank that is no seed starts (NONE for ranks that start with the cluster)
    private final long[] bootStartNs;
    private int boots;
    private int notStarted;
    private int bootViolations;
    // startup grace: when each rank's first life started, the boot stalls planned ([from, until] pairs), and every
    // verdict and stop, for the grace checker
    private final long[] firstStartNs;
    private final List<long[]> bootStallsNs = new ArrayList<>();
    private final List<String> graceEvents = new ArrayList<>();
    private int graceEventCount;
    private final long[] stoppedAtNs;
    private int[] firstPartitionGroups;
    private boolean[] losing;

    private int stableCount;
    private int liveCount;
    private int stoppedCount;
    private boolean groundChanged;

    private long nowNs;
    private long endNs;
    private long lastInjectionNs;
    private long runUntilNs;
    private boolean exponentialActive;
    private int firstFailureRank = -1;
    private long firstFailureNs = NONE;
    private long stableSinceNs = NONE;
    private int crashesAtStable;
    private int crashes;
    private int leaves;
    private int exclusions;
    private boolean ran;

    private long heartbeatMessages;
    private long newObserverMessages;
    private long noticeMessages;
    private long leaveMessages;
    private long probeMessages;
    private long viewDigestMessages;
    private long lostMessages;
    private long vanishedMessages;
    private long eventsProcessed;
    private int accuracyViolations;
    private int deafAccusations;
    private final List<String> violations = new ArrayList<>();

    /**
     * @param config the run's parameters; concluded here if it was not.
     */
    public Simulation(final SimConfig config)
    {
        this.config = config.conclude();
        n = config.nodes();
        deltaNs = config.suspicionTimeoutNs();
        tauNs = config.maxDelayNs();
        onePort = config.onePort();
        loss = config.lossProbability();
        seed = config.seed();
        random = new SplittableRandom(seed);
        queue = new EventQueue(2 * n + 64);

        cells = new long[n * CELL];
        for (int rank = 0; rank < n; rank++)
        {
            cells[rank * CELL + STATUS] = RUNNING;
            cells[rank * CELL + SLOT_WRITER] = -1;
            cells[rank * CELL + WAKE_SEQ] = NONE;
        }
        resumeAtNs = new long[n];
        lastResumeNs = new long[n];
        Arrays.fill(lastResumeNs, NONE);
        network = new Network(random, n, config.delayModel(), loss, onePort);
        forgery = new Forgery(config);
        condemned = new boolean[n];
        cutOffDeclared = new boolean[n];
        firstSpread = new FirstFailureSpread(n);
        exclusionCauses = new ExclusionCause[n];
        stoppedAtNs = new long[n];
        Arrays.fill(stoppedAtNs, NONE);
        majorityGroup = placePartitions();
        crashedEver = new boolean[n];
        firstExcludedNs = new long[n];
        Arrays.fill(firstExcludedNs, NONE);
        firstExclusionCauses = new ExclusionCause[n];

        settings = ProtocolSettings.of(n, config.heartbeatPeriodNs(), deltaNs)
            .withPauseThresholdNs(config.pauseThresholdNs())
            .withFenceIntervalNs(config.fenceIntervalNs())
            .withPartitionPolicy(config.partitionPolicy())
            .withProbeTimeoutNs(config.probeTimeoutNs())
            .withViewDigestPeriodNs(config.viewDigestPeriodNs())
            .withStartupGraceNs(config.startupGraceNs())
            .withBrokenRules(config.brokenRules());
        schedule = config.broadcast().newSchedule();
        restartAfterNs = config.restartAfterNs();
        incarnations = new int[n];
        joinSpread = new JoinSpreadCheck(n, deltaNs);
        nodes = new DetectorNode[n];
        firstStartNs = new long[n];
        for (int rank = 0; rank < n; rank++)
        {
            final long startNs = config.startJitter() ? random.nextLong(config.heartbeatPeriodNs()) : 0;
            firstStartNs[rank] = startNs;
            nodes[rank] = new DetectorNode(rank, 0, settings, schedule, port, port, port, startNs);
            if (config.boot() == BootMode.JOIN && rank < config.seeds())
            {
                nodes[rank].bootAsSeed(config.seeds(), startNs);
            }
        }
        bootStartNs = new long[n];
        Arrays.fill(bootStartNs, NONE);
        if (config.boot() != BootMode.MEMBERS)
        {
            // drawn only in these modes, so runs booting as members keep their seeds' outcomes
            for (int rank = config.seeds(); rank < n; rank++)
            {
                bootStartNs[rank] = config.startSpreadNs() > 0 ? random.nextLong(config.startSpreadNs()) : 0;
                firstStartNs[rank] = bootStartNs[rank];
                cells[rank * CELL + STATUS] = STOPPED;
                notStarted++;
            }
        }
        processes = config.jobLayout() != null ? new ProcessLevel(this, nodes, config.jobLayout(), schedule) : null;
    }

    /**
     * Gives each partition's groups their ranks and hands them to the network. Draws from the run's random source
     * only when there are partitions, so runs without them keep their seeds' outcomes.
     *
     * @return ranks of the side of the first partition that should survive under the majority rule (a strict
     * majority, or half holding rank 0; for a one-way cut, all but the deaf group), or an empty array.
     */
    private int[] placePartitions()
    {
        int[] majority = new int[0];
        for (final Partition partition : config.partitions())
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
                int winners = 0;
                for (int rank = 0; rank < n; rank++)
                {
                    winners += losing[rank] ? 0 : 1;
                }
                majority = new int[winners];
                int m = 0;
                for (int rank = 0; rank < n; rank++)
                {
                    if (!losing[rank])
                    {
                        majority[m++] = rank;
                    }
                }
            }
        }
        return majority;
    }

    /**
     * Convenience: build and run.
     *
     * @param config parameters.
     * @return the result.
     */
    public static SimResult run(final SimConfig config)
    {
        return new Simulation(config).run();
    }

    /**
     * @return the result of the run.
     */
    public SimResult run()
    {
        if (ran)
        {
            throw new IllegalStateException("a Simulation runs once");
        }
        ran = true;

        liveCount = n - notStarted;
        stoppedCount = notStarted;
        for (int rank = 0; rank < n; rank++)
        {
            refreshStable(rank);
            scheduleWake(rank);
            if (bootStartNs[rank] != NONE)
            {
                queue.schedule(bootStartNs[rank], EventQueue.RESTART, -1, rank, BOOT, null);
            }
        }
        planInjections();
        endNs = config.timeCapNs();

        while (!queue.isEmpty() && queue.peekTimeNs() <= endNs)
        {
            final int slot = queue.poll();
            nowNs = queue.polledTimeNs();
            if (++eventsProcessed > config.eventBudget())
            {
                // a storm: stop here, as a finding, rather than run out of heap
                violations.add("seed=" + seed + ": flood: more than " + config.eventBudget() + " events by " + nowNs +
                    "ns (" + noticeMessages + " notice copies)");
                queue.release(slot);
                break;
            }
            if (!dispatch(slot))
            {
                queue.release(slot);
            }
            if (groundChanged)
            {
                groundChanged = false;
                refreshAllStable();
            }
            trackStability();
        }
        return finish();
    }

    /**
     * The first partition's cut again, {@link SimConfig#flaps()} times in all, and stalls of the nodes on its edges.
     */
    private void planFlapsAndStalls()
    {
        if (firstPartitionGroups == null)
        {
            return;
        }
        final Partition first = config.partitions().get(0);
        for (int k = 1; k < config.flaps(); k++)
        {
            final long startNs = first.startNs() + k * (first.durationNs() + config.flapUpNs());
            network.partition(firstPartitionGroups, startNs, startNs + first.durationNs(), first.oneWay());
            lastInjectionNs = Math.max(lastInjectionNs, startNs + first.durationNs());
        }
        final long stallNs = config.cutStallNs();
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
                    lastInjectionNs = Math.max(lastInjectionNs, atNs + stallNs);
                }
            }
        }
    }

    private void planInjections()
    {
        lastInjectionNs = 0;
        if (config.boot() != BootMode.MEMBERS)
        {
            // the boot is what the cluster stabilizes from: every started rank admitted everywhere
            firstFailureNs = 0;
            lastInjectionNs = config.startSpreadNs();
        }
        for (final Partition partition : config.partitions())
        {
            // a partition is a failure of the network: stabilization counts from its start
            if (firstFailureNs == NONE || partition.startNs() < firstFailureNs)
            {
                firstFailureNs = partition.startNs();
            }
            lastInjectionNs = Math.max(lastInjectionNs, partition.endNs());
        }
        if (config.startupGraceNs() > 0)
        {
            // run on until every node has judged for a while (the arming at the grace's end is what is tested), without
            // counting the grace as time to stabilize
            for (final long startNs : firstStartNs)
            {
                runUntilNs = Math.max(runUntilNs, startNs + config.startupGraceNs() + 4 * deltaNs);
            }
        }
        planFlapsAndStalls();
        for (final Injection injection : config.injections())
        {
            lastInjectionNs = Math.max(lastInjectionNs, injection.timeNs() + injection.durationNs());
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

        final int f = config.failures();
        final long firstNs = config.firstFailureNs();
        switch (config.placement())
        {
            case RANDOM, CONTIGUOUS ->
            {
                if (f == 0)
                {
                    break;
                }
                final long[] times = crashTimes(f, firstNs);
                if (config.placement() == FailurePlacement.CONTIGUOUS)
                {
                    final int start = random.nextInt(n);
                    for (int i = 0; i < f; i++)
                    {
                        scheduleCrash(times[i], (start + i) % n, 0);
                    }
                }
                else
                {
                    final boolean[] picked = new boolean[n];
                    for (int i = 0; i < f; i++)
                    {
                        final int rank = pickUnpicked(picked);
                        scheduleCrash(times[i], rank, 0);
                    }
                }
            }
            case EXPONENTIAL ->
            {
                if (f > 0)
                {
                    exponentialActive = true;
                    scheduleCrash(firstNs, -1, GENERATED);
                    lastInjectionNs = Math.max(lastInjectionNs, firstNs);
                }
            }
            case SCRIPTED ->
            {
            }
        }
        planRandomPauses(firstNs);
        if (processes != null && config.processFailures() > 0)
        {
            // drawn last, so runs without process failures keep their seeds' outcomes
            final long lastNs = processes.plan(random, config.processFailures(), firstNs, config.crashWindowNs(), queue);
            lastInjectionNs = Math.max(lastInjectionNs, lastNs);
        }
        planBootStalls();
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
        final int k = config.bootStalls();
        final boolean[] picked = new boolean[n];
        for (int i = 0; i < k; i++)
        {
            final int rank = pickUnpicked(picked);
            final long graceEndNs = firstStartNs[rank] + config.startupGraceNs();
            final long atNs = graceEndNs - 1 - random.nextLong(config.bootStallLeadNs());
            final long spanNs = config.bootStallMaxNs() - config.bootStallMinNs();
            final long durationNs = config.bootStallMinNs() + (spanNs > 0 ? random.nextLong(spanNs + 1) : 0);
            queue.schedule(atNs, EventQueue.PAUSE, -1, rank, durationNs, null);
            bootStallsNs.add(new long[] {atNs, atNs + durationNs});
            lastInjectionNs = Math.max(lastInjectionNs, atNs + durationNs);
        }
    }

    /**
     * Pauses of random nodes within the crash window, drawn after the crashes so runs without pauses keep their
     * seeds' outcomes. A paused node may also be picked to crash later; it then simply stays down.
     */
    private void planRandomPauses(final long firstNs)
    {
        final int k = config.randomPauses();
        if (k == 0)
        {
            return;
        }
        final boolean[] picked = new boolean[n];
        for (int i = 0; i < k; i++)
        {
            final int rank = pickUnpicked(picked);
            final long atNs = firstNs + (config.crashWindowNs() > 0 ? random.nextLong(config.crashWindowNs()) : 0);
            queue.schedule(atNs, EventQueue.PAUSE, -1, rank, config.randomPauseNs(), null);
            lastInjectionNs = Math.max(lastInjectionNs, atNs + config.randomPauseNs());
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
            times[i] = firstNs + (config.crashWindowNs() > 0 ? random.nextLong(config.crashWindowNs()) : 0);
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

    private void scheduleCrash(final long timeNs, final int rank, final long generated)
    {
        queue.schedule(timeNs, EventQueue.CRASH, -1, rank, generated, null);
        if (generated != GENERATED)
        {
            // a pending Poisson arrival is cancelled once the run is stable, so it must not hold stability back
            lastInjectionNs = Math.max(lastInjectionNs, timeNs);
        }
    }

    /**
     * @return true if the event's slot was requeued and must not be released.
     */
    private boolean dispatch(final int slot)
    {
        final int to = queue.to(slot);
        switch (queue.type(slot))
        {
            case EventQueue.WAKE ->
            {
                if (cells[to * CELL + STATUS] == RUNNING && cells[to * CELL + WAKE_SEQ] == queue.polledSeq())
                {
                    cells[to * CELL + WAKE_SEQ] = NONE;
                    enter(to).doWork(nowNs);
                    afterCall(to);
                }
            }
            case EventQueue.HEARTBEAT -> deliverHeartbeat(queue.from(slot), to, queue.value(slot));
            case EventQueue.NEW_OBSERVER, EventQueue.NOTICE, EventQueue.LEAVE_MESSAGE, EventQueue.FORGED_NOTICE,
                EventQueue.JOIN_REQUEST, EventQueue.VIEW, EventQueue.VIEW_DIGEST, EventQueue.PROBE, EventQueue.PROBE_ACK,
                EventQueue.PROCESS_NOTICE, EventQueue.REFORM_POLL, EventQueue.REFORM_ACK, EventQueue.JOIN_CHALLENGE,
                EventQueue.JOIN_PROOF ->
            {
                return deliverControl(slot, to);
            }
            case EventQueue.PROCESS_CRASH ->
            {
                return crashProcess(slot, to, (int)queue.value(slot));
            }
            case EventQueue.CRASH -> crash(to, queue.value(slot) == GENERATED);
            case EventQueue.PAUSE -> pause(to, queue.value(slot));
            case EventQueue.RESUME -> resume(to);
            case EventQueue.LEAVE_NODE -> leave(to);
            case EventQueue.RESTART -> restart(to, queue.value(slot) == BOOT);
            default -> throw new IllegalStateException("unknown event type " + queue.type(slot));
        }
        return false;
    }

    private void deliverHeartbeat(final int from, final int to, final long counter)
    {
        if (isStopped(to))
        {
            vanishedMessages++;
            return;
        }
        cells[to * CELL + SLOT_COUNTER] = counter;
        cells[to * CELL + SLOT_WRITER] = from;
        if (cells[to * CELL + STATUS] == RUNNING)
        {
            enter(to).doWork(nowNs);
            afterCall(to);
        }
    }

    private boolean deliverControl(final int slot, final int to)
    {
        if (isStopped(to))
        {
            vanishedMessages++;
            return false;
        }
        if (cells[to * CELL + STATUS] == PAUSED)
        {
            queue.requeue(slot, resumeAtNs[to]);
            return true;
        }
        final int from = queue.from(slot);
        // control messages carry their sender's incarnation, as frames do in their header (probes: see sendProbeEvent)
        final int fromIncarnation = (int)queue.value(slot);
        final SimFrame frame = switch (queue.type(slot))
        {
            case EventQueue.NEW_OBSERVER -> this.frame.newObserver(from, fromIncarnation, to);
            case EventQueue.NOTICE -> this.frame.notice(from, fromIncarnation, (SimNotice)queue.ref(slot));
            case EventQueue.JOIN_REQUEST -> this.frame.header(FrameType.JOIN_REQUEST, from, fromIncarnation);
            case EventQueue.VIEW ->
            {
                final SimView view = (SimView)queue.ref(slot);
                yield this.frame.view(from, fromIncarnation, view.dead(), view.incarnations());
            }
            case EventQueue.VIEW_DIGEST ->
                this.frame.token(FrameType.VIEW_DIGEST, from, fromIncarnation, (Long)queue.ref(slot));
            case EventQueue.JOIN_CHALLENGE ->
                this.frame.token(FrameType.JOIN_CHALLENGE, from, fromIncarnation, (Long)queue.ref(slot));
            case EventQueue.JOIN_PROOF ->
                this.frame.token(FrameType.JOIN_PROOF, from, fromIncarnation, (Long)queue.ref(slot));
            case EventQueue.PROBE -> this.frame.token(FrameType.PROBE, from, probeIncarnation(slot), probeToken(slot));
            case EventQueue.PROBE_ACK ->
                this.frame.token(FrameType.PROBE_ACK, from, probeIncarnation(slot), probeToken(slot));
            case EventQueue.REFORM_POLL ->
                this.frame.token(FrameType.REFORM_POLL, from, probeIncarnation(slot), probeToken(slot));
            case EventQueue.REFORM_ACK ->
                this.frame.token(FrameType.REFORM_ACK, from, probeIncarnation(slot), probeToken(slot));
            case EventQueue.PROCESS_NOTICE ->
            {
                processes.deliver(to, from, (SimProcessNotice)queue.ref(slot), nowNs);
                yield null;
            }
            case EventQueue.FORGED_NOTICE ->
            {
                // only what the receiver's decoder accepts reaches the node
                final SimNotice believed = forgery.receive(to, (UnsafeBuffer)queue.ref(slot));
                yield believed == null ? null :
                    this.frame.notice(forgery.lastSender(), InboundFrame.UNKNOWN_INCARNATION, believed);
            }
            default -> this.frame.header(FrameType.LEAVE, from, fromIncarnation);
        };
        if (frame != null)
        {
            enter(to).onFrame(frame, nowNs);
        }
        afterCall(to);
        return false;
    }

    private void crash(final int scriptedRank, final boolean generated)
    {
        if (generated && !exponentialActive)
        {
            return;
        }
        int rank = scriptedRank;
        if (rank < 0)
        {
            do
            {
                rank = random.nextInt(n);
            }
            while (isStopped(rank));
        }
        if (isStopped(rank))
        {
            return;
        }
        cells[rank * CELL + STATUS] = CRASHED;
        cells[rank * CELL + WAKE_SEQ] = NONE;
        crashedEver[rank] = true;
        crashes++;
        nodeStopped(rank);
        scheduleRestart(rank);
        recordFailure(rank);

        if (generated && crashes < config.failures() && liveCount > 1)
        {
            // Poisson arrivals of rate λ = n/μ_ind over the nodes still alive
            final double meanGapNs = (double)config.mtbfNs() / liveCount;
            final long gapNs = (long)Math.ceil(-Math.log(1.0 - random.nextDouble()) * meanGapNs);
            scheduleCrash(nowNs + Math.max(1, gapNs), -1, GENERATED);
        }
    }

    private void scheduleRestart(final int rank)
    {
        joinSpread.fault(nowNs, nowNs);
        if (restartAfterNs > 0)
        {
            queue.schedule(nowNs + restartAfterNs, EventQueue.RESTART, -1, rank, 0, null);
            lastInjectionNs = Math.max(lastInjectionNs, nowNs + restartAfterNs);
        }
    }

    /**
     * A stopped rank comes back as a new process: a fresh node under the next incarnation that joins. Its slot
     * starts empty, as a restarted process's memory does.
     */
    private void restart(final int rank, final boolean boot)
    {
        if (!isStopped(rank))
        {
            return;
        }
        if (boot)
        {
            // a first start: under start = join the first life of a rank that is no seed is incarnation 1
            boots++;
            notStarted--;
            if (config.boot() == BootMode.JOIN)
            {
                incarnations[rank] = 1;
                restarted.add(rank);
            }
        }
        else
        {
            incarnations[rank] += config.restartIncarnationStep();
            restarts++;
            restarted.add(rank);
        }
        final int cell = rank * CELL;
        cells[cell + STATUS] = RUNNING;
        cells[cell + SLOT_COUNTER] = 0;
        cells[cell + SLOT_WRITER] = -1;
        cells[cell + WAKE_SEQ] = NONE;
        condemned[rank] = false;
        exclusionCauses[rank] = null;
        lastResumeNs[rank] = NONE;
        joinSpread.forget(rank);
        stoppedAtNs[rank] = NONE;
        cutOffDeclared[rank] = false;
        stoppedCount--;
        liveCount++;
        groundChanged = true;
        reformsOfReplacedNodes += nodes[rank].counter(ProtocolCounter.REFORMS);
        nodes[rank] = new DetectorNode(rank, incarnations[rank], settings, schedule, port, port, port, nowNs);
        if (incarnations[rank] > 0)
        {
            if (config.boot() == BootMode.JOIN && boot)
            {
                // a first start asks at once, within every node's grace, as the runtime's does
                enter(rank).joinAtBoot(nowNs, config.seeds());
            }
            else if (config.boot() == BootMode.JOIN)
            {
                enter(rank).join(nowNs, config.seeds());
            }
            else
            {
                enter(rank).join(nowNs);
            }
        }
        afterCall(rank);
        refreshStable(rank);
    }

    /**
     * A process dies now; its daemon sees it at once if it runs, when it resumes if it is paused, never if it stopped
     * (its node's death already covers the process).
     *
     * @return true if the event was requeued for the daemon's resumption.
     */
    private boolean crashProcess(final int slot, final int node, final int process)
    {
        final long status = cells[node * CELL + STATUS];
        processes.crash(process, status == RUNNING, nowNs);
        if (status == PAUSED)
        {
            queue.requeue(slot, resumeAtNs[node]);
            return true;
        }
        if (status == RUNNING)
        {
            afterCall(node);
        }
        return false;
    }

    /**
     * Hand a process notice to the network, as the {@link ProcessLevel} of a daemon sends it.
     */
    void sendProcessNotice(final int from, final int to, final SimProcessNotice notice)
    {
        send(EventQueue.PROCESS_NOTICE, from, to, 0, notice);
    }

    /**
     * @return the process level, or null when the run has no processes.
     */
    ProcessLevel processLevel()
    {
        return processes;
    }

    /**
     * After {@link #run()}: for each crashed process whose node kept running, the time from its crash to the last
     * daemon learning it, ascending; empty without processes.
     *
     * @return spread times, ns.
     */
    public long[] processSpreadNs()
    {
        return processes == null ? new long[0] : processes.spreadNs();
    }

    /**
     * @return PROCESS_FAILURE messages sent in the run, forwards included.
     */
    public long processNoticeMessages()
    {
        return processes == null ? 0 : processes.messages();
    }

    private void pause(final int rank, final long durationNs)
    {
        if (cells[rank * CELL + STATUS] != RUNNING)
        {
            return;
        }
        cells[rank * CELL + STATUS] = PAUSED;
        cells[rank * CELL + WAKE_SEQ] = NONE;
        resumeAtNs[rank] = nowNs + durationNs;
        joinSpread.fault(nowNs, nowNs + durationNs);
        queue.schedule(resumeAtNs[rank], EventQueue.RESUME, -1, rank, 0, null);
    }

    private void resume(final int rank)
    {
        if (cells[rank * CELL + STATUS] != PAUSED)
        {
            return;
        }
        cells[rank * CELL + STATUS] = RUNNING;
        lastResumeNs[rank] = nowNs;
        // duty cycle first, queued messages after: the node's own pause guard must hold on its own
        enter(rank).doWork(nowNs);
        afterCall(rank);
    }

    private void leave(final int rank)
    {
        if (cells[rank * CELL + STATUS] != RUNNING)
        {
            return;
        }
        recordFailure(rank);
        enter(rank).leave(nowNs);
        afterCall(rank);
    }

    /**
     * @return the node, with the shared port now speaking for it: every channel and listener call a node makes
     * happens inside the call the simulator makes into it.
     */
    private DetectorNode enter(final int rank)
    {
        port.rank = rank;
        return nodes[rank];
    }

    private void recordFailure(final int rank)
    {
        if (firstFailureNs == NONE || nowNs < firstFailureNs || (firstFailureRank < 0 && nowNs == firstFailureNs))
        {
            firstFailureRank = rank;
            firstFailureNs = nowNs;
        }
    }

    private void nodeStopped(final int rank)
    {
        stoppedAtNs[rank] = nowNs;
        stoppedCount++;
        liveCount--;
        markUnstable(rank);
        groundChanged = true;
    }

    private void afterCall(final int rank)
    {
        if (isStopped(rank))
        {
            return;
        }
        final DetectorNode node = nodes[rank];
        // a joiner is confirmed by its neighbours without a change of view or links: look again until it is
        if (node.viewEpoch() != cells[rank * CELL + SEEN_EPOCH] || links(node) != cells[rank * CELL + SEEN_LINKS] ||
            !isStable(rank) && incarnations[rank] > 0)
        {
            refreshStable(rank);
        }
        else
        {
            seenDeadSize(rank, node.deadSet().size());
        }
        scheduleWake(rank);
    }

    private static long links(final DetectorNode node)
    {
        return ((long)node.emitter() << 32) | (node.observer() & 0xFFFF_FFFFL);
    }

    private void scheduleWake(final int rank)
    {
        if (cells[rank * CELL + STATUS] != RUNNING)
        {
            return;
        }
        final long deadlineNs = nodes[rank].nextDeadlineNs();
        if (deadlineNs == Long.MAX_VALUE)
        {
            cells[rank * CELL + WAKE_SEQ] = NONE;
            return;
        }
        final long atNs = Math.max(deadlineNs, nowNs);
        if (cells[rank * CELL + WAKE_SEQ] != NONE && cells[rank * CELL + WAKE_TIME] == atNs)
        {
            return;
        }
        cells[rank * CELL + WAKE_TIME] = atNs;
        // any earlier wake event for this node is now stale and skipped when it comes up
        cells[rank * CELL + WAKE_SEQ] = queue.schedule(atNs, EventQueue.WAKE, -1, rank, 0, null);
    }

    private void refreshStable(final int rank)
    {
        final DetectorNode node = nodes[rank];
        cells[rank * CELL + SEEN_EPOCH] = node.viewEpoch();
        cells[rank * CELL + SEEN_LINKS] = links(node);
        seenDeadSize(rank, node.deadSet().size());
        final boolean nowStable = Checks.isNodeStable(this, rank, stoppedCount) && knowsCurrentLives(rank);
        if (nowStable != isStable(rank))
        {
            cells[rank * CELL + STABLE] ^= 1;
            stableCount += nowStable ? 1 : -1;
        }
    }

    private boolean isStable(final int rank)
    {
        return (cells[rank * CELL + STABLE] & 1) != 0;
    }

    private void markUnstable(final int rank)
    {
        if (isStable(rank))
        {
            cells[rank * CELL + STABLE] ^= 1;
            stableCount--;
        }
    }

    private void seenDeadSize(final int rank, final int size)
    {
        cells[rank * CELL + STABLE] = (long)size << 1 | (cells[rank * CELL + STABLE] & 1);
    }

    /**
     * @return true if the node has taken part since its last restart (if any) and holds every running restarted rank
     * at its current incarnation: dead sets alone cannot tell a rank's old life from its new one.
     */
    private boolean knowsCurrentLives(final int rank)
    {
        if (restarted.size() == 0)
        {
            return true;
        }
        final DetectorNode node = nodes[rank];
        if (!isAdmitted(rank))
        {
            return false;
        }
        for (int i = 0, size = restarted.size(); i < size; i++)
        {
            final int r = restarted.rankAt(i);
            if (!isStopped(r) && node.incarnationOf(r) != incarnations[r])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * After a change of the ground truth. A node whose dead set is not the size of the stopped set cannot be stable
     * ({@link Checks#isNodeStable}); its size as seen after its last call is still its size (nothing changes a node
     * between calls), so such nodes are ruled out from the cells alone: a crash in a million-node run would otherwise
     * visit every node's objects.
     */
    private void refreshAllStable()
    {
        for (int rank = 0; rank < n; rank++)
        {
            if (isStopped(rank))
            {
                continue;
            }
            if (cells[rank * CELL + STABLE] >>> 1 != stoppedCount)
            {
                markUnstable(rank);
            }
            else
            {
                refreshStable(rank);
            }
        }
    }

    private void trackStability()
    {
        if (stableCount == liveCount)
        {
            if (stableSinceNs == NONE && firstFailureNs != NONE && nowNs >= lastInjectionNs)
            {
                stableSinceNs = nowNs;
                crashesAtStable = crashes;
                exponentialActive = false;
                endNs = Math.min(config.timeCapNs(), Math.max(runUntilNs, nowNs + config.quietMarginNs()));
            }
            else if (firstFailureNs == NONE && nowNs >= lastInjectionNs)
            {
                endNs = Math.min(endNs, Math.max(runUntilNs, nowNs + config.quietMarginNs()));
            }
        }
        else if (stableSinceNs != NONE)
        {
            stableSinceNs = NONE;
            endNs = config.timeCapNs();
        }
    }

    private void sendControl(final byte type, final int to, final Object ref)
    {
        send(type, port.rank, to, nodes[port.rank].incarnation(), ref);
    }

    /**
     * A probe's event carries its token and its sender's incarnation in one value: the token in the high half (a
     * node's probe tokens stay far below 2³¹ in any run), the incarnation in the low one.
     */
    private void sendProbeEvent(final byte type, final int to, final long token)
    {
        if (token >>> 31 != 0)
        {
            throw new IllegalStateException("probe token too large for the simulator: " + token);
        }
        send(type, port.rank, to, token << 32 | (nodes[port.rank].incarnation() & 0xFFFF_FFFFL), null);
    }

    private long probeToken(final int slot)
    {
        return queue.value(slot) >>> 32;
    }

    private int probeIncarnation(final int slot)
    {
        return (int)queue.value(slot);
    }

    private void send(final byte type, final int from, final int to, final long value, final Object ref)
    {
        final long atNs = network.deliveryTimeNs(nowNs, from, to);
        if (atNs == Network.LOST)
        {
            lostMessages++;
            return;
        }
        if (onePort && type == EventQueue.NOTICE)
        {
            joinSpread.broadcastCopy(ref, nowNs, atNs);
        }
        queue.schedule(atNs, type, from, to, value, ref);
    }

    /**
     * @return the first verdicts and stops of the run, in order, each with the grace checker's wording (kept whether
     * or not that checker applies: a swarm looking for stops without a death reads them).
     */
    List<String> firstVerdictsAndStops()
    {
        return List.copyOf(graceEvents);
    }

    /**
     * Counts one verdict or stop for the grace checker.
     *
     * @return true if it is among the first reported, so its wording is wanted: built only then, as a million-node
     * run makes tens of millions of declarations.
     */
    private boolean graceEventReported()
    {
        return graceEventCount++ < Checks.MAX_REPORTED;
    }

    private void graceEvent(final String what)
    {
        graceEvents.add("seed=" + seed + ": grace: " + what + " on a run whose only disturbances were boot " +
            "stalls that ended before anyone could judge");
    }

    private SimResult finish()
    {
        final List<String> found = new ArrayList<>(violations);
        Checks.reportRest(found, seed, "accuracy", accuracyViolations);
        Checks.checkViews(this, seed, found);
        Checks.checkRing(this, seed, found);
        Checks.checkFencing(this, condemned, seed, found);
        if (processes != null)
        {
            processes.check(seed, found);
        }
        final int splitBrainPairs = Checks.checkSplitBrain(this, seed, found);
        Checks.reportRest(found, seed, "join", joinViolations);
        Checks.reportRest(found, seed, "boot", bootViolations);
        final boolean graceChecked = Checks.graceCheckApplies(config, firstStartNs, bootStallsNs);
        if (graceChecked)
        {
            found.addAll(graceEvents);
            Checks.reportRest(found, seed, "grace", graceEventCount);
        }
        final int rejoined = Checks.checkRejoined(this, seed, found);
        final long joinSpreadMaxNs = joinSpread.check(this, onePort, loss, tauNs, seed, found);
        int majorityLost = 0;
        for (final int rank : majorityGroup)
        {
            if (cells[rank * CELL + STATUS] == STOPPED && exclusionCauses[rank] != ExclusionCause.LEFT)
            {
                majorityLost++;
            }
        }
        final long minorityFenceNs = checkPartitions(found);
        if (majorityKeptApplies())
        {
            Checks.checkMajorityKept(firstPartitionGroups, crashedEver, firstExcludedNs, firstExclusionCauses, seed,
                found);
        }

        long stabilizationNs = NONE;
        long firstKnownNs = NONE;
        long firstBroadcastNs = NONE;
        long boundNs = NONE;
        final List<String> boundViolations = new ArrayList<>();
        if (firstFailureNs != NONE)
        {
            // under the majority rule a partition with no majority side stops everyone: nothing left to stabilize
            Checks.checkLiveness(stableSinceNs != NONE || liveCount == 0, config.timeCapNs(), firstFailureNs,
                liveCount - stableCount, liveCount, seed, found);
            if (stableSinceNs != NONE)
            {
                stabilizationNs = stableSinceNs - firstFailureNs;
            }
            firstKnownNs = firstSpread.knownNs(this, firstFailureNs);
            firstBroadcastNs = firstSpread.broadcastNs(this);

            final boolean theoremModel = onePort && loss == 0 && config.heartbeatPeriodNs() >= 3 * tauNs &&
                leaves == 0 && exclusions == 0 && restarts == 0 && config.partitions().isEmpty();
            if (stabilizationNs != NONE && theoremModel &&
                Theorem1.applies(crashesAtStable, n))
            {
                boundNs = config.bound().boundNs(crashesAtStable, n, deltaNs, tauNs);
                Checks.checkBound(stabilizationNs, boundNs, crashesAtStable, n, seed, boundViolations);
            }
        }

        return new SimResult(
            seed,
            n,
            crashes,
            leaves,
            exclusions,
            firstFailureNs,
            firstKnownNs,
            firstBroadcastNs,
            stabilizationNs,
            stableSinceNs == NONE ? crashes : crashesAtStable,
            boundNs,
            heartbeatMessages,
            newObserverMessages,
            noticeMessages,
            leaveMessages,
            lostMessages,
            vanishedMessages,
            eventsProcessed,
            nowNs,
            found,
            boundViolations,
            splitBrainPairs,
            majorityLost,
            fencesSent(),
            minorityFenceNs,
            probeMessages,
            restarts,
            rejoined,
            joinSpreadMaxNs,
            boots,
            healsAnnounced(),
            viewDigestMessages,
            sum(ProtocolCounter.VIEWS_REPAIRED),
            reformsOfReplacedNodes + sum(ProtocolCounter.REFORMS),
            graceChecked);
    }

    /**
     * The partition checks, on runs whose only faults are partitions (crashes and pauses would blur who must stop).
     *
     * @return from the first cut to the last node of a side without a majority stopping, -1 if it does not apply.
     */
    private long checkPartitions(final List<String> found)
    {
        if (losing == null)
        {
            return NONE;
        }
        final Partition first = config.partitions().get(0);
        final long minorityFenceNs = PartitionOutcome.lastStopNs(losing, stoppedAtNs, first.startNs());
        // restarts bring stopped nodes back as new lives: who stopped at the end no longer tells who had to
        final boolean onlyPartitions = config.failures() == 0 && config.randomPauses() == 0 && config.cutStallNs() == 0 &&
            config.injections().isEmpty() && config.restartAfterNs() <= 0;
        if (!onlyPartitions)
        {
            return minorityFenceNs;
        }
        // cuts flapping with short up times add up to one longer outage
        boolean allShort = config.flaps() == 1;
        for (final Partition partition : config.partitions())
        {
            allShort &= 2 * partition.durationNs() < deltaNs;
        }
        if (allShort)
        {
            int declared = 0;
            for (int rank = 0; rank < n; rank++)
            {
                declared += isStopped(rank) ? 0 : nodes[rank].deadSet().size();
            }
            Checks.checkShortCut(exclusions, declared, seed, found);
        }
        if (config.partitionPolicy() == PartitionPolicy.MAJORITY && config.partitions().size() == 1)
        {
            final boolean[] excluded = new boolean[n];
            for (int rank = 0; rank < n; rank++)
            {
                excluded[rank] = cells[rank * CELL + STATUS] == STOPPED && exclusionCauses[rank] != ExclusionCause.LEFT;
            }
            Checks.checkPartitionOutcome(losing, stoppedAtNs, excluded, first.startNs(), first.durationNs(),
                Checks.minorityBoundNs(n, deltaNs), seed, found);
        }
        return minorityFenceNs;
    }

    /**
     * The majority checker needs one clean cut: no pauses or stalls (a paused node is rightly fenced), no loss, no
     * flapping, no forged or injected faults, and the majority rule.
     */
    private boolean majorityKeptApplies()
    {
        return firstPartitionGroups != null && config.partitions().size() == 1 && config.flaps() == 1 &&
            config.partitionPolicy() == PartitionPolicy.MAJORITY && config.randomPauses() == 0 &&
            config.cutStallNs() == 0 && config.injections().isEmpty() && config.bootStalls() == 0 && loss == 0;
    }

    private long fencesSent()
    {
        return sum(ProtocolCounter.FENCES_SENT);
    }

    private long healsAnnounced()
    {
        return sum(ProtocolCounter.HEALS_ANNOUNCED);
    }

    private long sum(final ProtocolCounter counter)
    {
        long total = 0;
        for (final DetectorNode node : nodes)
        {
            total += node.counter(counter);
        }
        return total;
    }

    /**
     * @return events processed so far; may be read from another thread while the run goes on (for progress only: the
     * value may lag).
     */
    public long eventsSoFar()
    {
        return eventsProcessed;
    }

    /**
     * @return the virtual time reached so far; readable from another thread as {@link #eventsSoFar()} is.
     */
    public long virtualTimeNs()
    {
        return nowNs;
    }

    public int clusterSize()
    {
        return n;
    }

    public boolean isStopped(final int rank)
    {
        return cells[rank * CELL + STATUS] >= CRASHED;
    }

    public RankSet deadSet(final int rank)
    {
        return nodes[rank].deadSet();
    }

    public boolean isPaused(final int rank)
    {
        return cells[rank * CELL + STATUS] == PAUSED;
    }

    public long lastResumeNs(final int rank)
    {
        return lastResumeNs[rank] == NONE ? NEVER : lastResumeNs[rank];
    }

    public boolean wasCut(final int from, final int to, final long fromNs, final long untilNs)
    {
        return network.wasCut(from, to, fromNs, untilNs);
    }

    /**
     * @param rank a rank.
     * @return why it stopped taking part, or null if it did not (or crashed).
     */
    public ExclusionCause exclusionCause(final int rank)
    {
        return exclusionCauses[rank];
    }

    public int emitter(final int rank)
    {
        return nodes[rank].emitter();
    }

    public int incarnation(final int rank)
    {
        return incarnations[rank];
    }

    public int knownIncarnation(final int viewer, final int rank)
    {
        return nodes[viewer].incarnationOf(rank);
    }

    public boolean isAdmitted(final int rank)
    {
        return Checks.takesPart(nodes[rank]);
    }

    public int observer(final int rank)
    {
        return nodes[rank].observer();
    }

    /**
     * @param reason a decoder verdict; {@link RejectReason#NONE} for forged frames a node believed.
     * @return forged frames ({@link Injection.Kind#FORGE}) judged so by their receivers.
     */
    public long forgedFrames(final RejectReason reason)
    {
        return forgery.count(reason);
    }

    /**
     * @param rank a rank.
     * @return its protocol object, for tests that inspect state after {@link #run()}.
     */
    public DetectorNode node(final int rank)
    {
        return nodes[rank];
    }

    /**
     * The simulated world as seen by the node being called: its heartbeat slot, its outgoing messages and its
     * listener. One instance serves all nodes (see {@link #enter(int)}), which saves an object and a cache miss
     * per node call at 256k nodes.
     */
    private final class Port implements HeartbeatChannel, ControlChannel, MembershipListener
    {
        private int rank = -1;
        private SimNotice lastSnapshot;

        public void writeHeartbeat(final int observerRank, final long counter)
        {
            heartbeatMessages++;
            send(EventQueue.HEARTBEAT, rank, observerRank, counter, null);
        }

        public long readHeartbeat(final int emitterRank)
        {
            return cells[rank * CELL + SLOT_WRITER] == emitterRank ? cells[rank * CELL + SLOT_COUNTER] : NO_HEARTBEAT;
        }

        public int lastWriter()
        {
            return (int)cells[rank * CELL + SLOT_WRITER];
        }

        public void sendNewObserver(final int emitterRank)
        {
            newObserverMessages++;
            sendControl(EventQueue.NEW_OBSERVER, emitterRank, null);
        }

        public void sendLeave(final int observerRank)
        {
            leaveMessages++;
            sendControl(EventQueue.LEAVE_MESSAGE, observerRank, null);
        }

        public void sendJoinRequest(final int contactRank)
        {
            sendControl(EventQueue.JOIN_REQUEST, contactRank, null);
        }

        // a nonce is 64 bits: it travels as the event's reference, as a view digest does
        public void sendJoinChallenge(final int joinerRank, final long nonce)
        {
            sendControl(EventQueue.JOIN_CHALLENGE, joinerRank, nonce);
        }

        public void sendJoinProof(final int contactRank, final long nonce)
        {
            sendControl(EventQueue.JOIN_PROOF, contactRank, nonce);
        }

        public void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations known)
        {
            sendControl(EventQueue.VIEW, joinerRank,
                new SimView(RankArray.copyOf(deadSet), IncarnationTable.copyOf(known)));
        }

        public void sendViewDigest(final int toRank, final long digest)
        {
            viewDigestMessages++;
            sendControl(EventQueue.VIEW_DIGEST, toRank, digest);
        }

        public void sendProbe(final int toRank, final long token)
        {
            probeMessages++;
            sendProbeEvent(EventQueue.PROBE, toRank, token);
        }

        public void sendProbeAck(final int toRank, final long token)
        {
            probeMessages++;
            sendProbeEvent(EventQueue.PROBE_ACK, toRank, token);
        }

        public void sendReformPoll(final int toRank, final long token)
        {
            sendProbeEvent(EventQueue.REFORM_POLL, toRank, token);
        }

        public void sendReformAck(final int toRank, final long token)
        {
            sendProbeEvent(EventQueue.REFORM_ACK, toRank, token);
        }

        public void sendNotice(final int toRank, final Notice notice)
        {
            noticeMessages++;
            final SimNotice snapshot;
            if (notice instanceof SimNotice received)
            {
                snapshot = received;
            }
            else
            {
                if (lastSnapshot == null || !lastSnapshot.sameBroadcast(notice))
                {
                    lastSnapshot = SimNotice.copyOf(notice);
                }
                snapshot = lastSnapshot;
            }
            sendControl(EventQueue.NOTICE, toRank, snapshot);
        }

        public void onFailure(final int deadRank, final long timeNs, final FailureCause cause, final int reporter)
        {
            if (processes != null)
            {
                processes.onNodeFailure(rank, deadRank, timeNs, reporter);
            }
            if (graceEventReported())
            {
                graceEvent("node " + rank + " declared " + deadRank + " dead at " + timeNs + "ns (" + cause +
                    ", reporter " + reporter + ")");
            }
            if (deadRank == firstFailureRank)
            {
                firstSpread.learned(rank, timeNs);
            }
            if (bootStartNs[deadRank] != NONE && (timeNs < bootStartNs[deadRank] ||
                config.boot() == BootMode.JOIN && nodes[rank].incarnationOf(deadRank) == 0) &&
                bootViolations++ < Checks.MAX_REPORTED)
            {
                // nobody may watch, let alone declare, a rank before it has been admitted and has beaten
                violations.add("seed=" + seed + ": boot: node " + rank + " declared " + deadRank + " dead at " +
                    timeNs + "ns (" + cause + ", reporter " + reporter + ") before it was admitted (it starts at " +
                    bootStartNs[deadRank] + "ns)");
            }
            if (nodes[rank].incarnationOf(deadRank) < incarnations[deadRank])
            {
                // the death of an earlier life of a rank that has restarted since: that life did stop
                return;
            }
            if (cause == FailureCause.DETECTED && firstPartitionGroups != null &&
                PartitionOutcome.accusesWhileDeaf(config.partitions().get(0), firstPartitionGroups, rank, deadRank,
                    timeNs) && deafAccusations++ < Checks.MAX_REPORTED)
            {
                violations.add("seed=" + seed + ": deaf accuser: node " + rank + " declared " + deadRank +
                    " dead at " + timeNs + "ns while it could hear nobody outside its group");
            }
            final Checks.Verdict verdict =
                Checks.judgeDeclaration(Simulation.this, reporter, deadRank, timeNs, deltaNs);
            if (cause == FailureCause.DETECTED && verdict == Checks.Verdict.CUT_OFF)
            {
                cutOffDeclared[deadRank] = true;
            }
            switch (verdict)
            {
                case CONDEMNED -> condemned[deadRank] = true;
                case FALSE_SUSPICION ->
                {
                    // a notice (its source may be re-announcing it) spreads an earlier declaration by a node the
                    // network had cut off from the rank: legitimate, the partition rule decides what becomes of it
                    final boolean spreadsCutOff = cause == FailureCause.NOTICE && cutOffDeclared[deadRank];
                    if (!spreadsCutOff && incarnations[deadRank] > 0 && tauNs < deltaNs &&
                        joinViolations++ < Checks.MAX_REPORTED)
                    {
                        // a joiner is adopted by its observer only when it may beat at once: never suspected alive
                        violations.add("seed=" + seed + ": join: node " + rank + " declared joiner " + deadRank +
                            " (incarnation " + incarnations[deadRank] + ") dead at " + timeNs + "ns (" + cause +
                            ", reporter " + reporter + ") while it was running");
                    }
                    else if (!spreadsCutOff && incarnations[deadRank] == 0 && tauNs < deltaNs &&
                        accuracyViolations++ < Checks.MAX_REPORTED)
                    {
                        violations.add(Checks.falseSuspicion(
                            seed, rank, deadRank, timeNs, cause + ", reporter " + reporter));
                    }
                }
                default ->
                {
                }
            }
        }

        public void onExcluded(final long timeNs, final ExclusionCause cause, final int reporterRank)
        {
            exclusionCauses[rank] = cause;
            if (cause != ExclusionCause.LEFT && firstExcludedNs[rank] == NONE)
            {
                firstExcludedNs[rank] = timeNs;
                firstExclusionCauses[rank] = cause;
            }
            if (graceEventReported())
            {
                graceEvent("node " + rank + " stopped as " + cause + " at " + timeNs + "ns (reporter " +
                    reporterRank + ")");
            }
            if (nodes[rank].state() == NodeState.LEFT)
            {
                leaves++;
            }
            else
            {
                exclusions++;
            }
            cells[rank * CELL + STATUS] = STOPPED;
            cells[rank * CELL + WAKE_SEQ] = NONE;
            nodeStopped(rank);
            scheduleRestart(rank);
        }

        public void onJoin(final int joiner, final int incarnation, final long timeNs)
        {
            // a node paused while the JOIN spread gets it when it resumes: the broadcast bound is not about it
            final long firstNs = joinSpread.firstNs(joiner);
            if (incarnation == incarnations[joiner] &&
                !(firstNs != NONE && lastResumeNs[rank] != NONE && lastResumeNs[rank] >= firstNs))
            {
                joinSpread.applied(joiner, timeNs);
            }
        }

        public void onViewChange(final long viewEpoch, final int deadCount, final long timeNs)
        {
        }
    }
}
