package io.ringwatch.transport.aeron.internal;

import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HelloFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ReplayGuard;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.protocol.RunIds;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.internal.ViewFile;
import io.ringwatch.transport.aeron.internal.slot.HeartbeatTransport;
import io.ringwatch.transport.aeron.internal.slot.RemoteHeartbeatChannel;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;

import java.security.SecureRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The duty cycle of one live node, wrapping the core's {@link DetectorNode}:
 * <ol>
 *     <li>read the clock once; if the media driver is lost ({@link DriverWatch}), stop the node there through
 *     {@link DetectorNode#onTransportLost(long)}, before it could blame anyone for the silence;</li>
 *     <li>poll the {@link HeartbeatTransport} (RDMA: connections, completions, the local port); if it reports its
 *     local port down, stop the node there, before the protocol could suspect a healthy emitter it no longer hears;</li>
 *     <li>retry queued control frames;</li>
 *     <li>poll the control/notice subscription and (UDP) the heartbeat subscription, a fragment limit each, every
 *     frame decoded by {@link FrameDecoder} (control frames reassembled first: a large notice spans several MTUs);
 *     rejects are counted per reason and dropped; an accepted frame is handed to the {@link DetectorNode} entry
 *     point of its type, which decides what it means;</li>
 *     <li>{@link DetectorNode#doWork(long)}: heartbeat when due, read the slot, suspect on expiry;</li>
 *     <li>publish the view file and counters.</li>
 * </ol>
 * The agent takes no protocol decision: who may be heard, who is fenced and how often, what a frame changes are all
 * the core's, so the simulator runs exactly the rules that run live.
 * <p>
 * Steady state allocates nothing. Runs under an {@code AgentRunner}, an {@code AgentInvoker}, or with other nodes
 * in a {@code CompositeAgent}.
 */
public final class RingwatchAgent implements Agent, MembershipListener
{
    private static final int MAX_REASSEMBLY_SLOTS = 256;

    private final int rank;
    private final int fragmentLimit;
    private final NanoClock clock;
    private final CachedNanoClock cachedClock;
    private final FramePoller controlSubscription;
    private final FramePoller heartbeatSubscription;
    private final AeronControlChannel control;
    private final ViewFile viewFile;
    private final NodeCounters counters;
    private final GuardedListener application;
    private final FrameDecoder decoder;
    private final ReplayGuard replayGuard;
    private final BootPlan bootPlan;
    private final int seeds;
    private final FrameAuthenticator keyring;
    private final FragmentHandler frameHandler = (buffer, offset, length, header) ->
        onFrame(buffer, offset, length, header, false);
    // the heartbeat port carries heartbeats only: anything else is refused by its type and length, before its MAC
    private final FragmentHandler heartbeatHandler = (buffer, offset, length, header) ->
        onFrame(buffer, offset, length, header, true);
    // a notice longer than the MTU arrives in fragments, reassembled in bounded memory before any MAC is checked
    private final ControlAssembler controlHandler;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final String roleName;
    private final boolean[] mismatchReported;
    private final String configDescription;
    private final DetectorNode node;
    private final RemoteHeartbeatChannel remoteHeartbeats;
    private final HeartbeatTransport heartbeatTransport;
    private final Runnable onStart;
    private HelloExchange hello;
    private final AgentInvoker clientConductor;
    private Runnable onArmed;
    private final long armingLeadNs;
    private DriverWatch driverWatch;
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private volatile String driverLost;
    private volatile ProcessLevelHook processLevel;
    private volatile Thread agentThread;
    private volatile Thread stopWaiter;
    private volatile FrameAuthenticator pendingKeyring;
    private volatile boolean leaveRequested;
    private volatile boolean haltRequested;
    private volatile boolean halted;
    private volatile String localFault;
    private long nowNs;
    private long lastProgress = -1;
    private boolean graceOver;
    private boolean member;

    /**
     * @param ctx                   concluded configuration.
     * @param protocol              makes the node's {@link DetectorNode} around this agent, its listener.
     * @param cachedClock           the clock the heartbeat channel reads; updated once per duty cycle.
     * @param clientConductor       the Aeron client's conductor, run inside this duty cycle rather than on a thread
     *                              of its own: the client takes one lock for its conductor's work and for every API
     *                              call, and an ordinary-priority conductor thread preempted while holding it stalled
     *                              a real-time agent creating a publication on demand for tens of ms.
     * @param controlSubscription   control and notice frames to this node.
     * @param heartbeatSubscription UDP heartbeat datagrams to this node, or null over IPC and RDMA.
     * @param control               control and notice frames from this node.
     * @param remoteHeartbeats      the UDP heartbeat channel, for its drop count, or null over IPC.
     * @param heartbeatTransport    the heartbeat transport's duty-cycle share ({@link HeartbeatTransport#NONE} for
     *                              IPC and UDP).
     * @param viewFile              the view published to other processes.
     * @param counters              the node's counters.
     * @param onStart               run on the agent thread as it starts, after the protocol's clocks; or null.
     * @param onArmed               run once on the agent thread {@link #armingLeadNs(long) shortly before} the
     *                              startup grace ends; or null.
     */
    public RingwatchAgent(
        final RingwatchContext ctx,
        final Function<MembershipListener, DetectorNode> protocol,
        final CachedNanoClock cachedClock,
        final AgentInvoker clientConductor,
        final FramePoller controlSubscription,
        final FramePoller heartbeatSubscription,
        final AeronControlChannel control,
        final RemoteHeartbeatChannel remoteHeartbeats,
        final HeartbeatTransport heartbeatTransport,
        final ViewFile viewFile,
        final NodeCounters counters,
        final Runnable onStart,
        final Runnable onArmed)
    {
        this.rank = ctx.rank();
        this.fragmentLimit = ctx.fragmentLimit();
        this.clock = ctx.nanoClock();
        this.cachedClock = cachedClock;
        this.clientConductor = clientConductor;
        this.controlSubscription = controlSubscription;
        this.controlHandler = new ControlAssembler(
            frameHandler, FrameDecoder.MAX_FRAME_LENGTH, reassemblySlots(ctx.cluster().size()));
        this.heartbeatSubscription = heartbeatSubscription;
        this.control = control;
        this.remoteHeartbeats = remoteHeartbeats;
        this.heartbeatTransport = heartbeatTransport;
        this.viewFile = viewFile;
        this.counters = counters;
        this.onStart = onStart;
        this.onArmed = onArmed;
        this.armingLeadNs = armingLeadNs(ctx.protocolSettings().startupGraceNs());
        this.application = new GuardedListener(ctx.listener(), ctx.rank(), System.err);
        this.keyring = ctx.frameAuthenticator();
        this.replayGuard = new ReplayGuard(ctx.cluster().size());
        this.decoder = new FrameDecoder(ctx.cluster().clusterId(), ctx.cluster().size(), ctx.rank(),
            ctx.configDigest(), keyring, replayGuard);
        this.bootPlan = ctx.bootPlan();
        this.seeds = ctx.seeds();
        if (bootPlan.joins())
        {
            replayGuard.admitNewestUntilSettled();
        }
        this.roleName = "ringwatch-" + ctx.cluster().clusterId() + "-" + rank;
        this.mismatchReported = new boolean[ctx.cluster().size()];
        this.configDescription = ConfigDigest.describe(ctx.cluster().clusterId(), ctx.cluster().size(),
            ctx.protocolSettings().heartbeatPeriodNs(), ctx.protocolSettings().suspicionTimeoutNs(), ctx.broadcast(),
            ctx.protocolSettings().partitionPolicy(), ctx.jobDigest(), ctx.seeds());
        if (ctx.protocolSettings().breaks(BrokenRules.BREAK_RUN_BINDING))
        {
            decoder.acceptAnyRun();
        }
        control.runDecoder(decoder);
        this.node = protocol.apply(this);
        // per process: a join proof recorded in an earlier run, or sent to an earlier life of this rank, matches none
        // of this process's nonces
        final SecureRandom random = new SecureRandom();
        node.joinNonceSecret(random.nextLong());
        // the run this process proposes if it boots the cluster or re-forms it; the protocol decides which it takes
        node.runCandidate(RunIds.candidate(System.currentTimeMillis(), random.nextInt()));
    }

    /**
     * How long before its grace ends the agent hands over its switch to real time: half the grace, at most 500 ms.
     * Released together, nodes end their graces within milliseconds of each other, and an observer judges its emitter
     * δ after its own grace; an emitter still in the ordinary class then, on a host saturated by JVMs warming up, was
     * silent for 20–80 ms at a time. The first half of the grace stays ordinary, so compilers get the cores while the
     * agents still run interpreted.
     *
     * @param startupGraceNs the node's startup grace.
     * @return the lead.
     */
    public static long armingLeadNs(final long startupGraceNs)
    {
        return Math.min(startupGraceNs / 2, TimeUnit.MILLISECONDS.toNanos(500));
    }

    /**
     * {@inheritDoc}
     */
    public void onStart()
    {
        agentThread = Thread.currentThread();
        // the node may have waited at a start barrier since it was built: its grace counts from now
        final long now = clock.nanoTime();
        cachedClock.update(now);
        if (bootPlan.joins())
        {
            // it asks to be admitted under its incarnation before it takes part
            viewFile.joining(node.incarnation());
        }
        bootPlan.start(node, seeds, now);
        if (onStart != null)
        {
            onStart.run();
        }
    }

    /**
     * {@inheritDoc}
     */
    public int doWork()
    {
        if (haltRequested)
        {
            stopOnDriverLoss(clock.nanoTime(), "the Aeron client lost its media driver");
        }
        if (localFault != null)
        {
            // fail-stop: a port that comes back does not bring back a node the cluster has been told is dead
            throw new AgentTerminationException("ringwatch node " + rank + " halted: " + localFault);
        }
        final long now = clock.nanoTime();
        nowNs = now;
        cachedClock.update(now);
        control.nowNs(now);
        if (driverWatch != null && driverWatch.isLost(epochClock.time()))
        {
            // before anything else this cycle: the silence that follows is this node's own, not its emitter's
            final long ageMs = driverWatch.heartbeatAgeMs(epochClock.time());
            stopOnDriverLoss(now, ageMs < 0 ? "the media driver closed" : driverWatch.processGone() ?
                "the media driver's process is gone (heartbeat " + ageMs + "ms old)" :
                "the media driver's heartbeat stood still for " + ageMs + "ms, more than " + driverWatch.timeoutMs() +
                "ms");
        }
        final FrameAuthenticator newKeys = pendingKeyring;
        if (newKeys != null)
        {
            // the node's one keyring: its decoder and its stamper sign and check with the new keys from here on
            pendingKeyring = null;
            keyring.rekey(newKeys);
        }

        int work = heartbeatTransport.poll(now);
        if (!heartbeatTransport.localPortActive())
        {
            haltOnLocalFault(now);
        }
        if (leaveRequested && node.state() == NodeState.ACTIVE)
        {
            node.leave(now);
            work++;
        }
        if (clientConductor != null)
        {
            work += clientConductor.invoke();
            if (haltRequested)
            {
                // the client gave up on its driver inside that call: touch none of its resources again
                stopOnDriverLoss(now, "the Aeron client lost its media driver");
            }
        }
        work += control.drain(now);
        work += controlSubscription.poll(controlHandler, fragmentLimit);
        if (hello != null)
        {
            // IPC hellos pass through Aeron on this thread only; over UDP nothing to do
            work += hello.pump();
        }
        if (heartbeatSubscription != null)
        {
            work += heartbeatSubscription.poll(heartbeatHandler, fragmentLimit);
        }
        work += node.doWork(now);
        final ProcessLevelHook processLevel = this.processLevel;
        if (processLevel != null)
        {
            work += processLevel.doWork(now);
        }
        if (onArmed != null && now - (node.armedAtNs() - armingLeadNs) >= 0)
        {
            final Runnable action = onArmed;
            onArmed = null;
            action.run();
        }

        viewFile.endUpdateIfOpen();
        final long progress = node.counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN);
        if (progress != lastProgress)
        {
            if (progress > 0 && lastProgress <= 0 && hello != null)
            {
                hello.clusterHeard();
            }
            lastProgress = progress;
            viewFile.heartbeatProgress(progress, now);
        }
        counters.publish(node, control.dropped(), control.retried(),
            remoteHeartbeats == null ? 0 : remoteHeartbeats.dropped());
        if (hello != null)
        {
            tellHello(now);
        }
        heartbeatTransport.publish(counters);
        counters.set(NodeCounter.LISTENER_EXCEPTIONS, application.exceptions());
        counters.set(NodeCounter.RUN_ID, control.run());
        counters.set(NodeCounter.REASSEMBLY_EVICTED, controlHandler.evicted());
        counters.set(NodeCounter.REASSEMBLY_TOO_LONG, controlHandler.tooLong());
        counters.onDutyCycle(clock.nanoTime() - now);
        return work;
    }

    private void tellHello(final long now)
    {
        hello.publish();
        final boolean armed = now - node.armedAtNs() >= 0;
        if (armed && !graceOver)
        {
            graceOver = true;
            hello.graceOver();
        }
        final boolean isMember = armed && node.state() == NodeState.ACTIVE;
        if (isMember != member)
        {
            member = isMember;
            hello.member(isMember);
        }
    }

    /**
     * @return the node's hello exchange (UDP and IPC), or null.
     */
    public HelloExchange helloExchange()
    {
        return hello;
    }

    /**
     * Free what reassembly held for an image that went away. Called on this thread: the node's Aeron client runs its
     * conductor through the agent ({@code useConductorAgentInvoker}).
     *
     * @param sessionId the image's session.
     */
    public void onUnavailableImage(final int sessionId)
    {
        controlHandler.onUnavailableImage(sessionId);
    }

    /**
     * @return the control stream's reassembly, for tests and counters.
     */
    public ControlAssembler reassembly()
    {
        return controlHandler;
    }

    /**
     * Messages may be in reassembly from every peer at once, twice over for peers restarting (old and new image);
     * capped, as eviction of the longest idle copes with more: at most {@value #MAX_REASSEMBLY_SLOTS} slots of
     * {@link FrameDecoder#MAX_FRAME_LENGTH} bytes, 3.2 MB.
     */
    static int reassemblySlots(final int clusterSize)
    {
        return (int)Math.min(MAX_REASSEMBLY_SLOTS, 2L * clusterSize + 8);
    }

    private void onFrame(
        final DirectBuffer buffer, final int offset, final int length, final Header header, final boolean heartbeatPort)
    {
        if (heartbeatPort && hello != null && HelloFlyweight.isHello(buffer, offset, length))
        {
            // from the emitter's address: the hello thread judges it
            hello.offer(buffer, offset);
            return;
        }
        final RejectReason reason = heartbeatPort ?
            decoder.decodeHeartbeat(buffer, offset, length) : decoder.decode(buffer, offset, length);
        if (reason != RejectReason.NONE)
        {
            counters.onRejected(reason);
            if (reason == RejectReason.CONFIG_MISMATCH)
            {
                reportConfigMismatch(decoder.mismatchedSenderRank(), decoder.mismatchedConfigDigest());
            }
            return;
        }

        if (decoder.type() == FrameHeaderFlyweight.PROCESS_FAILURE_TYPE)
        {
            // the daemon's, not the node's: its application processes (two levels)
            final ProcessLevelHook processLevel = this.processLevel;
            if (processLevel != null)
            {
                processLevel.onProcessNotice(decoder.processNotice(), decoder.senderRank(), nowNs);
            }
            return;
        }
        node.onFrame(decoder, nowNs);
    }

    /**
     * Hand hellos that arrive on the heartbeat socket (UDP) to {@code exchange}, and pump its IPC hellos; set once,
     * before the agent starts.
     *
     * @param exchange the node's hello exchange (UDP and IPC), or null.
     * @return this.
     */
    public RingwatchAgent hello(final HelloExchange exchange)
    {
        this.hello = exchange;
        return this;
    }

    /**
     * Watch the media driver's heartbeat every duty cycle; set once, before the agent starts.
     *
     * @param watch      the driver's heartbeat, or null to rely on the Aeron client's own (slower) timeout.
     * @param epochClock the clock the driver stamps its heartbeat with.
     * @return this.
     */
    public RingwatchAgent driverWatch(final DriverWatch watch, final EpochClock epochClock)
    {
        this.driverWatch = watch;
        this.epochClock = epochClock;
        return this;
    }

    /**
     * Without its driver the node can neither hear nor be heard: the core stops it at once (excluded, cause
     * DRIVER_LOST, in the view file), before it could suspect anyone, and the agent ends. Its observer detects it.
     */
    private void stopOnDriverLoss(final long nowNs, final String why)
    {
        node.onOwnTransportLost(ExclusionCause.DRIVER_LOST, nowNs);
        viewFile.endUpdateIfOpen();
        driverLost = why;
        halted = true;
        throw new AgentTerminationException("ringwatch node " + rank + " halted: " + why);
    }

    /**
     * @return why this node stopped on losing its media driver, or null.
     */
    public String driverLost()
    {
        return driverLost;
    }

    /**
     * A node that can no longer hear its emitter is the faulty one: the core stops it as on driver loss (excluded,
     * cause TRANSPORT_FAULT, in the view file), once, without running the protocol again. Its observer stops hearing
     * it and reports it; it reports nobody.
     */
    private void haltOnLocalFault(final long nowNs)
    {
        final String why = heartbeatTransport.describeLocalFault();
        node.onOwnTransportLost(ExclusionCause.TRANSPORT_FAULT, nowNs);
        viewFile.endUpdateIfOpen();
        heartbeatTransport.publish(counters);
        localFault = why;
        halted = true;
        throw new AgentTerminationException("ringwatch node " + rank + " halted: " + why);
    }

    /**
     * @return why this node stopped itself on a local transport fault (RDMA: "HCA port down: ..."), or null.
     */
    public String localFault()
    {
        return localFault;
    }

    /**
     * @return the heartbeat transport's duty-cycle share.
     */
    public HeartbeatTransport heartbeatTransport()
    {
        return heartbeatTransport;
    }

    /**
     * Say once per peer, in the log, that it runs another configuration: its frames are refused from now on and an
     * operator has to see why (the counter alone does not name the peer). Allocates, but only once per peer.
     */
    private void reportConfigMismatch(final int senderRank, final int theirDigest)
    {
        if (senderRank >= 0 && senderRank < mismatchReported.length && !mismatchReported[senderRank])
        {
            mismatchReported[senderRank] = true;
            System.err.printf("ringwatch rank %d: refusing frames from rank %d, whose configuration differs " +
                "(its config digest %08x; ours: %s): check that both run the same cluster file, " +
                "heartbeat period, suspicion timeout, broadcast, job (--procs-per-node/--job), seeds (--seeds) and version%n",
                rank, senderRank, theirDigest, configDescription);
        }
    }

    /**
     * Stop the duty cycle before the Aeron client releases the driver's files: the counters live in the driver's
     * CnC mapping, and touching them after the client unmaps it would crash the process. Called on the client's
     * conductor thread from its error handler, which runs before the client closes; waits for the agent to stop.
     *
     * @param timeoutMs how long to wait for the agent to acknowledge.
     * @return true if the agent has stopped touching the driver's memory.
     */
    public boolean halt(final long timeoutMs)
    {
        haltRequested = true;
        if (Thread.currentThread() == agentThread)
        {
            // the client conductor runs in this duty cycle: the error came from inside it, and the next cycle halts
            return true;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!halted && System.nanoTime() - deadline < 0)
        {
            Thread.onSpinWait();
        }
        return halted;
    }

    /**
     * @return the protocol's next deadline, for {@link DeadlineIdleStrategy}; agent thread only.
     */
    public long nextDeadlineNs()
    {
        // a requested leave or halt must not wait out a long sleep
        return leaveRequested || haltRequested ? nowNs : node.nextDeadlineNs();
    }

    /**
     * Hand a reloaded keyring to the agent thread, which takes it at the start of its next duty cycle.
     *
     * @param keys the new keys (primary first), loaded and checked on the calling thread.
     */
    public void rekey(final FrameAuthenticator keys)
    {
        pendingKeyring = keys;
    }

    /**
     * Ask the agent thread to leave gracefully on its next duty cycle.
     */
    public void requestLeave()
    {
        leaveRequested = true;
    }

    /**
     * Give this daemon a process level (two-level detection). Set before the agent starts, or from any thread later:
     * the duty cycle reads it once per cycle.
     *
     * @param processLevel the process level, or null for none.
     */
    public void processLevel(final ProcessLevelHook processLevel)
    {
        this.processLevel = processLevel;
    }

    /**
     * @return the protocol state machine (agent thread only, or after the agent stopped).
     */
    public DetectorNode node()
    {
        return node;
    }

    /**
     * @return latch released once the node is excluded or has left, or its agent has ended for any other reason.
     */
    public CountDownLatch stopped()
    {
        return stopped;
    }

    /**
     * Wait until the node is excluded or has left, without allocating: a timed {@link CountDownLatch#await} queues a
     * node object each time it waits, which a thread polling for the node's life turns into a steady trickle of
     * garbage. For one waiting thread at a time (a node process's main thread).
     *
     * @param timeoutNs the longest wait; it may end earlier, as any park may.
     * @return whether the node has stopped.
     * @throws InterruptedException if the thread was interrupted.
     */
    public boolean awaitStopped(final long timeoutNs) throws InterruptedException
    {
        // published before the count is read, as the agent counts down before it reads the waiter: one of the two
        // sees the other, so a stop never waits out the timeout
        stopWaiter = Thread.currentThread();
        if (stopped.getCount() > 0)
        {
            LockSupport.parkNanos(this, timeoutNs);
        }
        if (Thread.interrupted())
        {
            throw new InterruptedException();
        }
        return stopped.getCount() == 0;
    }

    /**
     * {@inheritDoc}
     */
    public void onClose()
    {
        // whatever ended the duty cycle, whoever waits for this node to stop must not wait for a dead agent
        stopped.countDown();
        LockSupport.unpark(stopWaiter);
    }

    /**
     * @return the node's counters.
     */
    public NodeCounters counters()
    {
        return counters;
    }

    /**
     * @return the control channel.
     */
    public AeronControlChannel control()
    {
        return control;
    }

    /**
     * {@inheritDoc}
     */
    public String roleName()
    {
        return roleName;
    }

    /**
     * {@inheritDoc}
     */
    public void onFailure(final int deadRank, final long atNs, final FailureCause cause, final int reporterRank)
    {
        viewFile.onFailure(deadRank, atNs, cause, reporterRank);
        final ProcessLevelHook processLevel = this.processLevel;
        if (processLevel != null)
        {
            processLevel.onNodeFailure(deadRank, atNs, reporterRank);
        }
        application.onFailure(deadRank, atNs, cause, reporterRank);
    }

    /**
     * {@inheritDoc}
     */
    public void onExcluded(final long atNs, final ExclusionCause cause, final int reporterRank)
    {
        viewFile.onExcluded(atNs, cause, reporterRank);
        application.onExcluded(atNs, cause, reporterRank);
        stopped.countDown();
        LockSupport.unpark(stopWaiter);
    }

    /**
     * {@inheritDoc}
     */
    public void onJoin(final int joinedRank, final long incarnation, final long atNs)
    {
        // the one place a newer incarnation is admitted: the protocol has accepted its JOIN
        if (joinedRank != rank)
        {
            replayGuard.admitIncarnation(joinedRank, incarnation);
        }
        else
        {
            // this node's view: the lives it names are the ones to hear from, whatever reached it first
            final RankIncarnations known = node.incarnations();
            for (int i = 0, size = known.size(); i < size; i++)
            {
                if (known.rankAt(i) != rank)
                {
                    replayGuard.admitIncarnation(known.rankAt(i), known.incarnationAt(i));
                }
            }
            replayGuard.settle();
        }
        viewFile.onJoin(joinedRank, incarnation, atNs);
        application.onJoin(joinedRank, incarnation, atNs);
    }

    /**
     * {@inheritDoc}
     */
    public void onViewChange(final long viewEpoch, final int deadCount, final long atNs)
    {
        // before the protocol moves its heartbeats to a new observer: RDMA re-fills its connections first
        heartbeatTransport.onViewChange(node.deadSet(), atNs);
        viewFile.recordIncarnations(node.incarnations());
        viewFile.onViewChange(viewEpoch, deadCount, atNs);
        application.onViewChange(viewEpoch, deadCount, atNs);
    }
}
