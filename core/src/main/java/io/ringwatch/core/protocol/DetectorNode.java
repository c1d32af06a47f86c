package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * One node of the failure detector, tasks T1–T5 of paper 002 Algorithm 1 as a pure state machine, and the façade its
 * drivers see. Time comes in as arguments, heartbeats and messages go out through the injected channels, and nothing
 * here starts a thread, reads a clock or draws a random number, so the simulator and the live agent drive the very
 * same object. Not thread safe: one driver thread calls everything.
 * <p>
 * Drivers call {@link #doWork(long)} whenever they like (every duty cycle live, at {@link #nextDeadlineNs()} and after
 * heartbeat deliveries in the simulator) and {@link #onFrame} with every decoded frame. The node keeps the order of
 * things (boot; the duty cycle's T1 → T3 → fencing → joining → majority checks → repairs; which part takes which
 * frame) and the pause guard's wake-up stamp; each rule lives in a part named after its concept (the map of the
 * parts is this package's documentation), and no part calls back into the node.
 * Rules and reasons: {@code docs/algorithm.md} (with the glossary), {@code partitions.md}, {@code membership.md}.
 */
public final class DetectorNode
{
    private final int rank;
    private final long incarnation;
    private final int clusterSize;
    private final long pauseThresholdNs;
    private final HeartbeatChannel heartbeats;
    private final ControlChannel control;
    private final ProtocolCounters counters = new ProtocolCounters();
    private final RankArray dead = new RankArray(8);
    private final Ring ring;
    private final Membership membership;
    private final LocalView view;
    private final Observation observation;
    private final Detection detection;
    private final Neighbours neighbours;
    private final Learning learning;
    private final HealRetell heal;
    private final Admission admission;
    private final NoticeReceipt receipt;
    private final PartitionPolicy policy;
    private final Quorum quorum;
    private final MajorityRule majorityRule;
    private final ViewRepair viewRepair;
    private final Reform reform;
    private final JoinContact joins;
    private final JoinerRole joiner;
    private final ProbeAnswers probeAnswers;
    private final RunBinding runs;

    private long expectedWakeNs;

    /**
     * @param rank        this node's rank.
     * @param incarnation distinguishes restarts of the same rank in broadcast ids and frames.
     * @param settings    validated parameters.
     * @param schedule    broadcast schedule shared by every node of the cluster.
     * @param heartbeats  heartbeat slots.
     * @param control     control messages.
     * @param listener    application callbacks.
     * @param startNs     protocol time of start: heartbeats are due at startNs + k·η.
     */
    public DetectorNode(
        final int rank,
        final long incarnation,
        final ProtocolSettings settings,
        final BroadcastSchedule schedule,
        final HeartbeatChannel heartbeats,
        final ControlChannel control,
        final MembershipListener listener,
        final long startNs)
    {
        if (rank < 0 || rank >= settings.clusterSize())
        {
            throw new IllegalArgumentException("rank " + rank + " not in [0, " + settings.clusterSize() + ")");
        }
        this.rank = rank;
        this.incarnation = incarnation;
        this.clusterSize = settings.clusterSize();
        this.pauseThresholdNs = settings.pauseThresholdNs();
        this.heartbeats = heartbeats;
        this.control = control;
        this.policy = settings.partitionPolicy();
        final long suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.ring = new Ring(rank, clusterSize, dead);
        this.membership = new Membership(suspicionTimeoutNs / 2);
        this.quorum = new Quorum(clusterSize, settings.settlePeriodNs(), startNs);
        this.view = new LocalView(rank, dead, membership, quorum, listener, suspicionTimeoutNs);
        this.observation = new Observation(rank, settings, heartbeats, control, membership, counters);
        final Notices notices = new Notices(rank, incarnation, settings, schedule, control, membership, dead, counters);
        this.admission = new Admission(settings, ring, dead, membership, notices, view, counters);
        this.heal = new HealRetell(settings, ring, dead, membership, quorum, notices, counters);
        this.receipt = new NoticeReceipt(incarnation, settings, ring, dead, membership, quorum, admission, notices,
            counters);
        final ProbeSession probes = new ProbeSession(rank, ring, observation, dead, quorum, control, settings, counters);
        this.majorityRule = new MajorityRule(view, notices, counters, ring, observation, dead, quorum, probes, settings);
        this.viewRepair = new ViewRepair(settings.viewDigestPeriodNs(), counters);
        final Shared shared = new Shared(view, dead, ring, observation, membership, notices, control, counters);
        this.neighbours = new Neighbours(shared, admission, probes, viewRepair, heartbeats);
        this.detection = new Detection(shared, settings, probes, majorityRule, heal, admission, neighbours);
        // 4δ: a live cluster admits a joiner at its first or second ask (δ/2 apart); the lease of 2δ covers any
        // round trip and ends before the next poll, so a committed joiner is free to ask others between polls
        this.reform = new Reform(rank, clusterSize, 4 * suspicionTimeoutNs, 2 * suspicionTimeoutNs,
            settings.breaks(BrokenRules.BREAK_REFORM_UNANIMITY), counters);
        final Joining joining = new Joining(ring, dead, membership, reform, notices, control, counters, settings);
        this.runs = new RunBinding(shared, viewRepair, suspicionTimeoutNs);
        this.joins = new JoinContact(shared, incarnation, settings, probes, majorityRule, heal, neighbours, runs);
        this.joiner = new JoinerRole(shared, incarnation, quorum, joining, reform, neighbours, joins, runs,
            settings.breaks(BrokenRules.BREAK_JOINER_COUNTS_ITSELF));
        this.learning = new Learning(shared, settings, quorum, joining, receipt, majorityRule, heal, viewRepair,
            admission, neighbours, joins, joiner);
        this.probeAnswers = new ProbeAnswers(rank, admission, majorityRule, probes, control, counters);
        rebase(startNs);
    }

    /** @param secret 64 random bits for its join nonces ({@code JoinChallenge}), set before any frame. */
    public void joinNonceSecret(final long secret)
    {
        joins.nonceSecret(secret);
    }

    /** @param candidate this process's candidate run ({@link RunBinding}), set before it starts; 0 binds no runs. */
    public void runCandidate(final long candidate)
    {
        runs.candidate(candidate);
    }

    /**
     * Restart the node's clocks at {@code nowNs}: for a driver that built the node well before its first duty cycle
     * (e.g. a launcher holding nodes at a start barrier), so the startup grace counts from when it really starts.
     *
     * @param nowNs current protocol time.
     * @throws IllegalStateException once the node has beaten or learned anything: its timers are live by then.
     */
    public void start(final long nowNs)
    {
        if (!untouched())
        {
            throw new IllegalStateException("start(now) only before the first heartbeat of node " + rank);
        }
        rebase(nowNs);
        runs.started(true, observation.armedAtNs(), nowNs);
    }

    /**
     * Start as a restarted rank: ask to be admitted instead of taking part at once, from the end of its startup grace
     * on. The node neither beats nor watches until a contact has admitted it and sent it the view; it reports itself
     * up with {@link MembershipListener#onJoin} for its own rank then.
     *
     * @param nowNs current protocol time.
     * @throws IllegalStateException if the node has already started taking part.
     * @throws IllegalArgumentException if its incarnation is the boot incarnation 0, which every member already
     *                                  assumes and so cannot be admitted anew.
     */
    public void join(final long nowNs)
    {
        if (!untouched())
        {
            throw new IllegalStateException("join(now) only before node " + rank + " has taken part");
        }
        if (incarnation <= 0)
        {
            throw new IllegalArgumentException("a joining node needs an incarnation above 0: " + incarnation);
        }
        view.become(NodeState.JOINING);
        receipt.joined();
        observation.alone();
        rebase(nowNs);
        runs.started(false, observation.armedAtNs(), nowNs);
        membership.incarnations().raise(rank, incarnation);
        // Ask once the startup grace is over: once admitted, this node's observer allows it 2δ to beat, which a JVM
        // still loading and compiling may miss; nobody waits on it meanwhile, it is dead in every view.
        joiner.askFrom(observation.armedAtNs());
    }

    /**
     * Start = join: boot as a seed. The seeds, ranks below {@code seedCount} (the first ranks of the cluster file),
     * form the initial membership and watch each other; every other rank is held dead as not yet admitted (no failure
     * is reported) and joins through {@link #join(long, int)} once it is ready, so nobody watches it before it has
     * been admitted and has beaten. Call instead of {@link #start(long)}, before the first duty cycle.
     *
     * @param seedCount the seeds, in [1, N].
     * @param nowNs     current protocol time.
     * @throws IllegalArgumentException if this rank is no seed.
     */
    public void bootAsSeed(final int seedCount, final long nowNs)
    {
        if (rank >= seedCount)
        {
            throw new IllegalArgumentException("rank " + rank + " is no seed of " + seedCount + ": it joins");
        }
        start(nowNs);
        membership.seeds(seedCount, clusterSize);
        membership.holdNotYetAdmitted(dead, clusterSize);
        observation.neighbours(ring.predecessor(), ring.successor());
        // the seeds are M until the view settles with the ranks that joined
        quorum.adopt(dead);
    }

    /**
     * {@link #join(long)} in a cluster that boots through joins: the seeds, ranks below {@code seedCount}, are asked
     * right after the ring neighbours, which at boot are often joining too.
     */
    public void join(final long nowNs, final int seedCount)
    {
        membership.seeds(seedCount, clusterSize);
        join(nowNs);
    }

    /**
     * {@link #join(long, int)} for a rank's first start, launched with the seeds: it asks at once instead of after its
     * startup grace, while every node (the seeds included) is still within its own grace and nobody is judged, so
     * the joins and the warm-up of their code paths are over before anyone is armed.
     */
    public void joinAtBoot(final long nowNs, final int seedCount)
    {
        join(nowNs, seedCount);
        joiner.askFrom(nowNs);
    }

    private boolean untouched()
    {
        return counters.get(ProtocolCounter.HEARTBEATS_SENT) == 0 &&
            counters.get(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) == 0 && view.epoch() == 0 && view.active();
    }

    private void rebase(final long startNs)
    {
        observation.rebase(startNs);
        expectedWakeNs = startNs;
        viewRepair.rebase(startNs);
    }

    /**
     * One duty cycle: T1 (heartbeat when due), T2 (slot progress resets the suspicion deadline) and T3 (expiry), then
     * fencing, joining, the majority rule's checks and the repairs.
     *
     * @param nowNs current protocol time; read once by the driver per cycle.
     * @return amount of work done, 0 when idle.
     */
    public int doWork(final long nowNs)
    {
        runs.doWork(nowNs);
        if (view.joining())
        {
            final int work = observation.beatIfDue(nowNs) + joiner.askIfDue(nowNs);
            expectedWakeNs = nextDeadlineNs();
            return work;
        }
        if (!view.active())
        {
            return 0;
        }

        // expectedWakeNs only moves later between calls, so in the simulator (woken exactly at deadlines) this
        // is never true; live it is true only when this thread was descheduled past a deadline.
        // Judging staleness after our own stall would blame the emitter for our pause: see the slot afresh first.
        final boolean late = nowNs - expectedWakeNs > pauseThresholdNs;
        quorum.settleIfDue(dead, nowNs);
        int work = observation.beatIfDue(nowNs);
        work += detection.checkEmitter(nowNs, late);
        final int slotWriter = heartbeats.lastWriter();
        work += view.active() ? admission.fenceSlotWriterIfDead(slotWriter, nowNs) : 0;
        work += joiner.askIfDue(nowNs);
        work += view.active() ? majorityRule.checkVerification(nowNs) : 0;
        if (view.active())
        {
            // after the checks that may start judging a silence, which holds M as it is
            majorityRule.growWithJoins(nowNs);
        }
        work += heal.retellIfSettled(nowNs);
        if (view.active())
        {
            // no deadline of its own: a node that beats wakes every η anyway, and a lone node has nobody to tell
            viewRepair.sendIfDue(nowNs, rank, observation.emitter(), observation.observer(), dead,
                membership.incarnations(), control);
        }
        expectedWakeNs = nextDeadlineNs();
        return work;
    }

    /**
     * The one way frames enter the node, live and simulated alike: the frame's type picks the part and its rule (T4,
     * T5, a join, a probe...); a type the node does not act on (a daemon's process notice) is ignored.
     *
     * @param frame decoded and authenticated; valid during the call.
     * @param nowNs protocol time.
     */
    public void onFrame(final InboundFrame frame, final long nowNs)
    {
        final int sender = frame.senderRank();
        final long senderIncarnation = frame.senderIncarnation();
        runs.onFrame(frame.type(), frame.runId(), nowNs);
        switch (frame.type())
        {
            case FrameType.HEARTBEAT -> onHeartbeat(sender, senderIncarnation, frame, nowNs);
            case FrameType.NEW_OBSERVER -> neighbours.onNewObserver(sender, senderIncarnation,
                frame.newObserverEmitterRank(), frame.rdmaRkey(), frame.rdmaAddress(), frame.rdmaLength(), nowNs);
            case FrameType.FAILURE_NOTICE, FrameType.JOIN ->
                learning.onNotice(frame.notice(), sender, senderIncarnation, nowNs);
            case FrameType.LEAVE -> learning.onLeave(sender, senderIncarnation, nowNs);
            case FrameType.JOIN_REQUEST, FrameType.JOIN_PROOF -> joins.onJoinFrame(frame, nowNs);
            case FrameType.JOIN_CHALLENGE ->
                joiner.onJoinChallenge(sender, frame.probeToken(), frame.joinerNonce(), frame.runId(), nowNs);
            case FrameType.VIEW ->
                learning.onView(sender, senderIncarnation, frame.viewDead(), frame.viewIncarnations(), nowNs);
            case FrameType.PROBE -> probeAnswers.onProbe(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.PROBE_ACK -> probeAnswers.onProbeAck(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.VIEW_DIGEST -> learning.onViewDigest(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.REFORM_POLL ->
                joiner.onReformPoll(sender, senderIncarnation, frame.probeToken(), frame.runId(), nowNs);
            case FrameType.REFORM_ACK -> joiner.onReformAck(sender, senderIncarnation, frame.probeToken(), nowNs);
            default ->
            {
            }
        }
        // whatever the frame changed, the pause guard judges the next duty cycle against the deadlines as they are now
        expectedWakeNs = nextDeadlineNs();
    }

    /**
     * A HEARTBEAT frame (transports that carry heartbeats as messages) goes into this node's slot unless its sender
     * is dead in this view, in which case the sender is fenced.
     */
    private void onHeartbeat(final int fromRank, final long fromIncarnation, final InboundFrame frame, final long nowNs)
    {
        if (admission.admit(fromRank, fromIncarnation, nowNs) &&
            !heartbeats.deposit(fromRank, fromIncarnation, frame.heartbeatCounter(), frame.heartbeatTimestampNs()))
        {
            counters.increment(ProtocolCounter.HEARTBEAT_FRAMES_REFUSED);
        }
    }

    /**
     * Leave gracefully: tell the observer, then stop taking part.
     *
     * @param nowNs protocol time.
     */
    public void leave(final long nowNs)
    {
        if (!view.active())
        {
            return;
        }
        if (observation.observer() != rank)
        {
            control.sendLeave(observation.observer());
        }
        view.exclude(nowNs, ExclusionCause.LEFT, rank);
    }

    /**
     * The driver found this node's own transport gone (live: the media driver stopped heartbeating, or the RDMA port
     * went down): stop at once, with no suspicion, notice or fence; the others detect the silence as a crash.
     *
     * @param cause {@link ExclusionCause#DRIVER_LOST} or {@link ExclusionCause#TRANSPORT_FAULT}.
     * @param nowNs protocol time.
     */
    public void onOwnTransportLost(final ExclusionCause cause, final long nowNs)
    {
        view.stopOnOwnFault(nowNs, cause);
    }

    /**
     * @return the earliest time at which {@link #doWork(long)} has something to do, absent new messages or
     * heartbeat deliveries; {@link Long#MAX_VALUE} once the node has stopped.
     */
    public long nextDeadlineNs()
    {
        if (!view.active() && !view.joining())
        {
            return Long.MAX_VALUE;
        }
        long nextNs = earlier(observation.nextHeartbeatNs(), observation.suspicionDeadlineNs());
        nextNs = earlier(membership.nextAttemptNs(), nextNs);
        nextNs = earlier(reform.nextPollNs(), nextNs);
        if (majorityRule.verifying())
        {
            nextNs = earlier(majorityRule.verifyDeadlineNs(), nextNs);
        }
        final long retellNs = heal.deadlineNs();
        return retellNs == Long.MAX_VALUE ? nextNs : earlier(retellNs, nextNs);
    }

    private static long earlier(final long aNs, final long bNs)
    {
        return aNs - bNs < 0 ? aNs : bNs;
    }

    /** @return what this node has counted so far; live, read on the node's thread. */
    public ProtocolCounters counters()
    {
        return counters;
    }

    /**
     * @param counter what to read.
     * @return its value so far.
     */
    public long counter(final ProtocolCounter counter)
    {
        return counters.get(counter);
    }

    /** @return protocol time at which the startup grace ends and suspicion is armed. */
    public long armedAtNs()
    {
        return observation.armedAtNs();
    }

    /**
     * @param r a rank.
     * @return true unless {@code r} is in this node's dead set; O(log f).
     */
    public boolean isAlive(final int r)
    {
        return !dead.contains(r);
    }

    /** @return this node's dead set, live view. */
    public RankSet deadSet()
    {
        return dead;
    }

    /**
     * @param r a rank.
     * @return the incarnation this node's view holds for it: 0 (boot) unless it rejoined.
     */
    public long incarnationOf(final int r)
    {
        return membership.incarnationOf(r);
    }

    /** @return the incarnations of the ranks that rejoined, this node's own included if it did; live view. */
    public RankIncarnations incarnations()
    {
        return membership.incarnations();
    }

    /** @return true once a joined node has been adopted by both its neighbours; always true for a boot member. */
    public boolean joinConfirmed()
    {
        return membership.confirmed();
    }

    /** @return this node's rank. */
    public int rank()
    {
        return rank;
    }

    /** @return this node's incarnation. */
    public long incarnation()
    {
        return incarnation;
    }

    /** @return where this node stands. */
    public NodeState state()
    {
        return view.state();
    }

    /** @return the rank this node watches; its own rank when it is the last one alive. */
    public int emitter()
    {
        return observation.emitter();
    }

    /** @return the rank watching this node; its own rank when it is the last one alive. */
    public int observer()
    {
        return observation.observer();
    }

    /** @return view epoch, incremented once per change of the dead set. */
    public long viewEpoch()
    {
        return view.epoch();
    }

    /** @return the partition policy this node runs. */
    public PartitionPolicy partitionPolicy()
    {
        return policy;
    }
}
