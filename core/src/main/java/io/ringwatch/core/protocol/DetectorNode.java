package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.NoticeSequences;
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
 * things (boot, the duty cycle's T1 → T3 → fencing → joining → majority checks → repairs, each frame's rule) and the
 * state they share (its dead set D, its role: {@link NodeState}); each rule lives in a part named after its concept:
 * <ul>
 * <li>{@link io.ringwatch.core.ring.Ring}: who watches whom, FindEmitter;</li>
 * <li>{@link Observation}: T1–T4, the startup grace and the pause guard;</li>
 * <li>{@link Notices} and {@link NoticeReceipt}: T5, broadcasts started, forwarded, deduplicated, judged;</li>
 * <li>{@link Admission}: stale incarnations and fencing of zombies (off the paper's map, as all below);</li>
 * <li>{@link ProbeSession}, {@link MajorityRule}, {@link Quorum}: the partition rule (ear check, minority stop);</li>
 * <li>{@link Membership}, {@link Joining}, {@link Reform}: joins, start = join, re-forming a cluster;</li>
 * <li>{@link HealRetell} and {@link ViewRepair}: repairs after a cut;</li>
 * <li>{@link ProtocolCounters}: what it counts, one descriptor per counter ({@link ProtocolCounter}).</li>
 * </ul>
 * The parts never call back into the node, except the partition rule's verdicts (declare a run, exclude, stop as a
 * minority). The rules, with their reasons, are in the docs: {@code docs/algorithm.md} (glossary from paper terms
 * to classes), {@code docs/partitions.md}, {@code docs/membership.md}.
 */
public final class DetectorNode
{
    private static final int SMALL_RUN = 64;

    private final int rank;
    private final int incarnation;
    private final int clusterSize;
    private final long suspicionTimeoutNs;
    private final long pauseThresholdNs;
    private final HeartbeatChannel heartbeats;
    private final ControlChannel control;
    private final MembershipListener listener;
    private final ProtocolCounters counters = new ProtocolCounters();
    private final RankArray dead = new RankArray(8);
    private final Ring ring;
    private final Membership membership;
    private final Observation observation;
    private final ObserverOffer observerOffer = new ObserverOffer();
    private final Notices notices;
    private final HealRetell heal;
    private final Admission admission;
    private final NoticeReceipt receipt;
    private final RankArray runDeclared = new RankArray(8);
    private final PartitionPolicy policy;
    private final long probeTimeoutNs;
    private final Quorum quorum;
    private final ProbeSession probes;
    private final MajorityRule majorityRule;
    private final ViewRepair viewRepair;
    private final Reform reform;
    private final Joining joining;

    private NodeState state = NodeState.ACTIVE;
    private long expectedWakeNs;
    private long viewEpoch;

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
        final int incarnation,
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
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.pauseThresholdNs = settings.pauseThresholdNs();
        this.heartbeats = heartbeats;
        this.control = control;
        this.listener = listener;
        this.ring = new Ring(rank, clusterSize, dead);

        this.membership = new Membership(suspicionTimeoutNs / 2);
        this.observation = new Observation(rank, settings, heartbeats, control, membership, counters);
        this.notices = new Notices(rank, incarnation, settings, schedule, control, membership, dead, counters);
        this.admission = new Admission(settings, ring, dead, membership, notices, counters);
        this.policy = settings.partitionPolicy();
        this.probeTimeoutNs = settings.probeTimeoutNs();
        this.quorum = new Quorum(clusterSize, settings.settlePeriodNs(), startNs);
        this.heal = new HealRetell(settings, ring, dead, membership, quorum, notices, counters);
        this.receipt = new NoticeReceipt(incarnation, settings, ring, dead, membership, quorum, admission, notices,
            counters);
        this.probes = new ProbeSession(this, ring, observation, dead, quorum, control, settings, counters);
        this.majorityRule = new MajorityRule(this, ring, observation, dead, quorum, probes, settings);
        this.viewRepair = new ViewRepair(settings.viewDigestPeriodNs(), counters);
        // 4δ: a live cluster admits a joiner at its first or second ask (δ/2 apart); the lease of 2δ covers any
        // round trip and ends before the next poll, so a committed joiner is free to ask others between polls
        this.reform = new Reform(rank, clusterSize, 4 * suspicionTimeoutNs, 2 * suspicionTimeoutNs,
            settings.breaks(ProtocolSettings.BREAK_REFORM_UNANIMITY), counters);
        this.joining = new Joining(ring, dead, membership, reform, notices, control, counters);
        rebase(startNs);
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
        if (counters.get(ProtocolCounter.HEARTBEATS_SENT) != 0 ||
            counters.get(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) != 0 || viewEpoch != 0 || state != NodeState.ACTIVE)
        {
            throw new IllegalStateException("start(now) only before the first heartbeat of node " + rank);
        }
        rebase(nowNs);
    }

    /**
     * Start as a restarted rank: ask to be admitted instead of taking part at once, from the end of its startup grace
     * on. The node neither beats nor watches until a contact has admitted it and sent it the view ({@link #onView});
     * it reports itself up with {@link MembershipListener#onJoin} for its own rank then.
     *
     * @param nowNs current protocol time.
     * @throws IllegalStateException if the node has already started taking part.
     * @throws IllegalArgumentException if its incarnation is the boot incarnation 0, which every member already
     *                                  assumes and so cannot be admitted anew.
     */
    public void join(final long nowNs)
    {
        if (counters.get(ProtocolCounter.HEARTBEATS_SENT) != 0 ||
            counters.get(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) != 0 || viewEpoch != 0 || state != NodeState.ACTIVE)
        {
            throw new IllegalStateException("join(now) only before node " + rank + " has taken part");
        }
        if (incarnation <= 0)
        {
            throw new IllegalArgumentException("a joining node needs an incarnation above 0: " + incarnation);
        }
        state = NodeState.JOINING;
        receipt.joined();
        observation.alone();
        rebase(nowNs);
        membership.incarnations().raise(rank, incarnation);
        // Ask once the startup grace is over: once admitted, this node's observer allows it 2δ to beat, which a JVM
        // still loading and compiling may miss; nobody waits on it meanwhile, it is dead in every view.
        membership.startJoin(observation.armedAtNs());
        reform.joinStarted(observation.armedAtNs());
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
     * {@link #join(long)} in a cluster that boots through joins: the seeds are asked right after the ring
     * neighbours, which at boot are often joining too.
     *
     * @param nowNs     current protocol time.
     * @param seedCount the seeds, in [1, N].
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
     *
     * @param nowNs     current protocol time.
     * @param seedCount the seeds, in [1, N].
     */
    public void joinAtBoot(final long nowNs, final int seedCount)
    {
        join(nowNs, seedCount);
        membership.startJoin(nowNs);
        reform.joinStarted(nowNs);
    }

    private void rebase(final long startNs)
    {
        observation.rebase(startNs);
        expectedWakeNs = startNs;
        viewRepair.rebase(startNs);
    }

    /**
     * One duty cycle: T1 (heartbeat when due), T2 (slot progress resets the suspicion deadline) and T3 (expiry).
     *
     * @param nowNs current protocol time; read once by the driver per cycle.
     * @return amount of work done, 0 when idle.
     */
    public int doWork(final long nowNs)
    {
        if (state == NodeState.JOINING)
        {
            final int work = observation.beatIfDue(nowNs) + askToJoin(nowNs);
            expectedWakeNs = nextDeadlineNs();
            return work;
        }
        if (state != NodeState.ACTIVE)
        {
            return 0;
        }

        // expectedWakeNs only moves later between calls, so in the simulator (woken exactly at deadlines) this
        // is never true; live it is true only when this thread was descheduled past a deadline.
        // Judging staleness after our own stall would blame the emitter for our pause: see the slot afresh first.
        final boolean late = nowNs - expectedWakeNs > pauseThresholdNs;
        quorum.settleIfDue(dead, nowNs);
        int work = observation.beatIfDue(nowNs);
        work += checkEmitter(nowNs, late);
        final int slotWriter = heartbeats.lastWriter();
        work += state == NodeState.ACTIVE ? admission.fenceSlotWriterIfDead(slotWriter, nowNs) : 0;
        work += askToJoin(nowNs);
        work += state == NodeState.ACTIVE ? majorityRule.checkVerification(nowNs) : 0;
        work += heal.retellIfSettled(nowNs);
        if (state == NodeState.ACTIVE)
        {
            // no deadline of its own: a node that beats wakes every η anyway, and a lone node has nobody to tell
            viewRepair.sendIfDue(nowNs, rank, observation.emitter(), observation.observer(), dead,
                membership.incarnations(), control);
        }
        expectedWakeNs = nextDeadlineNs();
        return work;
    }

    /**
     * The one way frames enter the node, live and simulated alike: the frame's type picks the rule (T4, T5, a join,
     * a probe...). A type the node does not act on (a daemon's process notice) is ignored.
     *
     * @param frame decoded and authenticated; valid during the call.
     * @param nowNs protocol time.
     */
    public void onFrame(final InboundFrame frame, final long nowNs)
    {
        final int sender = frame.senderRank();
        final int senderIncarnation = frame.senderIncarnation();
        switch (frame.type())
        {
            case FrameType.HEARTBEAT ->
                onHeartbeat(sender, senderIncarnation, frame.heartbeatCounter(), frame.heartbeatTimestampNs(), nowNs);
            case FrameType.NEW_OBSERVER -> onNewObserver(sender, senderIncarnation, frame.newObserverEmitterRank(),
                frame.rdmaRkey(), frame.rdmaAddress(), frame.rdmaLength(), nowNs);
            case FrameType.FAILURE_NOTICE, FrameType.JOIN -> onNotice(frame.notice(), sender, senderIncarnation, nowNs);
            case FrameType.LEAVE -> onLeave(sender, senderIncarnation, nowNs);
            case FrameType.JOIN_REQUEST -> onJoinRequest(sender, senderIncarnation, nowNs);
            case FrameType.VIEW -> onView(sender, senderIncarnation, frame.viewDead(), frame.viewIncarnations(), nowNs);
            case FrameType.PROBE -> onProbe(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.PROBE_ACK -> onProbeAck(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.VIEW_DIGEST -> onViewDigest(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.REFORM_POLL -> onReformPoll(sender, senderIncarnation, frame.probeToken(), nowNs);
            case FrameType.REFORM_ACK -> onReformAck(sender, senderIncarnation, frame.probeToken(), nowNs);
            default ->
            {
            }
        }
        // whatever the frame changed, the pause guard judges the next duty cycle against the deadlines as they are now
        expectedWakeNs = nextDeadlineNs();
    }

    /**
     * Joiner: ask the next contact when an attempt is due, until admitted and confirmed by both neighbours.
     */
    private int askToJoin(final long nowNs)
    {
        final int asked = joining.askIfDue(nowNs, state == NodeState.ACTIVE, state == NodeState.JOINING,
            observation.emitter());
        if (asked == Joining.REFORM)
        {
            reformCluster(nowNs);
            return 1;
        }
        return asked;
    }

    /**
     * REFORM_POLL: the lowest rank, joining for a while without being admitted, asks whether this node is joining
     * too ({@link Reform}). A member takes it for the join request it is if it is the poller's nearest live successor
     * in its view (every member gets the poll at once: all of them admitting it would be N − 1 JOIN broadcasts of
     * one join); a joiner answers and commits; anyone else ignores it.
     *
     * @param fromRank        the poller.
     * @param fromIncarnation its incarnation.
     * @param token           the poll's token.
     * @param nowNs           protocol time.
     */
    public void onReformPoll(final int fromRank, final int fromIncarnation, final long token, final long nowNs)
    {
        if (fromRank != Reform.LEADER || fromRank == rank)
        {
            counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (state == NodeState.ACTIVE)
        {
            if (ring.nextAlive(fromRank) == rank)
            {
                onJoinRequest(fromRank, fromIncarnation, nowNs);
            }
        }
        else if (state == NodeState.JOINING && fromIncarnation > 0)
        {
            reform.onPoll(token, nowNs, control);
        }
    }

    /**
     * REFORM_ACK: a joiner's answer to this leader's poll; once every other rank answered the first poll, bind them with
     * the second, and once every one answered that, re-form.
     *
     * @param fromRank        the joiner.
     * @param fromIncarnation its incarnation.
     * @param token           the poll's token.
     * @param nowNs           protocol time.
     */
    public void onReformAck(final int fromRank, final int fromIncarnation, final long token, final long nowNs)
    {
        if (state != NodeState.JOINING || !ring.isRank(fromRank) || fromIncarnation <= 0)
        {
            return;
        }
        if (reform.onAck(fromRank, token, nowNs, control) == Reform.REFORM)
        {
            reformCluster(nowNs);
        }
    }

    /**
     * Every other rank is joining and bound to this leader: take part as the lone seed of a new membership, every
     * other rank held dead as not yet admitted (at the incarnation this node knows), and admit them as they ask.
     */
    private void reformCluster(final long nowNs)
    {
        reform.reformed();
        // as a boot with this node (rank 0) the one seed
        membership.seeds(1, clusterSize);
        membership.reformed();
        membership.holdNotYetAdmitted(dead, clusterSize);
        state = NodeState.ACTIVE;
        observation.alone();
        quorum.adopt(dead);
        listener.onJoin(rank, incarnation, nowNs);
        viewChanged(nowNs);
    }

    private int checkEmitter(final long nowNs, final boolean late)
    {
        switch (observation.watchEmitter(nowNs, late))
        {
            case Observation.HEARD ->
            {
                membership.emitterHeard();
                probes.cancel();
                heal.onEmitterBeat(nowNs, observation.silenceNs(), observation.beats(), observation.stalled(),
                    observation.emitter(), state == NodeState.ACTIVE && policy == PartitionPolicy.MAJORITY);
                return 1;
            }
            case Observation.LATE ->
            {
                // our own stall also stalled the probes' clock: start over once the slot has been seen afresh
                probes.cancel();
                return 1;
            }
            case Observation.EXPIRED ->
            {
                suspect(nowNs);
                return 1;
            }
            default ->
            {
                return 0;
            }
        }
    }

    /**
     * T3: the emitter was silent for δ. The paper declares it at once; the majority rule first checks this node can
     * still hear ({@link ProbeSession}).
     */
    private void suspect(final long nowNs)
    {
        if (policy == PartitionPolicy.NONE)
        {
            declareRun(nowNs, ring.distance(observation.emitter()) + 1, 1);
        }
        else if (probeTimeoutNs == 0)
        {
            probes.resolveEmitterAlone(nowNs);
        }
        else
        {
            probes.step(nowNs);
        }
    }

    /**
     * The ear check found a run to declare: as {@link #declareRun(long, int, int)}, and if some witness did not
     * answer (a cut may swallow parts of the broadcast) retell the view once it has settled.
     */
    void declareRun(final long nowNs, final int endDistance, final int runLength, final boolean retell)
    {
        heal.retellWhenSettled(retell ? observation.emitter() : -1);
        declareRun(nowNs, endDistance, runLength);
    }

    /**
     * Declare the run of live-in-view predecessors closer than {@code endDistance} (the emitter first) dead in one
     * notice, and mend the ring around it.
     */
    private void declareRun(final long nowNs, final int endDistance, final int runLength)
    {
        counters.increment(ProtocolCounter.SUSPICIONS);
        final int deadRank = observation.emitter();
        runDeclared.clear();
        if (runLength <= SMALL_RUN)
        {
            for (int r = observation.emitter(), i = 0; i < runLength; r = ring.previousAlive(r), i++)
            {
                learnDead(r, nowNs, FailureCause.DETECTED, rank);
                runDeclared.add(r);
            }
        }
        else
        {
            // ascending, so each insert is an append
            for (int r = 0; r < clusterSize; r++)
            {
                if (r != rank && !dead.contains(r) && ring.distance(r) < endDistance)
                {
                    learnDead(r, nowNs, FailureCause.DETECTED, rank);
                    runDeclared.add(r);
                }
            }
        }
        viewChanged(nowNs);
        adjustNeighboursAfterLearning(nowNs);
        final Notice failure = notices.originateFailure(deadRank);
        heal.recordDeath(deadRank, nowNs);
        // Fence the suspect: lost if it crashed, but if it was only paused it reads this first on resuming and
        // excludes itself, instead of coming back as a zombie that suspects its own (re-routed) emitter. It
        // counts as this zombie's fence, so a lost one is re-sent only when the zombie is heard from again.
        admission.toldSuspect(deadRank, nowNs);
        control.sendNotice(deadRank, failure);
        // D_msg carries no incarnations, so receivers merge from it only ranks at the boot incarnation: a rank of the
        // run that joined (at boot through start = join, or rejoined) needs a notice naming its incarnation
        for (int i = 0, size = runDeclared.size(); i < size; i++)
        {
            final int r = runDeclared.rankAt(i);
            if (r != deadRank && membership.incarnationOf(r) > 0)
            {
                notices.originateFailure(r);
            }
        }
    }

    /**
     * A PROBE: answer it, unless the prober is dead in this view (then it is fenced instead) or a stale life; a
     * joining node answers nobody (it takes no part yet). A frame that carries no incarnation passes
     * {@link InboundFrame#UNKNOWN_INCARNATION}.
     *
     * @param fromRank        the prober.
     * @param fromIncarnation its incarnation.
     * @param token           its token, returned as is.
     * @param nowNs           protocol time.
     */
    public void onProbe(final int fromRank, final int fromIncarnation, final long token, final long nowNs)
    {
        if (!admitQuietly(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        control.sendProbeAck(fromRank, token);
    }

    /**
     * A PROBE_ACK: {@code fromRank} is alive and this node can hear it.
     *
     * @param fromRank        the rank that answered.
     * @param fromIncarnation its incarnation.
     * @param token           the token of the probe it answers.
     * @param nowNs           protocol time.
     */
    public void onProbeAck(final int fromRank, final int fromIncarnation, final long token, final long nowNs)
    {
        if (!admitQuietly(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        if (majorityRule.refutedBy(token))
        {
            // someone the notice held dead answered: its sender's side is not ours
            counters.increment(ProtocolCounter.NOTICES_REFUSED);
            return;
        }
        probes.onAck(fromRank, token, nowNs);
    }

    /**
     * A minority notice was refused without a check (it named nobody this node holds alive).
     */
    void noticeRefused()
    {
        counters.increment(ProtocolCounter.NOTICES_REFUSED);
    }

    /**
     * The ear check found this node on a minority side: stop, telling the side first.
     */
    void stopAsMinority(final long nowNs, final int endDistance, final int deadRank)
    {
        majorityRule.stopAsMinority(nowNs, endDistance, deadRank);
    }

    /**
     * Broadcast a minority notice: sequences from {@link NoticeSequences#MINORITY_BASE} up, so no receiver merges it.
     */
    void announceMinority(final int deadRank, final RankSet minorityDead)
    {
        notices.originateMinority(deadRank, minorityDead);
    }

    private void viewChanged(final long nowNs)
    {
        listener.onViewChange(++viewEpoch, dead.size(), nowNs);
        quorum.viewChanged(nowNs);
    }

    /**
     * A HEARTBEAT frame arrived (transports that carry heartbeats as messages): it goes into this node's slot
     * unless its sender is dead in this view, in which case the sender is fenced.
     *
     * @param fromRank    sender.
     * @param incarnation sender's incarnation.
     * @param counter     its heartbeat counter.
     * @param timestampNs its clock when sent.
     * @param nowNs       protocol time.
     */
    public void onHeartbeat(
        final int fromRank, final int incarnation, final long counter, final long timestampNs, final long nowNs)
    {
        if (!admit(fromRank, incarnation, nowNs))
        {
            return;
        }
        if (!heartbeats.deposit(fromRank, incarnation, counter, timestampNs))
        {
            counters.increment(ProtocolCounter.HEARTBEAT_FRAMES_REFUSED);
        }
    }

    /**
     * T4: {@code fromRank} has become this node's observer; heartbeat at once so its 2δ grace is not spent waiting.
     * The frame's slot descriptor (RDMA; zeros otherwise) goes to the heartbeat channel
     * ({@link HeartbeatChannel#acceptObserver}) once the frame is admitted; a descriptor it refuses drops the frame
     * (counted) and the node keeps its observer. A stale sender is dropped. A joining node takes it too: only a node
     * that knows of its join sends it, and it is what lets the joiner start beating.
     *
     * @param fromRank        sender of NEW_OBSERVER.
     * @param fromIncarnation sender's incarnation.
     * @param emitterRank     the rank the frame is addressed to as the new emitter; anything but this node is dropped.
     * @param rkey            the frame's slot remote key (RDMA), 0 if none.
     * @param address         the frame's slot address (RDMA), 0 if none.
     * @param length          the frame's slot length (RDMA), 0 if none.
     * @param nowNs           protocol time.
     */
    public void onNewObserver(
        final int fromRank,
        final int fromIncarnation,
        final int emitterRank,
        final int rkey,
        final long address,
        final int length,
        final long nowNs)
    {
        if (emitterRank != rank)
        {
            counters.increment(ProtocolCounter.MISADDRESSED);
            return;
        }
        if (state == NodeState.JOINING)
        {
            if (!ring.isRank(fromRank) || fromRank == rank || membership.isStale(fromRank, fromIncarnation))
            {
                return;
            }
            final int observer = observation.observer();
            if (observer != rank &&
                Math.floorMod(fromRank - rank, clusterSize) > Math.floorMod(observer - rank, clusterSize))
            {
                // a nearer successor adopted this node already: the farther one has not learned of the joins between
                // (as skipsJoiner, for a node that does not know its view yet) and takes a nearer emitter once it has
                counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
                return;
            }
            if (observation.observer() == rank)
            {
                observation.beatsDueFrom(nowNs);
            }
            // taken on trust, so that the joiner beats from now on, and checked against the view once it comes
            takeObserver(fromRank, rkey, address, length, nowNs);
            observerOffer.hold(fromRank, fromIncarnation, rkey, address, length);
            return;
        }
        else if (!admit(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        else if (skipsJoiner(fromRank))
        {
            return;
        }
        else if (fromRank != ring.successor())
        {
            if (!observerOffer.isFrom(fromRank))
            {
                // its view holds the ranks between dead: ask for it, in case their notices were lost on the way here
                // (ViewRepair answers a differing digest with the view). A replayed offer's sender differs on nothing.
                viewRepair.askForView(fromRank, dead, membership.incarnations(), control);
            }
            observerOffer.hold(fromRank, fromIncarnation, rkey, address, length);
            counters.increment(ProtocolCounter.NEW_OBSERVER_DEFERRED);
            return;
        }
        takeObserver(fromRank, rkey, address, length, nowNs);
    }

    private void takeObserver(final int observer, final int rkey, final long address, final int length, final long nowNs)
    {
        if (observerOffer.isFrom(observer))
        {
            observerOffer.clear();
        }
        if (!heartbeats.acceptObserver(observer, rkey, address, length, nowNs))
        {
            counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
            return;
        }
        observation.observedBy(observer, nowNs);
    }

    /**
     * The view changed: an {@link ObserverOffer} held from a farther successor is taken once the deaths between have
     * made it the nearest live one, and dropped once its sender's life is dead or replaced in the view.
     */
    private void takeHeldObserverOffer(final long nowNs)
    {
        final int offered = observerOffer.rank();
        if (offered < 0)
        {
            return;
        }
        if (dead.contains(offered) || membership.isStale(offered, observerOffer.incarnation()))
        {
            observerOffer.clear();
        }
        else if (observerOffer.isFrom(ring.successor()))
        {
            takeObserver(offered, observerOffer.rkey(), observerOffer.address(), observerOffer.length(), nowNs);
        }
    }

    /**
     * T5: a notice arrived: merge D_msg and, on first receipt of this broadcast id, forward it along the schedule
     * computed from D_msg ({@link NoticeReceipt} judges it first). A JOIN broadcast
     * ({@link Notice#isJoin()}) travels the same way and admits its rank instead; it merges no D_msg, so the
     * majority rule's check of D_msg does not apply to it.
     *
     * @param notice          the notice, valid during the call.
     * @param fromRank        the rank that sent this copy.
     * @param fromIncarnation its incarnation.
     * @param nowNs           protocol time.
     */
    public void onNotice(final Notice notice, final int fromRank, final int fromIncarnation, final long nowNs)
    {
        if (state == NodeState.JOINING)
        {
            joining.learn(notice, fromRank);
            return;
        }
        switch (receipt.judge(notice, fromRank, fromIncarnation, nowNs, state == NodeState.ACTIVE))
        {
            case NoticeReceipt.EXCLUDE_FENCED -> exclude(nowNs, ExclusionCause.FENCED, notice.sourceRank());
            case NoticeReceipt.EXCLUDE_NOTICE -> exclude(nowNs, ExclusionCause.NOTICE, notice.sourceRank());
            case NoticeReceipt.HEAL_FOR_EMITTER -> heal.onHeal(nowNs);
            case NoticeReceipt.CHECK_MINORITY ->
            {
                notices.forward(notice, fromRank);
                majorityRule.verifyMinority(notice.deadSet(), notice.sourceRank(), nowNs);
            }
            case NoticeReceipt.APPLY -> apply(notice, fromRank, nowNs);
            default ->
            {
            }
        }
    }

    /**
     * T5 proper: merge a first copy (a death and its D_msg, or a JOIN), forward it along the schedule, hand it to
     * rejoined neighbours the schedule skips, and retell on a heal.
     */
    private void apply(final Notice notice, final int fromRank, final long nowNs)
    {
        final boolean changed = notice.isJoin() ? applyJoin(notice, nowNs) : applyFailure(notice, nowNs);
        notices.forward(notice, fromRank);
        notices.catchUp(notice, fromRank, observation.emitter(), observation.observer());
        if (NoticeKind.of(notice) == NoticeKind.HEAL)
        {
            heal.onHeal(nowNs);
        }
        if (changed)
        {
            afterLearning(nowNs);
        }
    }

    /**
     * The view changed by what others told (a notice, a neighbour's view): under {@code majority} stop if it leaves
     * this side no majority (scattered groups learn it piece by piece), else mend the ring around the change.
     */
    private void afterLearning(final long nowNs)
    {
        viewChanged(nowNs);
        if (policy == PartitionPolicy.MAJORITY && !majorityRule.viewHoldsMajority())
        {
            majorityRule.stopAsMinority(nowNs, 0, dead.rankAt(0));
            return;
        }
        adjustNeighboursAfterLearning(nowNs);
    }

    /**
     * A NEW_OBSERVER from a farther successor than a rank this node knows rejoined comes from a node that has not
     * heard of the JOIN yet: taking it as observer would leave the joiner unwatched and unfed. The sender learns the
     * JOIN within a broadcast and takes the joiner as its emitter instead.
     */
    private boolean skipsJoiner(final int fromRank)
    {
        final int nearer = ring.successor();
        if (nearer != fromRank && nearer != rank && membership.incarnationOf(nearer) > 0)
        {
            counters.increment(ProtocolCounter.NEW_OBSERVER_REFUSED);
            return true;
        }
        return false;
    }

    private boolean applyFailure(final Notice notice, final long nowNs)
    {
        boolean changed = false;
        final int subject = notice.deadRank();
        final int subjectIncarnation = notice.subjectIncarnation();
        if (ring.isRank(subject))
        {
            if (subjectIncarnation < membership.incarnationOf(subject))
            {
                // the death of a life this view has already seen replaced by a newer one
                counters.increment(ProtocolCounter.STALE_FRAMES);
            }
            else
            {
                membership.incarnations().raise(subject, subjectIncarnation);
                changed = learnDead(subject, nowNs, FailureCause.NOTICE, notice.sourceRank());
            }
        }

        // Every member of D_msg was detected dead by someone, so merging it is safe and converges faster; but D_msg
        // carries no incarnations, so only ranks still at their boot incarnation here are merged (a rank that
        // rejoined may be listed by a broadcast that started before its JOIN). Its own broadcast covers the rest.
        final RankSet deadInMsg = notice.deadSet();
        for (int i = 0, size = deadInMsg.size(); i < size; i++)
        {
            final int r = deadInMsg.rankAt(i);
            if (r != subject && ring.isRank(r) && membership.incarnationOf(r) == 0 &&
                learnDead(r, nowNs, FailureCause.NOTICE, notice.sourceRank()))
            {
                changed = true;
            }
        }
        return changed;
    }

    private boolean applyJoin(final Notice notice, final long nowNs)
    {
        final int joiner = notice.deadRank();
        final int joinerIncarnation = notice.subjectIncarnation();
        if (!ring.isRank(joiner) || !membership.incarnations().raise(joiner, joinerIncarnation))
        {
            // a JOIN repeated by a contact, or one of an incarnation that has since died again
            if (ring.isRank(joiner) && observation.emitter() == joiner &&
                joinerIncarnation == membership.incarnationOf(joiner))
            {
                // the joiner is still unconfirmed: it may have refused this node's NEW_OBSERVER while it still held
                // a nearer successor alive (one that died before adopting it); say it again
                control.sendNewObserver(joiner);
            }
            return false;
        }
        admitJoiner(joiner, joinerIncarnation, nowNs, notice.sourceRank());
        return true;
    }

    private void admitJoiner(final int joiner, final int joinerIncarnation, final long nowNs, final int contact)
    {
        dead.remove(joiner);
        counters.increment(ProtocolCounter.JOINS_LEARNED);
        heal.recordJoin(joiner, joinerIncarnation, nowNs, contact);
        if (probes.active())
        {
            // A run of silent predecessors being probed may hold the joiner's old life (silent, but never asked again
            // since the JOIN) or now skip its new one: its evidence is void. Probe afresh; a new emitter (the
            // joiner) gets its 2δ below instead.
            probes.cancel();
            observation.suspicionDeadline(nowNs);
        }
        listener.onJoin(joiner, joinerIncarnation, nowNs);
        mendRingForJoin(joiner, nowNs);
    }

    /**
     * The joiner's successor takes it as emitter (NEW_OBSERVER, and 2δ before it may suspect it, as for any new
     * emitter); its predecessor takes it as observer and beats at once.
     */
    private void mendRingForJoin(final int joiner, final long nowNs)
    {
        if (ring.predecessor() == joiner)
        {
            observation.newEmitter(joiner, nowNs);
            control.sendNewObserver(joiner);
        }
        if (ring.successor() == joiner)
        {
            // the joiner knows this node alive: its contact's view said so, or it would not be joining after it
            observation.observedBy(joiner, nowNs);
        }
    }

    /**
     * A JOIN_REQUEST from {@code fromRank} under {@code fromIncarnation}: the contact's side of a join. A frame from a
     * rank held dead is normally fenced; this one is not when its incarnation is newer. An incarnation newer than the
     * one held alive means that life ended unnoticed: it is announced dead first. A repeated request (the joiner has
     * not been confirmed) gets the view again and a fresh JOIN broadcast.
     *
     * @param fromRank        the joiner.
     * @param fromIncarnation its new incarnation.
     * @param nowNs           protocol time.
     */
    public void onJoinRequest(final int fromRank, final int fromIncarnation, final long nowNs)
    {
        // A joiner not yet confirmed by its neighbours may be unknown to parts of the cluster still, which would drop
        // its frames (a newer incarnation they have not admitted): it is no contact; the joiner asks the next one.
        if (state != NodeState.ACTIVE || !ring.isRank(fromRank) || fromRank == rank || !membership.confirmed())
        {
            return;
        }
        final int known = membership.incarnationOf(fromRank);
        if (fromIncarnation <= 0 || fromIncarnation < known || (fromIncarnation == known && dead.contains(fromRank)))
        {
            counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (!joinAllowed(nowNs))
        {
            counters.increment(ProtocolCounter.JOINS_REFUSED);
            return;
        }

        if (fromIncarnation > known)
        {
            if (!dead.contains(fromRank))
            {
                // the new life takes the old one's place on the ring at once, so the ring is not mended around it
                learnDead(fromRank, nowNs, FailureCause.DETECTED, rank);
                viewChanged(nowNs);
                notices.originateFailure(fromRank);
            }
            membership.incarnations().raise(fromRank, fromIncarnation);
            counters.increment(ProtocolCounter.JOINS_ADMITTED);
        }

        // D_msg holds the joiner: it takes no part in its own JOIN broadcast, and the view tells it whom to watch
        final boolean wasDead = dead.contains(fromRank);
        control.sendView(fromRank, notices.deadPlus(fromRank), membership.incarnations());
        notices.originateJoin(fromRank, fromIncarnation);
        membership.admitted(fromRank);
        if (wasDead)
        {
            admitJoiner(fromRank, fromIncarnation, nowNs, rank);
            viewChanged(nowNs);
        }
        else
        {
            heal.recordJoin(fromRank, fromIncarnation, nowNs, rank);
        }
    }

    /**
     * Under the {@code majority} policy only a node that counts a majority of M alive admits anyone: a contact on the
     * minority side of a partition (its view leaves no majority, it is checking a minority notice, or it is probing a
     * silent run without having heard a majority yet) would let the joiner in on a side that is about to stop. The
     * joiner asks the next contact. The paper's rule admits everyone.
     */
    private boolean joinAllowed(final long nowNs)
    {
        if (policy != PartitionPolicy.MAJORITY)
        {
            return true;
        }
        return majorityRule.admitsJoin(nowNs);
    }

    /**
     * VIEW: the state transfer a contact sends a joiner it admitted, or a neighbour's answer to this node's differing
     * view digest ({@link ViewRepair}). A joiner takes the contact's dead set and incarnations, watches its nearest
     * live predecessor, reports itself up and takes part, provided the view admits this very incarnation; an active
     * node merges the view (see {@code repairView}); any other node ignores it.
     *
     * @param fromRank        the contact, or the neighbour.
     * @param fromIncarnation its incarnation.
     * @param viewDead        its D, possibly still listing a joiner; valid during the call.
     * @param incarnations    its incarnations; valid during the call.
     * @param nowNs           protocol time.
     */
    public void onView(
        final int fromRank,
        final int fromIncarnation,
        final RankSet viewDead,
        final RankIncarnations incarnations,
        final long nowNs)
    {
        if (state == NodeState.ACTIVE)
        {
            repairView(fromRank, fromIncarnation, viewDead, incarnations, nowNs);
            return;
        }
        if (state != NodeState.JOINING || !ring.isRank(fromRank) || incarnations.incarnationOf(rank) != incarnation)
        {
            counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (reform.refusesViewFrom(fromRank, nowNs))
        {
            return;
        }
        reform.stop();
        joining.mergeView(viewDead, incarnations);
        state = NodeState.ACTIVE;
        observation.newEmitter(ring.predecessor(), nowNs);
        if (observation.observer() == rank)
        {
            observation.neighbours(observation.emitter(), ring.successor());
        }
        else if (observation.observer() != ring.successor())
        {
            // the observer taken while joining is not the view's nearest live successor (a replayed NEW_OBSERVER, or
            // one whose sender held dead a rank this view holds alive): beat the view's one, hold the other's offer
            counters.increment(ProtocolCounter.NEW_OBSERVER_DEFERRED);
            observation.neighbours(observation.emitter(), ring.successor());
            membership.observerWithdrawn();
        }
        if (!observerOffer.isFrom(observation.observer()))
        {
            takeHeldObserverOffer(nowNs);
        }
        else
        {
            observerOffer.clear();
        }
        membership.viewReceived(nowNs);
        if (observation.emitter() != rank)
        {
            // the predecessor adopts this node when the JOIN reaches it; this covers a predecessor that learned of
            // this node only from a view of its own (a joiner too); one not told yet fences the incarnation it holds
            // dead, which this one ignores
            control.sendNewObserver(observation.emitter());
        }
        // the contact counted a majority in this view when it admitted this node: it is M until the view settles
        quorum.adopt(dead);
        listener.onJoin(rank, incarnation, nowNs);
        viewChanged(nowNs);
    }

    /**
     * VIEW_DIGEST from a ring neighbour ({@link ViewRepair}): answer with this node's view if it hashes differently.
     *
     * @param fromRank        the neighbour.
     * @param fromIncarnation its incarnation.
     * @param digest          the digest of its view.
     * @param nowNs           protocol time.
     */
    public void onViewDigest(final int fromRank, final int fromIncarnation, final long digest, final long nowNs)
    {
        if (!admit(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        if (viewRepair.differs(digest, dead, membership.incarnations()))
        {
            control.sendView(fromRank, dead, membership.incarnations());
        }
    }

    /**
     * A live member's view, sent because this node's digest differed from its own: merge it as a joiner merges the
     * view it is admitted with, through the paths a JOIN or a notice takes (listener, ring, majority rule). Per rank,
     * a newer incarnation wins: alive in the view, the rank is admitted (its older life, if held alive here, ended
     * unnoticed); dead there, its newer life is dead. At equal incarnations a death wins. Under {@code majority} the
     * deaths are merged only if what they leave alive is a majority of M, as for a notice's D_msg: a minority's view
     * is never merged. This node's own entry is never taken from another's view.
     */
    private void repairView(
        final int fromRank,
        final int fromIncarnation,
        final RankSet viewDead,
        final RankIncarnations viewIncarnations,
        final long nowNs)
    {
        if (!admitQuietly(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        boolean changed = false;
        for (int i = 0, steps = viewRepair.planMerge(ring, dead, membership.incarnations(), quorum,
            policy == PartitionPolicy.MAJORITY, viewDead, viewIncarnations); i < steps; i++)
        {
            final int r = viewRepair.stepRank(i);
            final int newer = viewRepair.stepIncarnation(i);
            switch (viewRepair.stepKind(i))
            {
                case ViewRepair.DIES_NEWER ->
                {
                    membership.incarnations().raise(r, newer);
                    changed |= learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
                }
                case ViewRepair.REPLACED ->
                {
                    // the life held alive here ended unnoticed: the application sees it go before the new one comes
                    learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
                    membership.incarnations().raise(r, newer);
                    admitJoiner(r, newer, nowNs, fromRank);
                    changed = true;
                }
                default -> changed |= learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
            }
        }
        if (!changed)
        {
            return;
        }
        counters.increment(ProtocolCounter.VIEWS_REPAIRED);
        afterLearning(nowNs);
    }

    /**
     * A LEAVE from {@code fromRank}: announce its departure now instead of waiting for δ to expire.
     *
     * @param fromRank        the leaving node.
     * @param fromIncarnation its incarnation.
     * @param nowNs           protocol time.
     */
    public void onLeave(final int fromRank, final int fromIncarnation, final long nowNs)
    {
        if (!admit(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        learnDead(fromRank, nowNs, FailureCause.LEFT, fromRank);
        viewChanged(nowNs);
        adjustNeighboursAfterLearning(nowNs);
        notices.originateFailure(fromRank);
    }

    /**
     * Leave gracefully: tell the observer, then stop taking part.
     *
     * @param nowNs protocol time.
     */
    public void leave(final long nowNs)
    {
        if (state != NodeState.ACTIVE)
        {
            return;
        }
        if (observation.observer() != rank)
        {
            control.sendLeave(observation.observer());
        }
        exclude(nowNs, ExclusionCause.LEFT, rank);
    }

    /**
     * The driver found this node's own transport gone (live: the media driver stopped heartbeating). Every silence
     * from now on would be its own fault, so it stops taking part at once: no suspicion, no notice, no fence. The
     * others see it go silent and detect it as a crash.
     *
     * @param nowNs protocol time.
     */
    public void onTransportLost(final long nowNs)
    {
        stopOnOwnFault(nowNs, ExclusionCause.DRIVER_LOST);
    }

    /**
     * The heartbeat transport found a fault on this node's side (live: its RDMA port went down). As for a lost driver,
     * the silence that follows is this node's own: it stops at once, with its own cause, and blames nobody.
     *
     * @param nowNs protocol time.
     */
    public void onLocalTransportFault(final long nowNs)
    {
        stopOnOwnFault(nowNs, ExclusionCause.TRANSPORT_FAULT);
    }

    private void stopOnOwnFault(final long nowNs, final ExclusionCause cause)
    {
        if (state == NodeState.ACTIVE)
        {
            exclude(nowNs, cause, rank);
        }
    }

    void exclude(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
        state = cause == ExclusionCause.LEFT ? NodeState.LEFT : NodeState.EXCLUDED;
        listener.onExcluded(nowNs, cause, reporterRank);
    }

    /**
     * Whether a frame from {@code fromRank} may act on this node: only while this node takes part, and as
     * {@link Admission#admit} has it.
     */
    private boolean admit(final int fromRank, final int fromIncarnation, final long nowNs)
    {
        return state == NodeState.ACTIVE && admission.admit(fromRank, fromIncarnation, nowNs);
    }

    /**
     * {@link #admit} for frames a node sends to many ranks at once, see {@link Admission#admitQuietly}.
     */
    private boolean admitQuietly(final int fromRank, final int fromIncarnation, final long nowNs)
    {
        return state == NodeState.ACTIVE && admission.admitQuietly(fromRank, fromIncarnation, nowNs);
    }

    private boolean learnDead(final int deadRank, final long nowNs, final FailureCause cause, final int reporter)
    {
        if (deadRank == rank || !dead.add(deadRank))
        {
            return false;
        }
        membership.deathLearned(nowNs, 4 * suspicionTimeoutNs);
        listener.onFailure(deadRank, nowNs, cause, reporter);
        return true;
    }

    private void adjustNeighboursAfterLearning(final long nowNs)
    {
        if (dead.contains(observation.emitter()))
        {
            mendRing(nowNs);
        }
        if (dead.contains(observation.observer()))
        {
            // Our observer is gone: the next live successor will adopt us; heartbeat it now so its grace is short.
            observation.observerLost(ring.findObserver(observation.observer()), nowNs);
        }
        takeHeldObserverOffer(nowNs);
    }

    private void mendRing(final long nowNs)
    {
        probes.cancel();
        observation.newEmitter(ring.findEmitter(observation.emitter()), nowNs);
        if (observation.emitter() != rank)
        {
            control.sendNewObserver(observation.emitter());
        }
    }

    /**
     * @return the earliest time at which {@link #doWork(long)} has something to do, absent new messages or
     * heartbeat deliveries; {@link Long#MAX_VALUE} once the node has stopped.
     */
    public long nextDeadlineNs()
    {
        if (state != NodeState.ACTIVE && state != NodeState.JOINING)
        {
            return Long.MAX_VALUE;
        }
        final long heartbeatNs = observation.nextHeartbeatNs();
        final long suspicionNs = observation.suspicionDeadlineNs();
        long nextNs = heartbeatNs - suspicionNs < 0 ? heartbeatNs : suspicionNs;
        final long joinNs = membership.nextAttemptNs();
        nextNs = joinNs - nextNs < 0 ? joinNs : nextNs;
        final long pollNs = reform.nextPollNs();
        nextNs = pollNs - nextNs < 0 ? pollNs : nextNs;
        if (majorityRule.verifying())
        {
            final long verifyNs = majorityRule.verifyDeadlineNs();
            nextNs = verifyNs - nextNs < 0 ? verifyNs : nextNs;
        }
        final long retellNs = heal.deadlineNs();
        if (retellNs != Long.MAX_VALUE)
        {
            nextNs = retellNs - nextNs < 0 ? retellNs : nextNs;
        }
        return nextNs;
    }

    /**
     * @return what this node has counted so far; live, read on the node's thread.
     */
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

    /**
     * @return protocol time at which the startup grace ends and suspicion is armed.
     */
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

    /**
     * @return this node's dead set, live view.
     */
    public RankSet deadSet()
    {
        return dead;
    }

    /**
     * @param r a rank.
     * @return the incarnation this node's view holds for it: 0 (boot) unless it rejoined.
     */
    public int incarnationOf(final int r)
    {
        return membership.incarnationOf(r);
    }

    /**
     * @return the incarnations of the ranks that rejoined, this node's own included if it did; live view.
     */
    public RankIncarnations incarnations()
    {
        return membership.incarnations();
    }

    /**
     * @return true once a joined node has been adopted by both its neighbours; always true for a boot member.
     */
    public boolean joinConfirmed()
    {
        return membership.confirmed();
    }

    /**
     * @return this node's rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @return this node's incarnation.
     */
    public int incarnation()
    {
        return incarnation;
    }

    /**
     * @return where this node stands.
     */
    public NodeState state()
    {
        return state;
    }

    /**
     * @return the rank this node watches; its own rank when it is the last one alive.
     */
    public int emitter()
    {
        return observation.emitter();
    }

    /**
     * @return the rank watching this node; its own rank when it is the last one alive.
     */
    public int observer()
    {
        return observation.observer();
    }

    /**
     * @return view epoch, incremented once per change of the dead set.
     */
    public long viewEpoch()
    {
        return viewEpoch;
    }

    /**
     * @return the partition policy this node runs.
     */
    public PartitionPolicy partitionPolicy()
    {
        return policy;
    }
}
