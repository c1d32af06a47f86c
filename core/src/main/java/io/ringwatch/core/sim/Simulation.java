package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;

import java.util.SplittableRandom;

/**
 * A seeded discrete-event simulation of a whole cluster running the real {@link DetectorNode}s in virtual time.
 * <p>
 * Each node is woken only at its {@link DetectorNode#nextDeadlineNs()} and when something reaches it: a
 * heartbeat lands in its slot (it runs a duty cycle at that instant, as a busy-polling agent would), or a control
 * message is handed to it. Every heartbeat is simulated. Messages take a delay drawn uniformly from (0, τ]; with
 * the one-port model a message also occupies its sender's port and then its receiver's port for that delay,
 * each port serving one message at a time in the order they come ({@link Network}, {@link NodePort}). Crashed nodes
 * lose everything sent to them; paused nodes keep receiving into their slot (as with RDMA) and handle queued control
 * messages when they resume.
 * <p>
 * The {@link FaultPlan} turns the config's faults into events; the {@link GroundTruth} tracks, event by event, what
 * really happened and whether the configuration is stable (every live node knows exactly the stopped ranks and is
 * linked to its live neighbours). The run stops a quiet margin after it became stable for good or at the time cap,
 * and then applies the checkers: those judging each declaration as it is made ({@link DeclarationCheck},
 * {@link GraceCheck}, {@link JoinSpreadCheck}) and those judging the end state ({@link Checks},
 * {@link PartitionCheck}). One {@link SplittableRandom} seeded from the config draws everything, so a run is a pure
 * function of its config.
 * <p>
 * Single use: construct, {@link #run()}, read the result.
 */
public final class Simulation
{
    private static final long NONE = -1;
    private static final long BOOT = 1;

    private final SimConfig config;
    private final int n;
    private final long seed;
    private final SplittableRandom random;
    private final EventQueue queue;
    private final Network network;
    private final DetectorNode[] nodes;
    private final GroundTruth truth;
    private final NodePort port;
    private final Listener listener = new Listener();
    private final Wire wire;
    private final Forgery forgery;
    private final FaultPlan plan;
    private final ProcessLevel processes;
    private final ProtocolSettings settings;
    private final BroadcastSchedule schedule;
    private final JoinSpreadCheck joinSpread;
    private final RunReport report;

    private long nowNs;
    private long endNs;
    private long lastInjectionNs;
    private long runUntilNs;
    private long stableSinceNs = NONE;
    private int crashesAtStable;
    private long eventsProcessed;
    private String flood;
    private boolean ran;

    /**
     * @param config the run's parameters; concluded here if it was not.
     */
    public Simulation(final SimConfig config)
    {
        this.config = config.conclude();
        n = config.nodes();
        seed = config.seed();
        random = new SplittableRandom(seed);
        queue = new EventQueue(2 * n + 64);
        final NetworkOptions networkOptions = config.network();
        network = new Network(random, n, networkOptions.delayModel(), networkOptions.lossProbability(),
            networkOptions.onePort());
        nodes = new DetectorNode[n];
        truth = new GroundTruth(nodes, network);
        joinSpread = new JoinSpreadCheck(n, config.protocol().suspicionTimeoutNs());
        wire = new Wire(config);
        forgery = new Forgery(config, wire);
        port = new NodePort(queue, network, truth, nodes, joinSpread, networkOptions.onePort(), wire, forgery);
        plan = new FaultPlan(config, random, queue, network, forgery);
        plan.placePartitions();
        plan.placeStarts();

        settings = config.protocol().settings(n);
        schedule = config.protocol().broadcast().newSchedule();
        final BootOptions boot = config.boot();
        for (int rank = 0; rank < n; rank++)
        {
            final long startNs = plan.jitterNs(rank);
            nodes[rank] = new DetectorNode(rank, 0, settings, schedule, port, port, listener, startNs);
            nodes[rank].runCandidate(wire.runCandidate(rank, 0, startNs));
            if (plan.bootStartNs(rank) == NONE)
            {
                boot.plan(rank, n, false, 0).start(enter(rank), boot.planSeeds(n), startNs);
            }
            else
            {
                truth.notStarted(rank);
            }
        }
        final JobLayout job = config.processes().jobLayout(n);
        processes = job != null ? new ProcessLevel(port, truth, nodes, job, schedule) : null;
        report = new RunReport(config, truth, plan, port, wire, nodes, joinSpread, processes);
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

        for (int rank = 0; rank < n; rank++)
        {
            truth.refreshStable(rank);
            scheduleWake(rank);
            if (plan.bootStartNs(rank) != NONE)
            {
                queue.schedule(plan.bootStartNs(rank), EventQueue.RESTART, -1, rank, BOOT, null);
            }
        }
        plan.plan(processes);
        report.failureAt(plan.firstFailureNs());
        lastInjectionNs = plan.lastNs();
        runUntilNs = plan.runUntilNs();
        endNs = config.limits().timeCapNs();

        final long eventBudget = config.limits().eventBudget();
        while (!queue.isEmpty() && queue.peekTimeNs() <= endNs)
        {
            final int slot = queue.poll();
            nowNs = queue.polledTimeNs();
            port.time(nowNs);
            if (++eventsProcessed > eventBudget)
            {
                // a storm: stop here, as a finding, rather than run out of heap
                flood = "seed=" + seed + ": flood: more than " + eventBudget + " events by " + nowNs + "ns (" +
                    port.noticeMessages + " notice copies)";
                queue.release(slot);
                break;
            }
            if (!dispatch(slot))
            {
                queue.release(slot);
            }
            if (truth.takeChange())
            {
                truth.refreshAllStable();
            }
            trackStability();
        }
        return report.result(stableSinceNs, crashesAtStable, eventsProcessed, nowNs, flood);
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
                if (truth.isRunning(to) && truth.wakeSeq(to) == queue.polledSeq())
                {
                    truth.noWake(to);
                    enter(to).doWork(nowNs);
                    afterCall(to);
                }
            }
            case EventQueue.HEARTBEAT -> deliverHeartbeat(queue.from(slot), to, queue.value(slot));
            case EventQueue.NEW_OBSERVER, EventQueue.NOTICE, EventQueue.LEAVE_MESSAGE, EventQueue.FORGED_NOTICE,
                EventQueue.JOIN_REQUEST, EventQueue.VIEW, EventQueue.VIEW_DIGEST, EventQueue.PROBE,
                EventQueue.PROBE_ACK, EventQueue.PROCESS_NOTICE, EventQueue.REFORM_POLL, EventQueue.REFORM_ACK,
                EventQueue.JOIN_CHALLENGE, EventQueue.JOIN_PROOF ->
            {
                return deliverControl(slot, to);
            }
            case EventQueue.PROCESS_CRASH ->
            {
                return crashProcess(slot, to, (int)queue.value(slot));
            }
            case EventQueue.CRASH -> crash(to, queue.value(slot) == FaultPlan.GENERATED);
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
        if (truth.isStopped(to))
        {
            port.vanishedMessages++;
            return;
        }
        truth.heartbeat(to, from, counter);
        if (truth.isRunning(to))
        {
            enter(to).doWork(nowNs);
            afterCall(to);
        }
    }

    private boolean deliverControl(final int slot, final int to)
    {
        if (truth.isStopped(to))
        {
            port.vanishedMessages++;
            return false;
        }
        if (truth.isPaused(to))
        {
            queue.requeue(slot, truth.resumeAtNs(to));
            return true;
        }
        final byte type = queue.type(slot);
        if (type == EventQueue.PROCESS_NOTICE)
        {
            processes.deliver(to, queue.from(slot), (SimProcessNotice)queue.ref(slot), nowNs);
        }
        else
        {
            final InboundFrame frame = port.inbound(type, queue.from(slot), to, queue.value(slot), queue.ref(slot));
            if (frame != null)
            {
                enter(to).onFrame(frame, nowNs);
            }
        }
        afterCall(to);
        return false;
    }

    private void crash(final int scriptedRank, final boolean generated)
    {
        if (generated && !plan.arrivalsActive())
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
            while (truth.isStopped(rank));
        }
        if (truth.isStopped(rank))
        {
            return;
        }
        truth.crashed(rank, nowNs);
        report.crashes++;
        scheduleRestart(rank);
        report.failed(rank, nowNs);
        if (generated && report.crashes < config.faults().failures() && truth.liveCount() > 1)
        {
            plan.nextArrival(nowNs, truth.liveCount());
        }
    }

    private void scheduleRestart(final int rank)
    {
        joinSpread.fault(nowNs, nowNs);
        final long restartAfterNs = config.boot().restartAfterNs();
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
        if (!truth.isStopped(rank))
        {
            return;
        }
        final BootOptions options = config.boot();
        final long incarnation = options.incarnation(truth.incarnation(rank), !boot);
        if (boot)
        {
            report.boots++;
        }
        else
        {
            report.restarts++;
        }
        // a late member's first start is no new life: it is the boot incarnation everyone assumed
        truth.restarted(rank, incarnation, !boot || options.mode() == BootMode.JOIN);
        report.restarted(rank);
        report.reformsOfReplacedNodes += nodes[rank].counter(ProtocolCounter.REFORMS);
        // as the runtime boots: a first start within the seeds' boot asks at once, a restart joins after its grace
        final BootPlan bootPlan = options.plan(rank, n, !boot, incarnation);
        wire.restarted(rank, nodes[rank].incarnation(), bootPlan.joins());
        nodes[rank] = new DetectorNode(rank, incarnation, settings, schedule, port, port, listener, nowNs);
        nodes[rank].runCandidate(wire.runCandidate(rank, incarnation, nowNs));
        bootPlan.start(enter(rank), options.planSeeds(n), nowNs);
        afterCall(rank);
        truth.refreshStable(rank);
    }

    /**
     * A process dies now; its daemon sees it at once if it runs, when it resumes if it is paused, never if it stopped
     * (its node's death already covers the process).
     *
     * @return true if the event was requeued for the daemon's resumption.
     */
    private boolean crashProcess(final int slot, final int node, final int process)
    {
        final boolean running = truth.isRunning(node);
        processes.crash(process, running, nowNs);
        if (truth.isPaused(node))
        {
            queue.requeue(slot, truth.resumeAtNs(node));
            return true;
        }
        if (running)
        {
            afterCall(node);
        }
        return false;
    }

    private void pause(final int rank, final long durationNs)
    {
        if (!truth.isRunning(rank))
        {
            return;
        }
        truth.paused(rank, nowNs + durationNs);
        joinSpread.fault(nowNs, nowNs + durationNs);
        queue.schedule(nowNs + durationNs, EventQueue.RESUME, -1, rank, 0, null);
    }

    private void resume(final int rank)
    {
        if (!truth.isPaused(rank))
        {
            return;
        }
        truth.resumed(rank, nowNs);
        // duty cycle first, queued messages after: the node's own pause guard must hold on its own
        enter(rank).doWork(nowNs);
        afterCall(rank);
    }

    private void leave(final int rank)
    {
        if (!truth.isRunning(rank))
        {
            return;
        }
        report.failed(rank, nowNs);
        enter(rank).leave(nowNs);
        afterCall(rank);
    }

    /**
     * @return the node, with the shared port now speaking for it: every channel and listener call a node makes
     * happens inside the call the simulator makes into it.
     */
    private DetectorNode enter(final int rank)
    {
        port.enter(rank);
        return nodes[rank];
    }

    private void afterCall(final int rank)
    {
        if (truth.isStopped(rank))
        {
            return;
        }
        truth.afterCall(rank);
        scheduleWake(rank);
    }

    private void scheduleWake(final int rank)
    {
        if (!truth.isRunning(rank))
        {
            return;
        }
        final long deadlineNs = nodes[rank].nextDeadlineNs();
        if (deadlineNs == Long.MAX_VALUE)
        {
            truth.noWake(rank);
            return;
        }
        final long atNs = Math.max(deadlineNs, nowNs);
        if (truth.wakeSeq(rank) != NONE && truth.wakeTimeNs(rank) == atNs)
        {
            return;
        }
        // any earlier wake event for this node is now stale and skipped when it comes up
        truth.wake(rank, atNs, queue.schedule(atNs, EventQueue.WAKE, -1, rank, 0, null));
    }

    private void trackStability()
    {
        final LimitOptions limits = config.limits();
        if (truth.allStable())
        {
            if (stableSinceNs == NONE && report.firstFailureNs() != NONE && nowNs >= lastInjectionNs)
            {
                stableSinceNs = nowNs;
                crashesAtStable = report.crashes;
                plan.stopArrivals();
                endNs = Math.min(limits.timeCapNs(), Math.max(runUntilNs, nowNs + limits.quietMarginNs()));
            }
            else if (report.firstFailureNs() == NONE && nowNs >= lastInjectionNs)
            {
                endNs = Math.min(endNs, Math.max(runUntilNs, nowNs + limits.quietMarginNs()));
            }
        }
        else if (stableSinceNs != NONE)
        {
            stableSinceNs = NONE;
            endNs = limits.timeCapNs();
        }
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

    /**
     * @param rank a rank.
     * @return true if it crashed, left or fenced itself: ground truth.
     */
    public boolean isStopped(final int rank)
    {
        return truth.isStopped(rank);
    }

    /**
     * @param rank a rank.
     * @return why it stopped taking part, or null if it did not (or crashed).
     */
    public ExclusionCause exclusionCause(final int rank)
    {
        return truth.exclusionCause(rank);
    }

    /**
     * @param reason a decoder verdict; {@link RejectReason#NONE} for forged frames a node believed.
     * @return forged frames ({@link Injection.Kind#FORGE}) judged so by their receivers.
     */
    public long forgedFrames(final RejectReason reason)
    {
        return forgery.count(reason);
    }

    /** @return the run's codec, for tests that count the frames it passed and refused. */
    Wire wire()
    {
        return wire;
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
     * What the nodes report, as the node being called reports it: each declaration goes to the checkers that judge
     * it then, each stop to the ground truth.
     */
    private final class Listener implements MembershipListener
    {
        public void onFailure(final int deadRank, final long timeNs, final FailureCause cause, final int reporter)
        {
            if (processes != null)
            {
                processes.onNodeFailure(port.rank(), deadRank, timeNs, reporter);
            }
            report.declared(port.rank(), deadRank, timeNs, cause, reporter);
        }

        public void onExcluded(final long timeNs, final ExclusionCause cause, final int reporterRank)
        {
            final int rank = port.rank();
            truth.excluded(rank, cause, timeNs, nowNs);
            report.stopped(rank, nodes[rank].state() == NodeState.LEFT, cause, timeNs, reporterRank);
            scheduleRestart(rank);
        }

        public void onJoin(final int joiner, final long incarnation, final long timeNs)
        {
            wire.joined(port.rank(), joiner, incarnation, nodes[port.rank()].incarnations());
            report.joined(port.rank(), joiner, incarnation, timeNs);
        }

        public void onViewChange(final long viewEpoch, final int deadCount, final long timeNs)
        {
        }
    }
}
