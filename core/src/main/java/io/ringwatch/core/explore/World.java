package io.ringwatch.core.explore;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.sim.AccuracyCheck;
import io.ringwatch.core.sim.Checks;
import io.ringwatch.core.sim.FencingCheck;
import io.ringwatch.core.sim.NodeViews;
import io.ringwatch.core.sim.PartitionCheck;
import io.ringwatch.core.sim.RejoinCheck;
import io.ringwatch.core.sim.RingCheck;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SplitBrainCheck;
import io.ringwatch.core.sim.ViewCheck;
import io.ringwatch.core.sim.Wire;
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

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One execution of a small cluster of real {@link DetectorNode}s, advanced one chosen {@link Step} at a time.
 * <p>
 * Time is virtual and moves only with the steps. Every pending obligation has a latest time: a node's next deadline
 * (its wake fires exactly then), a message's send time + τ, a pause's resumption, a cut's heal. A step is enabled if
 * it can happen before every obligation falls due: the wakes, resumptions and heals due at that earliest time, and
 * every message whose earliest delivery (send time + 1 ns) is not after it, in any order. A step runs at the
 * earliest time it may (a message no earlier than now), so the explorer picks orders, not instants: a message
 * delivered after a wake is delivered at that wake's time. Faults happen between two steps, at the current time.
 * <p>
 * Nothing is copied: the explorer rebuilds an execution by replaying its steps from a fresh world, which is
 * deterministic (message ids count sends, so a step names the same message on every replay).
 */
final class World extends NodeViews
{
    static final byte RUNNING = 0;
    static final byte PAUSED = 1;
    static final byte CRASHED = 2;
    static final byte STOPPED = 3;

    // more control messages in flight than this is a storm
    private static final int FLOOD_PER_NODE_PAIR = 16;
    private static final long NONE = -1;
    private static final String GRACE_RUN =
        " on a run whose only disturbances were boot stalls that ended before anyone could judge";
    private static final int START = -2;
    private static final int NOBODY = -1;

    private final Wire wire;
    private final ExploreConfig config;
    private final int n;
    private final long deltaNs;
    private final long tauNs;
    private final ProtocolSettings settings;
    private final BroadcastSchedule schedule;
    private final DetectorNode[] nodes;
    private final byte[] status;
    private final long[] incarnations;
    private final int[] slotWriter;
    private final long[] slotCounter;
    private final long[] resumeAtNs;
    // automatic restarts (ExploreConfig.restartAfterNs), as the simulator's --restart-after
    private final long[] restartAtNs;
    private final long[] lastResumeNs;
    private final boolean[] crashedEver;
    private final boolean[] condemned;
    private final boolean[] cutOffDeclared;
    private final long[] firstExcludedNs;
    private final ExclusionCause[] firstExclusionCauses;
    private final long[] knownIncarnations;
    private final long[] reformsSeen;
    private final boolean[] joinAdmitted;
    private final List<Message> inFlight = new ArrayList<>();
    // every cut as {start, end (MAX while it lasts), side mask}
    private final List<long[]> cuts = new ArrayList<>();
    private final Port port = new Port();
    private final List<String> violations = new ArrayList<>();
    private final List<String> log;
    // every call made on each rank's node since the start, so that a node can be rebuilt alone (backtrack)
    private final List<List<Call>> calls = new ArrayList<>();
    // the world's own state before each step of the current execution, when it may be backtracked
    private final List<Saved> saved;
    // the per-rank arrays above, as backtracking saves and restores them
    private final Object[] perRank;
    private long replayedCalls;
    private int depth;

    private long nowNs;
    // the node the last step ran (START before the first), and the first message it sent: where faults may go
    private int lastNode = START;
    private int firstNewMessageId;
    private int nextMessageId;
    private int faultsUsed;
    private int cutMask;
    private long healAtNs = NONE;
    private boolean hadPause;
    private boolean hadLoss;
    private long lastHealNs = NONE;
    private boolean whole;
    private boolean excludedNow;
    // the simulator's grace checker applies: a startup grace, and no disturbance but stalls over before anyone judges
    private boolean graceJudged;

    /**
     * @param config the cluster and its bounds.
     * @param wire   the codec every control message goes through ({@link #wireFor}); keeps no state that a world
     *               could see, so one serves every world of a search.
     * @param log    where a readable line per step goes, or null.
     */
    World(final ExploreConfig config, final Wire wire, final List<String> log)
    {
        this(config, wire, log, false);
    }

    /**
     * @param undoable true to keep what {@link #backtrack} needs: the world's state before each step.
     */
    World(final ExploreConfig config, final Wire wire, final List<String> log, final boolean undoable)
    {
        this(config, wire, log, new DetectorNode[config.nodes()], undoable);
    }

    private World(
        final ExploreConfig config,
        final Wire wire,
        final List<String> log,
        final DetectorNode[] nodes,
        final boolean undoable)
    {
        super(nodes);
        this.nodes = nodes;
        this.saved = undoable ? new ArrayList<>() : null;
        this.wire = wire;
        this.config = config;
        this.log = log;
        n = config.nodes();
        deltaNs = config.suspicionTimeoutNs();
        tauNs = config.maxDelayNs();
        settings = config.settings();
        schedule = BroadcastKind.DOUBLE_HYPERCUBE.newSchedule();
        status = new byte[n];
        incarnations = new long[n];
        slotWriter = new int[n];
        Arrays.fill(slotWriter, HeartbeatChannel.NO_WRITER);
        slotCounter = new long[n];
        resumeAtNs = new long[n];
        restartAtNs = new long[n];
        Arrays.fill(restartAtNs, NONE);
        lastResumeNs = new long[n];
        Arrays.fill(lastResumeNs, NONE);
        crashedEver = new boolean[n];
        condemned = new boolean[n];
        cutOffDeclared = new boolean[n];
        firstExcludedNs = new long[n];
        Arrays.fill(firstExcludedNs, NONE);
        firstExclusionCauses = new ExclusionCause[n];
        knownIncarnations = new long[n * n];
        reformsSeen = new long[n];
        joinAdmitted = new boolean[n];
        perRank = new Object[]{status, incarnations, slotWriter, slotCounter, resumeAtNs, restartAtNs, lastResumeNs,
            crashedEver, condemned, cutOffDeclared, firstExcludedNs, firstExclusionCauses, knownIncarnations,
            reformsSeen, joinAdmitted};
        for (int rank = 0; rank < n; rank++)
        {
            // starts spread over one heartbeat period, fixed so that every replay is the same execution
            final long startNs = rank * config.heartbeatPeriodNs() / n;
            calls.add(new ArrayList<>());
            calls.get(rank).add(new Call(-1, Call.CREATE, startNs, null, 0, 0));
            create(rank, 0, false, startNs);
        }
        whole = computeWhole();
        graceJudged = config.startupGraceNs() > 0 && tauNs < deltaNs;
    }

    /**
     * @param config the cluster.
     * @return the simulator's codec for it, with authentication on: the explored nodes get their frames as the
     * simulated and the live ones do, encoded, signed and decoded for their receiver.
     */
    static Wire wireFor(final ExploreConfig config)
    {
        return new Wire(new SimConfig().nodes(config.nodes()).heartbeatPeriodNs(config.heartbeatPeriodNs())
            .suspicionTimeoutNs(config.suspicionTimeoutNs()).broadcast(BroadcastKind.DOUBLE_HYPERCUBE)
            .authentication(true).conclude());
    }

    /**
     * @param out the steps enabled now are appended here: deliveries and timed events first, faults last.
     * @return the time by which the next step must happen, Long.MAX_VALUE if nothing is pending.
     */
    long enabled(final List<Step> out)
    {
        final long dueNs = dueNs();
        if (dueNs == Long.MAX_VALUE)
        {
            appendFaults(out);
            return dueNs;
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (status[rank] == RUNNING && wakeNs(rank) == dueNs)
            {
                out.add(new Step(Step.WAKE, rank));
            }
        }
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            final Message m = inFlight.get(i);
            if (deliverable(m) && Math.max(nowNs, m.sentNs + 1) <= dueNs)
            {
                out.add(new Step(Step.DELIVER, m.id));
            }
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (status[rank] == PAUSED && resumeAtNs[rank] == dueNs)
            {
                out.add(new Step(Step.RESUME, rank));
            }
        }
        if (healAtNs == dueNs)
        {
            out.add(new Step(Step.HEAL, 0));
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (restartAtNs[rank] == dueNs)
            {
                out.add(new Step(Step.RESTART, rank));
            }
        }
        appendFaults(out);
        return dueNs;
    }

    /**
     * Faults, each only where moving it would change something (a partial-order reduction). A crash or a pause of r
     * commutes with every step of another node, so it comes right after a step of r (or at the start): that covers
     * every point of r's own history. A loss commutes with everything but the message's delivery, so it comes as
     * the message is sent. A cut and a restart come between instants, once nothing else is due now: a cut between
     * two events of one instant, or a restart there, is not explored.
     */
    private void appendFaults(final List<Step> out)
    {
        if (faultsUsed >= config.faults() || nowNs < config.faultsFromNs() || nowNs > config.faultsUntilNs())
        {
            return;
        }
        final int kinds = config.faultKinds();
        final boolean betweenInstants = !stepDueNow(out);
        for (int rank = 0; rank < n; rank++)
        {
            final boolean afterItsStep = lastNode == rank || lastNode == START;
            if ((kinds & ExploreConfig.CRASH) != 0 && status[rank] <= PAUSED && afterItsStep)
            {
                out.add(new Step(Step.CRASH, rank));
            }
            if ((kinds & ExploreConfig.PAUSE) != 0 && status[rank] == RUNNING && afterItsStep)
            {
                out.add(new Step(Step.PAUSE, rank));
            }
            if ((kinds & ExploreConfig.RESTART) != 0 && config.restartAfterNs() < 0 && status[rank] >= CRASHED &&
                betweenInstants)
            {
                out.add(new Step(Step.RESTART, rank));
            }
        }
        if ((kinds & ExploreConfig.CUT) != 0 && healAtNs == NONE && betweenInstants)
        {
            final boolean flapping = config.flapUpNs() >= 0 && !cuts.isEmpty();
            if (flapping && nowNs - lastCut()[1] <= config.flapUpNs())
            {
                // the same cut again, the link having been up since the heal
                out.add(new Step(Step.CUT, (int)cuts.get(0)[2]));
            }
            for (int mask = 1, sides = 1 << (n - 1); mask < sides && !flapping; mask++)
            {
                // one side of each bipartition: the side without the highest rank
                if (config.cutSides() == null || config.cutSides().contains(mask))
                {
                    out.add(new Step(Step.CUT, mask));
                }
            }
        }
        if ((kinds & ExploreConfig.LOSE) != 0)
        {
            for (int i = 0, size = inFlight.size(); i < size; i++)
            {
                if (inFlight.get(i).type != Message.HEARTBEAT && inFlight.get(i).id >= firstNewMessageId)
                {
                    out.add(new Step(Step.LOSE, inFlight.get(i).id));
                }
            }
        }
    }

    /**
     * @param steps the events enabled now.
     * @return true if one of them would happen at the current instant.
     */
    private boolean stepDueNow(final List<Step> steps)
    {
        for (int i = 0, size = steps.size(); i < size; i++)
        {
            final Step step = steps.get(i);
            switch (step.kind())
            {
                case Step.WAKE ->
                {
                    if (wakeNs(step.arg()) == nowNs)
                    {
                        return true;
                    }
                }
                case Step.DELIVER ->
                {
                    if (find(step.arg()).sentNs + 1 <= nowNs)
                    {
                        return true;
                    }
                }
                case Step.RESUME ->
                {
                    if (resumeAtNs[step.arg()] == nowNs)
                    {
                        return true;
                    }
                }
                case Step.RESTART ->
                {
                    if (restartAtNs[step.arg()] == nowNs)
                    {
                        return true;
                    }
                }
                default ->
                {
                    if (step.kind() == Step.HEAL && healAtNs == nowNs)
                    {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private long dueNs()
    {
        long dueNs = Long.MAX_VALUE;
        for (int rank = 0; rank < n; rank++)
        {
            if (status[rank] == RUNNING)
            {
                dueNs = Math.min(dueNs, wakeNs(rank));
            }
            else if (status[rank] == PAUSED)
            {
                dueNs = Math.min(dueNs, resumeAtNs[rank]);
            }
        }
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            final Message m = inFlight.get(i);
            if (deliverable(m))
            {
                dueNs = Math.min(dueNs, Math.max(nowNs, m.sentNs + tauNs));
            }
        }
        if (healAtNs != NONE)
        {
            dueNs = Math.min(dueNs, healAtNs);
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (restartAtNs[rank] != NONE)
            {
                dueNs = Math.min(dueNs, restartAtNs[rank]);
            }
        }
        return dueNs;
    }

    private long wakeNs(final int rank)
    {
        final long deadlineNs = nodes[rank].nextDeadlineNs();
        return deadlineNs == Long.MAX_VALUE ? deadlineNs : Math.max(deadlineNs, nowNs);
    }

    /**
     * A paused node's slot still takes heartbeats (as with RDMA); its control messages wait for it to resume.
     */
    private boolean deliverable(final Message m)
    {
        return status[m.to] == RUNNING || m.type == Message.HEARTBEAT;
    }

    /**
     * @param step one of the steps {@link #enabled} offered.
     * @return false if it was not enabled (a replay that does not match this world).
     */
    boolean apply(final Step step)
    {
        final List<Step> now = new ArrayList<>();
        enabled(now);
        if (!now.contains(step))
        {
            return false;
        }
        run(step);
        return true;
    }

    /**
     * @param step a step known to be enabled: one the explorer took from {@link #enabled} on this same execution.
     */
    void run(final Step step)
    {
        if (saved != null)
        {
            save();
        }
        depth++;
        firstNewMessageId = nextMessageId;
        lastNode = step.kind() == Step.DELIVER ? find(step.arg()).to :
            step.kind() == Step.WAKE || step.kind() == Step.RESUME || step.kind() == Step.RESTART ? step.arg() : NOBODY;
        switch (step.kind())
        {
            case Step.WAKE ->
            {
                nowNs = wakeNs(step.arg());
                log("wake ", step.arg());
                work(step.arg());
            }
            case Step.DELIVER -> deliver(take(step.arg()));
            case Step.RESUME ->
            {
                final int rank = step.arg();
                nowNs = resumeAtNs[rank];
                log("resume ", rank);
                status[rank] = RUNNING;
                lastResumeNs[rank] = nowNs;
                healed(nowNs);
                work(rank);
            }
            case Step.HEAL ->
            {
                nowNs = healAtNs;
                log("heal the cut ", side(cutMask));
                lastCut()[1] = nowNs;
                healAtNs = NONE;
                cutMask = 0;
                healed(nowNs);
            }
            case Step.RESTART ->
            {
                if (restartAtNs[step.arg()] != NONE)
                {
                    nowNs = restartAtNs[step.arg()];
                    restart(step.arg());
                }
                else
                {
                    fault(step);
                }
            }
            default -> fault(step);
        }
        check();
    }

    private void fault(final Step step)
    {
        faultsUsed++;
        final int rank = step.arg();
        // as GraceCheck.applies: every node started at once, so the first grace ends at the grace itself
        graceJudged &= step.kind() == Step.PAUSE && nowNs + config.pauseNs() <=
            config.startupGraceNs() + deltaNs - config.heartbeatPeriodNs() - 2 * tauNs;
        switch (step.kind())
        {
            case Step.CRASH ->
            {
                log("FAULT crash ", rank);
                crashedEver[rank] = true;
                stop(rank, CRASHED);
                healed(nowNs);
            }
            case Step.PAUSE ->
            {
                log("FAULT pause ", rank, " for ", config.pauseNs(), "ns");
                hadPause = true;
                status[rank] = PAUSED;
                resumeAtNs[rank] = nowNs + config.pauseNs();
            }
            case Step.RESTART -> restart(rank);
            case Step.CUT ->
            {
                cutMask = rank;
                healAtNs = nowNs + config.cutNs();
                cuts.add(new long[]{nowNs, Long.MAX_VALUE, cutMask});
                log("FAULT cut ", side(cutMask), " from the rest for ", config.cutNs(), "ns");
            }
            default ->
            {
                hadLoss = true;
                final Message lost = take(rank);
                log("FAULT lose ", lost);
                healed(nowNs);
            }
        }
    }

    private void restart(final int rank)
    {
        final boolean automatic = restartAtNs[rank] != NONE;
        restartAtNs[rank] = NONE;
        incarnations[rank]++;
        log(automatic ? "restart " : "FAULT restart ", rank, " as incarnation ", incarnations[rank]);
        status[rank] = RUNNING;
        slotWriter[rank] = HeartbeatChannel.NO_WRITER;
        slotCounter[rank] = 0;
        lastResumeNs[rank] = NONE;
        condemned[rank] = false;
        cutOffDeclared[rank] = false;
        joinAdmitted[rank] = false;
        Arrays.fill(knownIncarnations, rank * n, rank * n + n, 0);
        reformsSeen[rank] = 0;
        calls.get(rank).add(new Call(depth - 1, Call.CREATE, nowNs, null, 0, incarnations[rank]));
        create(rank, incarnations[rank], true, nowNs);
        healed(nowNs);
    }

    private long[] lastCut()
    {
        return cuts.get(cuts.size() - 1);
    }

    private void healed(final long atNs)
    {
        lastHealNs = Math.max(lastHealNs, atNs);
    }

    private Message find(final int id)
    {
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            if (inFlight.get(i).id == id)
            {
                return inFlight.get(i);
            }
        }
        throw new IllegalStateException("no message " + id + " in flight");
    }

    private Message take(final int id)
    {
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            if (inFlight.get(i).id == id)
            {
                return inFlight.remove(i);
            }
        }
        throw new IllegalStateException("no message " + id + " in flight");
    }

    private void deliver(final Message m)
    {
        nowNs = Math.max(nowNs, m.sentNs + 1);
        log("deliver ", m);
        final int to = m.to;
        if (m.type == Message.HEARTBEAT)
        {
            slotWriter[to] = m.from;
            slotCounter[to] = m.value;
            if (status[to] == RUNNING)
            {
                work(to);
            }
            return;
        }
        final InboundFrame frame = frameOf(m);
        if (frame == null)
        {
            // the explorer sends genuine frames only: one the codec refuses is a wire bug, as in the simulator
            violations.add("wire: the codec refused " + m);
            return;
        }
        calls.get(to).add(new Call(depth - 1, Call.FRAME, nowNs, m, slotWriter[to], slotCounter[to]));
        call(to).onFrame(frame, nowNs);
    }

    /**
     * @return the frame the receiver of {@code m} is handed, through the real codec; null if the codec refuses it.
     */
    private InboundFrame frameOf(final Message m)
    {
        final int to = m.to;
        final int from = m.from;
        final long incarnation = m.fromIncarnation;
        return switch (m.type)
        {
            case Message.NEW_OBSERVER -> wire.newObserver(from, incarnation, to);
            case Message.NOTICE -> wire.notice(from, incarnation, to, (Notice)m.ref);
            case Message.LEAVE -> wire.leave(from, incarnation, to);
            case Message.JOIN_REQUEST -> wire.token(FrameType.JOIN_REQUEST, from, incarnation, to, m.value);
            case Message.VIEW ->
            {
                final Object[] view = (Object[])m.ref;
                yield wire.view(from, incarnation, to, (RankSet)view[0], (RankIncarnations)view[1]);
            }
            case Message.VIEW_DIGEST -> wire.token(FrameType.VIEW_DIGEST, from, incarnation, to, m.value);
            case Message.PROBE -> wire.token(FrameType.PROBE, from, incarnation, to, m.value);
            case Message.PROBE_ACK -> wire.token(FrameType.PROBE_ACK, from, incarnation, to, m.value);
            case Message.REFORM_POLL -> wire.token(FrameType.REFORM_POLL, from, incarnation, to, m.value);
            case Message.JOIN_CHALLENGE -> wire.challenge(from, incarnation, to, m.value, (Long)m.ref);
            case Message.JOIN_PROOF -> wire.token(FrameType.JOIN_PROOF, from, incarnation, to, m.value);
            default -> wire.token(FrameType.REFORM_ACK, from, incarnation, to, m.value);
        };
    }

    private void work(final int rank)
    {
        calls.get(rank).add(new Call(depth - 1, Call.WORK, nowNs, null, slotWriter[rank], slotCounter[rank]));
        call(rank).doWork(nowNs);
    }

    private void create(final int rank, final long incarnation, final boolean restarted, final long startNs)
    {
        nodes[rank] = new DetectorNode(rank, incarnation, settings, schedule, port, port, port, startNs);
        // every rank a seed: the cluster boots as members, as the simulator's default; a restart joins
        BootPlan.decide(rank, n, n, false, restarted).start(call(rank), n, startNs);
    }

    private DetectorNode call(final int rank)
    {
        port.rank = rank;
        return nodes[rank];
    }

    private void stop(final int rank, final byte how)
    {
        status[rank] = how;
        if (config.restartAfterNs() >= 0)
        {
            restartAtNs[rank] = nowNs + config.restartAfterNs();
        }
        // what was sent to it vanishes
        inFlight.removeIf((m) -> m.to == rank);
    }

    private void send(final byte type, final int to, final long value, final Object ref)
    {
        final int from = port.rank;
        if (port.replaying || isStopped(to) || cutMask != 0 && severs(cutMask, from, to))
        {
            return;
        }
        inFlight.add(new Message(nextMessageId++, type, from, to, nodes[from].incarnation(), value, ref, nowNs));
    }

    private static boolean severs(final long mask, final int a, final int b)
    {
        return ((mask >>> a) & 1) != ((mask >>> b) & 1);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // checkers

    private void check()
    {
        final List<String> found = new ArrayList<>();
        // only a new exclusion can break the majority rule: crashes only ever excuse more
        if (excludedNow && !hadPause && !hadLoss && oneBipartition())
        {
            // one clean cut at most (or none: every rank on one side), as the simulator's majority checker asks
            final int[] groups = new int[n];
            for (int rank = 0; rank < n; rank++)
            {
                groups[rank] = cuts.isEmpty() ? 0 : (int)((cuts.get(0)[2] >>> rank) & 1);
            }
            PartitionCheck.majorityKept(groups, crashedEver, firstExcludedNs, firstExclusionCauses, 0, found);
        }
        excludedNow = false;
        if (inFlight.size() > FLOOD_PER_NODE_PAIR * n * n)
        {
            found.add("flood: " + inFlight.size() + " messages in flight");
        }
        for (int viewer = 0; viewer < n; viewer++)
        {
            if (isStopped(viewer))
            {
                continue;
            }
            for (int r = 0; r < n; r++)
            {
                final long known = nodes[viewer].incarnationOf(r);
                if (known < knownIncarnations[viewer * n + r])
                {
                    found.add("incarnation: node " + viewer + " went back from incarnation " +
                        knownIncarnations[viewer * n + r] + " to " + known + " for rank " + r);
                }
                knownIncarnations[viewer * n + r] = known;
            }
            final long reforms = nodes[viewer].counter(ProtocolCounter.REFORMS);
            if (reforms > reformsSeen[viewer])
            {
                reformsSeen[viewer] = reforms;
                checkReform(viewer, found);
            }
        }
        for (final String v : found)
        {
            violations.add(v.startsWith("seed=0: ") ? v.substring("seed=0: ".length()) : v);
        }
        whole = computeWhole();
        if (whole && lastHealNs != NONE)
        {
            lastHealNs = NONE;
        }
    }

    /**
     * @return true if the cuts so far split the cluster one way: none, one, or one flapping on a run without crashes
     * (the simulator judges a flapping cut's majority side only on runs whose only faults are partitions).
     */
    private boolean oneBipartition()
    {
        if (cuts.size() <= 1)
        {
            return true;
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (crashedEver[rank])
            {
                return false;
            }
        }
        for (final long[] cut : cuts)
        {
            if (cut[2] != cuts.get(0)[2])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * A re-form needs every rank answering the leader's polls, so none of them can be taking part elsewhere.
     */
    private void checkReform(final int leader, final List<String> found)
    {
        for (int rank = 0; rank < n; rank++)
        {
            if (rank != leader && !isStopped(rank) && nodes[rank].state() == NodeState.ACTIVE)
            {
                found.add("reform: node " + leader + " re-formed the cluster while node " + rank +
                    " was a member taking part");
            }
        }
    }

    /**
     * @return violations found so far, in order.
     */
    List<String> violations()
    {
        return violations;
    }

    /**
     * Bounded liveness: once the last fault healed, the cluster is whole within the configured window.
     *
     * @param dueNs when the next step falls due ({@link #enabled}).
     * @return a violation, or null.
     */
    String livenessViolation(final long dueNs)
    {
        if (whole || lastHealNs == NONE || healAtNs != NONE || anyPaused() || downForGood())
        {
            return null;
        }
        final long deadlineNs = lastHealNs + config.livenessNs();
        if (dueNs == Long.MAX_VALUE && faultsUsed >= config.faults())
        {
            return "liveness: nothing left to happen at " + nowNs + "ns and the cluster is not whole: " + unsettled();
        }
        if (dueNs != Long.MAX_VALUE && dueNs > deadlineNs)
        {
            return "liveness: not whole " + config.livenessNs() + "ns after the last fault healed at " + lastHealNs +
                "ns: " + unsettled();
        }
        return null;
    }

    /**
     * The end-of-run checks of the simulator, for a whole cluster: views, ring, joins and fencing.
     *
     * @return violations.
     */
    List<String> wholeChecks()
    {
        final List<String> found = new ArrayList<>();
        ViewCheck.check(this, 0, found);
        RingCheck.check(this, 0, found);
        RejoinCheck.check(this, 0, found);
        FencingCheck.check(this, condemned, 0, found);
        found.replaceAll((v) -> v.startsWith("seed=0: ") ? v.substring("seed=0: ".length()) : v);
        return found;
    }

    /**
     * @return true if no member is left and a rank is down: only a re-form brings such a cluster back, and it needs
     * every rank (the rule's documented price, see {@code Reform}), so it waits for an operator, or for the restarts
     * of {@link ExploreConfig#restartAfterNs()}, not for the protocol.
     */
    private boolean downForGood()
    {
        boolean anyDown = false;
        for (int rank = 0; rank < n; rank++)
        {
            if (isStopped(rank))
            {
                anyDown |= restartAtNs[rank] == NONE;
            }
            else if (nodes[rank].state() == NodeState.ACTIVE)
            {
                return false;
            }
        }
        return anyDown;
    }

    private boolean anyPaused()
    {
        for (int rank = 0; rank < n; rank++)
        {
            if (status[rank] == PAUSED)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return true if two running nodes hold each other dead now. A pair may form while a cut or a pause is in force
     * and last until fencing settles it after the heal, so the explorer counts such states; one that lasts fails
     * liveness, whose message names it, as the simulator judges split brain at the end of a run.
     */
    boolean splitBrain()
    {
        return SplitBrainCheck.check(this, 0, new ArrayList<>()) > 0;
    }

    private String unsettled()
    {
        final List<String> pairs = new ArrayList<>();
        SplitBrainCheck.check(this, 0, pairs);
        final StringBuilder s = new StringBuilder();
        pairs.forEach((p) -> s.append(p.substring("seed=0: ".length())).append("; "));
        for (int rank = 0; rank < n; rank++)
        {
            s.append(rank).append('=');
            if (isStopped(rank))
            {
                s.append(status[rank] == CRASHED ? "crashed" : "stopped");
            }
            else
            {
                final DetectorNode node = nodes[rank];
                s.append(node.state()).append(node.joinConfirmed() ? "" : "(unconfirmed)")
                    .append(" D=").append(ranks(node.deadSet())).append(" e=").append(node.emitter())
                    .append(" o=").append(node.observer());
            }
            s.append(rank < n - 1 ? "; " : "");
        }
        return s.toString();
    }

    private static String ranks(final RankSet set)
    {
        final StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < set.size(); i++)
        {
            s.append(i > 0 ? "," : "").append(set.rankAt(i));
        }
        return s.append('}').toString();
    }

    /**
     * @return true if every live node knows exactly the stopped ranks, is linked to its live neighbours, takes part
     * and holds every restarted rank at its current life: the simulator's "stable".
     */
    boolean isWhole()
    {
        return whole;
    }

    private boolean computeWhole()
    {
        int stopped = 0;
        for (int rank = 0; rank < n; rank++)
        {
            stopped += isStopped(rank) ? 1 : 0;
        }
        for (int rank = 0; rank < n; rank++)
        {
            if (!isStopped(rank) &&
                !(Checks.isNodeStable(this, rank, stopped) && Checks.knowsCurrentLives(this, rank)))
            {
                return false;
            }
        }
        return true;
    }

    long nowNs()
    {
        return nowNs;
    }

    int faultsUsed()
    {
        return faultsUsed;
    }

    /**
     * @param parts concatenated only when there is a log: the search runs millions of steps without one.
     */
    private void log(final Object... parts)
    {
        if (log != null)
        {
            final StringBuilder line = new StringBuilder(String.format("%9.3fms ", nowNs / 1e6));
            for (final Object part : parts)
            {
                line.append(part);
            }
            log.add(line.toString());
        }
    }

    private static String side(final long mask)
    {
        final StringBuilder s = new StringBuilder("{");
        for (int r = 0; r < 64; r++)
        {
            if (((mask >>> r) & 1) != 0)
            {
                s.append(s.length() > 1 ? "," : "").append(r);
            }
        }
        return s.append('}').toString();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // backtracking

    /**
     * Takes this world back to where it was before its step {@code toDepth} (counted from 0), as if it had run only
     * the steps before it. Nodes cannot be copied, but each is a deterministic function of the calls made on it, and
     * the world's own state is plain data: that is restored from what was saved before the step, and only the nodes
     * called since are rebuilt, each from its own calls. Backtracking one level thus costs one node's history instead
     * of the whole execution's.
     *
     * @param toDepth a depth of the current execution, at most its length.
     * @throws IllegalStateException if this world was not made undoable.
     */
    void backtrack(final int toDepth)
    {
        if (saved == null)
        {
            throw new IllegalStateException("not undoable");
        }
        if (toDepth == depth)
        {
            return;
        }
        restore(saved.get(toDepth));
        depth = toDepth;
        for (int rank = 0; rank < n; rank++)
        {
            final List<Call> log = calls.get(rank);
            if (log.get(log.size() - 1).depth < toDepth)
            {
                continue;
            }
            while (log.get(log.size() - 1).depth >= toDepth)
            {
                log.remove(log.size() - 1);
            }
            rebuild(rank, log);
        }
    }

    /**
     * @return node calls made to rebuild nodes, over this world's life.
     */
    long replayedCalls()
    {
        return replayedCalls;
    }

    private void rebuild(final int rank, final List<Call> log)
    {
        int first = log.size() - 1;
        while (log.get(first).kind != Call.CREATE)
        {
            first--;
        }
        port.replaying = true;
        try
        {
            final Call created = log.get(first);
            port.replayWriter = HeartbeatChannel.NO_WRITER;
            create(rank, created.slotCounter, created.depth >= 0, created.nowNs);
            for (int i = first + 1, size = log.size(); i < size; i++)
            {
                final Call c = log.get(i);
                port.rank = rank;
                port.replayWriter = c.slotWriter;
                port.replayCounter = c.slotCounter;
                if (c.kind == Call.WORK)
                {
                    nodes[rank].doWork(c.nowNs);
                }
                else
                {
                    nodes[rank].onFrame(frameOf(c.message), c.nowNs);
                }
            }
            replayedCalls += log.size() - first;
        }
        finally
        {
            port.replaying = false;
        }
    }

    private void save()
    {
        if (saved.size() == depth)
        {
            saved.add(new Saved(perRank));
        }
        final Saved into = saved.get(depth);
        for (int i = 0; i < perRank.length; i++)
        {
            System.arraycopy(perRank[i], 0, into.perRank[i], 0, Array.getLength(perRank[i]));
        }
        into.inFlight.clear();
        into.inFlight.addAll(inFlight);
        into.cuts.clear();
        // a cut's end is written when it heals
        cuts.forEach((cut) -> into.cuts.add(cut.clone()));
        into.violations.clear();
        into.violations.addAll(violations);
        final long[] v = into.scalars;
        v[0] = nowNs;
        v[1] = lastNode;
        v[2] = firstNewMessageId;
        v[3] = nextMessageId;
        v[4] = faultsUsed;
        v[5] = cutMask;
        v[6] = healAtNs;
        v[7] = lastHealNs;
        v[8] = (hadPause ? 1 : 0) | (hadLoss ? 2 : 0) | (whole ? 4 : 0) | (excludedNow ? 8 : 0) | (graceJudged ? 16 : 0);
    }

    private void restore(final Saved from)
    {
        for (int i = 0; i < perRank.length; i++)
        {
            System.arraycopy(from.perRank[i], 0, perRank[i], 0, Array.getLength(perRank[i]));
        }
        inFlight.clear();
        inFlight.addAll(from.inFlight);
        cuts.clear();
        from.cuts.forEach((cut) -> cuts.add(cut.clone()));
        violations.clear();
        violations.addAll(from.violations);
        final long[] v = from.scalars;
        nowNs = v[0];
        lastNode = (int)v[1];
        firstNewMessageId = (int)v[2];
        nextMessageId = (int)v[3];
        faultsUsed = (int)v[4];
        cutMask = (int)v[5];
        healAtNs = v[6];
        lastHealNs = v[7];
        hadPause = (v[8] & 1) != 0;
        hadLoss = (v[8] & 2) != 0;
        whole = (v[8] & 4) != 0;
        excludedNow = (v[8] & 8) != 0;
        graceJudged = (v[8] & 16) != 0;
    }

    /**
     * A call made on a node: its creation (the incarnation in {@code slotCounter}; a restart if made by a step), a
     * duty cycle, or a frame; with what its heartbeat slot held then.
     *
     * @param depth the step that made it, -1 at the start.
     */
    private record Call(int depth, byte kind, long nowNs, Message message, int slotWriter, long slotCounter)
    {
        static final byte CREATE = 0;
        static final byte WORK = 1;
        static final byte FRAME = 2;
    }

    /**
     * The world's own state (everything but the nodes) before one step, reused along the execution.
     */
    private static final class Saved
    {
        private final Object[] perRank;
        private final long[] scalars = new long[9];
        private final List<Message> inFlight = new ArrayList<>();
        private final List<long[]> cuts = new ArrayList<>();
        private final List<String> violations = new ArrayList<>();

        Saved(final Object[] like)
        {
            perRank = new Object[like.length];
            for (int i = 0; i < like.length; i++)
            {
                perRank[i] = Array.newInstance(like[i].getClass().getComponentType(), Array.getLength(like[i]));
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // fingerprint

    /**
     * Hashes what the protocol and the checkers can tell apart, with every time taken relative to now, so that an
     * execution that comes back to the same situation a period later meets itself. Each node contributes what its
     * public getters show: state, links, dead set, incarnations, view epoch, next deadline, grace and the
     * re-forms it made; its fault counters (probes, fences, notices, repairs), which made no difference to how many states
     * met when they were in, and its private timers (probe rounds, quorum settling, view digests, fence limits, recent
     * changes) count only through its next deadline and the messages they send, and heartbeat counters are left out.
     *
     * @param into receives the fingerprint.
     */
    void fingerprint(final Fingerprint into)
    {
        into.reset();
        // where the next faults may go (appendFaults) is part of the state while faults may come
        into.add(faultsLeft(ExploreConfig.CRASH | ExploreConfig.PAUSE) ? lastNode : START - 1)
            .add(graceJudged ? 1 : 0).add(faultsUsed).add(hadPause ? 1 : 0).add(hadLoss ? 1 : 0).add(cuts.size())
            .add(cutMask);
        into.add(healAtNs == NONE ? -1 : healAtNs - nowNs);
        into.add(lastHealNs == NONE ? -1 : lastHealNs + config.livenessNs() - nowNs);
        // a fault window or a flapping cut's up time still to run out makes the time count
        into.add(nowNs < config.faultsFromNs() ? config.faultsFromNs() - nowNs : -1);
        into.add(nowNs <= config.faultsUntilNs() && config.faultsUntilNs() != Long.MAX_VALUE ?
            config.faultsUntilNs() - nowNs : -1);
        into.add(config.flapUpNs() >= 0 && !cuts.isEmpty() && healAtNs == NONE ?
            Math.max(lastCut()[1] + config.flapUpNs() - nowNs, -1) : -2);
        for (final long[] cut : cuts)
        {
            // recent cuts still excuse a declaration (AccuracyCheck.judge looks back 4δ)
            into.add(cut[2]).add(Math.min(nowNs - cut[1], 4 * deltaNs + 1));
        }
        for (int rank = 0; rank < n; rank++)
        {
            into.add(status[rank]).add(incarnations[rank]).add(crashedEver[rank] ? 1 : 0).add(condemned[rank] ? 1 : 0)
                .add(cutOffDeclared[rank] ? 1 : 0).add(firstExcludedNs[rank] == NONE ? 0 : 1)
                .add(joinAdmitted[rank] ? 1 : 0).add(slotWriter[rank]);
            into.add(status[rank] == PAUSED ? resumeAtNs[rank] - nowNs : -1);
            into.add(restartAtNs[rank] == NONE ? -1 : restartAtNs[rank] - nowNs);
            into.add(lastResumeNs[rank] == NONE ? -1 : Math.min(nowNs - lastResumeNs[rank], deltaNs + 1));
            if (isStopped(rank))
            {
                continue;
            }
            if (slotWriter[rank] >= 0)
            {
                into.add(slotCounter[rank] - nodes[slotWriter[rank]].counter(ProtocolCounter.HEARTBEATS_SENT));
            }
            final DetectorNode node = nodes[rank];
            into.add(node.state().ordinal()).add(node.joinConfirmed() ? 1 : 0).add(node.emitter()).add(node.observer())
                .add(node.viewEpoch());
            final RankSet dead = node.deadSet();
            into.add(dead.size());
            for (int i = 0; i < dead.size(); i++)
            {
                into.add(dead.rankAt(i));
            }
            for (int r = 0; r < n; r++)
            {
                into.add(node.incarnationOf(r));
            }
            final long deadlineNs = node.nextDeadlineNs();
            into.add(deadlineNs == Long.MAX_VALUE ? -1 : deadlineNs - nowNs);
            into.add(Math.max(node.armedAtNs() - nowNs, -1));
            into.add(node.counter(ProtocolCounter.REFORMS));
        }
        // the in-flight multiset: ids differ between executions that meet, so each message hashes by content
        long messages = 0;
        for (int i = 0, size = inFlight.size(); i < size; i++)
        {
            messages += inFlight.get(i).hash(this);
        }
        into.add(inFlight.size()).add(messages);
    }

    /**
     * @param kinds fault kinds.
     * @return true if a fault of one of these kinds may still be chosen on this execution (now or later): once none
     * may, where the last step ran and which messages it sent make no difference to the future, and two executions
     * that differ only there meet.
     */
    private boolean faultsLeft(final int kinds)
    {
        return (config.faultKinds() & kinds) != 0 && faultsUsed < config.faults() && nowNs <= config.faultsUntilNs();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // ClusterState

    public boolean isStopped(final int rank)
    {
        return status[rank] >= CRASHED;
    }

    public boolean isPaused(final int rank)
    {
        return status[rank] == PAUSED;
    }

    public long lastResumeNs(final int rank)
    {
        return lastResumeNs[rank] == NONE ? NEVER : lastResumeNs[rank];
    }

    public boolean wasCut(final int from, final int to, final long fromNs, final long untilNs)
    {
        for (final long[] cut : cuts)
        {
            if (untilNs > cut[0] && fromNs < cut[1] && severs(cut[2], from, to))
            {
                return true;
            }
        }
        return false;
    }

    public long incarnation(final int rank)
    {
        return incarnations[rank];
    }

    /**
     * A message in flight. Notices and views are private copies: the node that sent them reuses its own objects.
     */
    static final class Message
    {
        static final byte HEARTBEAT = 0;
        static final byte NEW_OBSERVER = 1;
        static final byte NOTICE = 2;
        static final byte LEAVE = 3;
        static final byte JOIN_REQUEST = 4;
        static final byte VIEW = 5;
        static final byte VIEW_DIGEST = 6;
        static final byte PROBE = 7;
        static final byte PROBE_ACK = 8;
        static final byte REFORM_POLL = 9;
        static final byte REFORM_ACK = 10;
        static final byte JOIN_CHALLENGE = 11;
        static final byte JOIN_PROOF = 12;
        private static final String[] NAMES = {"HEARTBEAT", "NEW_OBSERVER", "NOTICE", "LEAVE", "JOIN_REQUEST", "VIEW",
            "VIEW_DIGEST", "PROBE", "PROBE_ACK", "REFORM_POLL", "REFORM_ACK", "JOIN_CHALLENGE", "JOIN_PROOF"};

        final int id;
        final byte type;
        final int from;
        final int to;
        final long fromIncarnation;
        final long value;
        final Object ref;
        final long sentNs;

        Message(final int id, final byte type, final int from, final int to, final long fromIncarnation,
            final long value, final Object ref, final long sentNs)
        {
            this.id = id;
            this.type = type;
            this.from = from;
            this.to = to;
            this.fromIncarnation = fromIncarnation;
            this.value = value;
            this.ref = ref;
            this.sentNs = sentNs;
        }

        long hash(final World world)
        {
            final Fingerprint f = new Fingerprint();
            f.add(type).add(from).add(to).add(fromIncarnation).add(world.nowNs - sentNs)
                .add(world.faultsLeft(ExploreConfig.LOSE) && id >= world.firstNewMessageId ? 1 : 0);
            if (type == HEARTBEAT)
            {
                // by how far it lags its sender's count, not by the count itself
                f.add(world.isStopped(from) ? 0 : value - world.nodes[from].counter(ProtocolCounter.HEARTBEATS_SENT));
            }
            else if (type == NOTICE)
            {
                final Notice notice = (Notice)ref;
                f.add(notice.deadRank()).add(notice.sourceRank()).add(notice.sourceIncarnation()).add(notice.sequence())
                    .add(notice.subjectIncarnation()).add(notice.isJoin() ? 1 : 0);
                addRanks(f, notice.deadSet());
            }
            else if (type == VIEW)
            {
                final Object[] view = (Object[])ref;
                addRanks(f, (RankSet)view[0]);
                final RankIncarnations known = (RankIncarnations)view[1];
                for (int i = 0; i < known.size(); i++)
                {
                    f.add(known.rankAt(i)).add(known.incarnationAt(i));
                }
            }
            else
            {
                f.add(value);
            }
            return f.low() * 31 + f.high();
        }

        private static void addRanks(final Fingerprint f, final RankSet set)
        {
            f.add(set.size());
            for (int i = 0; i < set.size(); i++)
            {
                f.add(set.rankAt(i));
            }
        }

        public String toString()
        {
            final String what = switch (type)
            {
                case NOTICE ->
                {
                    final Notice notice = (Notice)ref;
                    yield (notice.isJoin() ? " JOIN of " : " dead ") + notice.deadRank() + "#" +
                        notice.subjectIncarnation() + " from source " + notice.sourceRank() + " seq " +
                        notice.sequence() + " D_msg " + ranks(notice.deadSet());
                }
                case VIEW -> " D " + ranks((RankSet)((Object[])ref)[0]);
                case HEARTBEAT -> " #" + value;
                default -> value != 0 ? " " + value : "";
            };
            return "[" + id + "] " + NAMES[type] + " " + from + "->" + to + " (incarnation " + fromIncarnation +
                ", sent " + sentNs + "ns)" + what;
        }
    }

    /**
     * A notice as it travels: an immutable copy taken when it is sent.
     */
    private record SentNotice(
        int deadRank, int sourceRank, long sourceIncarnation, long sequence, RankSet deadSet, long subjectIncarnation,
        boolean isJoin) implements Notice
    {
    }

    /**
     * The world as seen by the node being called.
     */
    private final class Port implements HeartbeatChannel, ControlChannel, MembershipListener
    {
        private int rank = -1;
        // while a node is rebuilt from its calls: what it sends and tells is dropped (the world has it already), and
        // its slot reads as it did when the call was made
        private boolean replaying;
        private int replayWriter;
        private long replayCounter;

        public void writeHeartbeat(final int observerRank, final long counter)
        {
            send(Message.HEARTBEAT, observerRank, counter, null);
        }

        public long readHeartbeat(final int emitterRank)
        {
            if (replaying)
            {
                return replayWriter == emitterRank ? replayCounter : NO_HEARTBEAT;
            }
            return slotWriter[rank] == emitterRank ? slotCounter[rank] : NO_HEARTBEAT;
        }

        public int lastWriter()
        {
            return replaying ? replayWriter : slotWriter[rank];
        }

        public void sendNewObserver(final int emitterRank)
        {
            send(Message.NEW_OBSERVER, emitterRank, 0, null);
        }

        public void sendLeave(final int observerRank)
        {
            send(Message.LEAVE, observerRank, 0, null);
        }

        public void sendNotice(final int toRank, final Notice notice)
        {
            send(Message.NOTICE, toRank, 0, notice instanceof SentNotice ? notice : new SentNotice(notice.deadRank(),
                notice.sourceRank(), notice.sourceIncarnation(), notice.sequence(), RankArray.copyOf(notice.deadSet()),
                notice.subjectIncarnation(), notice.isJoin()));
        }

        public void sendProbe(final int toRank, final long token)
        {
            send(Message.PROBE, toRank, token, null);
        }

        public void sendProbeAck(final int toRank, final long token)
        {
            send(Message.PROBE_ACK, toRank, token, null);
        }

        // the explorer binds no runs: a joiner's nonce, which only teaches a run, is not carried
        public void sendJoinRequest(final int contactRank, final long joinerNonce)
        {
            send(Message.JOIN_REQUEST, contactRank, joinerNonce, null);
        }

        public void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
        {
            send(Message.JOIN_CHALLENGE, joinerRank, nonce, joinerNonce);
        }

        public void sendJoinProof(final int contactRank, final long nonce)
        {
            send(Message.JOIN_PROOF, contactRank, nonce, null);
        }

        public void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations known)
        {
            send(Message.VIEW, joinerRank, 0, new Object[]{RankArray.copyOf(deadSet), IncarnationTable.copyOf(known)});
        }

        public void sendViewDigest(final int toRank, final long digest)
        {
            send(Message.VIEW_DIGEST, toRank, digest, null);
        }

        public void sendReformPoll(final int toRank, final long token)
        {
            send(Message.REFORM_POLL, toRank, token, null);
        }

        public void sendReformAck(final int toRank, final long token)
        {
            send(Message.REFORM_ACK, toRank, token, null);
        }

        public void onFailure(final int deadRank, final long timeNs, final FailureCause cause, final int reporter)
        {
            if (replaying)
            {
                return;
            }
            log("node ", rank, " declares ", deadRank, " dead (", cause, ", reporter ", reporter, ")");
            if (nodes[rank].incarnationOf(deadRank) < incarnations[deadRank])
            {
                // an earlier life of a rank that restarted since: that life did stop
                return;
            }
            if (graceJudged)
            {
                violations.add("grace: node " + rank + " declared " + deadRank + " dead at " + timeNs + "ns (" + cause +
                    ", reporter " + reporter + ")" + GRACE_RUN);
            }
            final AccuracyCheck.Verdict verdict = AccuracyCheck.judge(World.this, reporter, deadRank, timeNs, deltaNs);
            switch (verdict)
            {
                case CONDEMNED -> condemned[deadRank] = true;
                case CUT_OFF -> cutOffDeclared[deadRank] |= cause == FailureCause.DETECTED;
                case FALSE_SUSPICION ->
                {
                    // a notice spreading an earlier declaration by a node the network had cut off from the rank
                    if (!(cause == FailureCause.NOTICE && cutOffDeclared[deadRank]))
                    {
                        violations.add(AccuracyCheck.falseSuspicion(0, rank, deadRank, timeNs,
                            cause + ", reporter " + reporter).substring("seed=0: ".length()));
                    }
                }
                default ->
                {
                }
            }
        }

        public void onExcluded(final long timeNs, final ExclusionCause cause, final int reporterRank)
        {
            if (replaying)
            {
                return;
            }
            log("node ", rank, " stops: ", cause, " (reporter ", reporterRank, ")");
            if (graceJudged)
            {
                violations.add("grace: node " + rank + " stopped as " + cause + " at " + timeNs + "ns (reporter " +
                    reporterRank + ")" + GRACE_RUN);
            }
            if (cause != ExclusionCause.LEFT && firstExcludedNs[rank] == NONE)
            {
                excludedNow = true;
                firstExcludedNs[rank] = timeNs;
                firstExclusionCauses[rank] = cause;
            }
            stop(rank, STOPPED);
        }

        public void onJoin(final int joiner, final long incarnation, final long timeNs)
        {
            if (replaying)
            {
                return;
            }
            log("node ", rank, " admits ", joiner, "#", incarnation);
            if (joiner != rank && incarnation == incarnations[joiner] && !joinAdmitted[joiner])
            {
                // the first node to admit this life is its contact, which must take part itself
                joinAdmitted[joiner] = true;
                if (nodes[rank].state() != NodeState.ACTIVE)
                {
                    violations.add("join: node " + rank + " (" + nodes[rank].state() + ") admitted " + joiner +
                        " (incarnation " + incarnation + ") without being a member");
                }
            }
        }

        public void onViewChange(final long viewEpoch, final int deadCount, final long timeNs)
        {
        }
    }
}
