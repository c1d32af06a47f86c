package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.AeronCounters;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.ClientTimeoutException;
import io.aeron.exceptions.DriverTimeoutException;
import io.aeron.status.ChannelEndpointStatus;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.protocol.BootHearing;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.AeronControlChannel;
import io.ringwatch.transport.aeron.internal.ClassPreloader;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.ControlStreams;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.internal.DriverWatch;
import io.ringwatch.transport.aeron.internal.FramePoller;
import io.ringwatch.transport.aeron.internal.DatagramHelloWire;
import io.ringwatch.transport.aeron.internal.HelloExchange;
import io.ringwatch.transport.aeron.internal.HelloWire;
import io.ringwatch.transport.aeron.internal.IpcHelloWire;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.NodeCounters;
import io.ringwatch.transport.aeron.internal.RealtimeSwitch;
import io.ringwatch.transport.aeron.internal.PeerPublications;
import io.ringwatch.transport.aeron.internal.RingwatchAgent;
import io.ringwatch.transport.aeron.internal.MembershipJournal;
import io.ringwatch.transport.aeron.internal.ViewFile;
import io.ringwatch.transport.aeron.internal.jitter.JitterFile;
import io.ringwatch.transport.aeron.jitter.JitterLayout;
import io.ringwatch.transport.aeron.internal.jitter.JitterRecordingAgent;
import io.ringwatch.transport.aeron.internal.slot.HeartbeatSlots;
import io.ringwatch.transport.aeron.internal.slot.HeartbeatTransport;
import io.ringwatch.transport.aeron.internal.slot.DatagramHeartbeats;
import io.ringwatch.transport.aeron.internal.slot.RdmaHeartbeatTransport;
import io.ringwatch.transport.aeron.internal.slot.RemoteHeartbeatChannel;
import io.ringwatch.transport.aeron.internal.slot.SharedMemoryHeartbeatChannel;
import io.ringwatch.transport.aeron.view.JournalLayout;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.rdma.RdmaHeartbeats;
import io.ringwatch.transport.rdma.RdmaUnavailableException;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.lang.System.Logger.Level;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A live ringwatch node: media driver (embedded or external), Aeron client, heartbeat slots, view file, counters,
 * publications and subscriptions, and the {@link RingwatchAgent} that drives the core's {@link DetectorNode}.
 * <p>
 * {@link #launch(RingwatchContext)} concludes the context and builds all of that in one pass; then, after the
 * context's {@link StartGate} if it has one, it starts the agent as the context's {@link ThreadingMode} says: on a
 * thread of its own, under an {@link #invoker()} the caller drives, or not at all, for the caller to host
 * {@link #dutyCycleAgent()}.
 */
public final class RingwatchNode implements AutoCloseable
{
    /**
     * What a launcher does between building a node and starting its agent, on the launching thread: typically hold
     * it at a start barrier ({@link #holdUntil}) so that no node is judged while others are still coming up. The
     * agent's {@code onStart}, where the protocol's clocks and startup grace begin, comes after the gate returns.
     */
    @FunctionalInterface
    public interface StartGate
    {
        /**
         * @param node built and connected; its agent has not started.
         * @throws InterruptedException if interrupted while waiting: launch closes the node and fails.
         */
        void await(RingwatchNode node) throws InterruptedException;
    }

    private static final System.Logger LOG = System.getLogger("io.ringwatch.node");
    // how long a port bound with no receive-channel counter may take to come free: the driver's receiver closing a
    // dropped client's socket after its conductor freed the counter (milliseconds); another process holds it longer
    private static final long ENDPOINT_CLOSE_GRACE_NS = TimeUnit.SECONDS.toNanos(1);

    static
    {
        // the runtime's commands and tests reach the agent this way; the API does not expose it
        NodeInternals.register(node -> node.agent);
    }

    private final RingwatchContext ctx;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<PeerPublications> peerPublications = new ArrayList<>(2);
    private final Aeron aeron;
    private final RingwatchAgent agent;
    private final ControlStreams controlStreams;
    private final HelloExchange hello;
    private final Agent dutyCycleAgent;
    private AgentRunner runner;
    private AgentInvoker invoker;
    private volatile String pinResult;
    private volatile String pinned;
    private volatile Throwable driverLost;
    private ViewFile viewFile;

    private RingwatchNode(final RingwatchContext ctx)
    {
        this.ctx = ctx;
        final ClusterConfig cluster = ctx.cluster();
        final ClusterConfig.Member member = cluster.member(ctx.rank());
        final int rank = ctx.rank();
        final int n = cluster.size();
        final String dir = ctx.aeronDirectoryName();
        pinResult = ctx.cpu() < 0 && ctx.realtimePriority() <= 0 ?
            "not pinned (no cpu configured), ordinary scheduling" : null;
        // Order: classes and native code first, so the agent never loads them; the driver before its client; the
        // protocol's clock last. Whatever fails closes what was built before it.
        try
        {
            // taken by concludeForLaunch before any file of the rank was touched; released last
            own(ctx.rankLock());
            warmUp();
            if (ctx.embeddedDriver())
            {
                own(launchDriver(dir));
            }
            aeron = ctx.aeronClient() != null ? ctx.aeronClient() : own(connect(dir));
            final DriverWatch driverWatch = own(new DriverWatch(dir, ctx.driverTimeoutNs()));

            final TransportMode transport = ctx.transport();
            final boolean rdma = transport == TransportMode.RDMA;
            // the slot file is for IPC stores and UDP deposits; RDMA writes into a slot of its own
            final HeartbeatSlots slots = rdma ? null : own(HeartbeatSlots.mapOrCreate(
                HeartbeatSlots.fileFor(dir, cluster.clusterId()), cluster.clusterId(), n));
            if (slots != null)
            {
                slots.clear(rank);
            }
            viewFile = own(new ViewFile(ViewLayout.fileFor(dir, cluster.clusterId(), rank),
                cluster.clusterId(), n, rank, ctx.nanoClock().nanoTime()));
            final NodeCounters counters = own(new NodeCounters(aeron, cluster.clusterId(), rank, rdma));

            final boolean udp = transport == TransportMode.UDP;
            final ClusterChannels channels = new ClusterChannels(ctx);
            final PeerPublications controlPublications = new PeerPublications(
                aeron, channels.controlChannels(), channels.controlStreams());
            final FramePoller controlPoller;
            if (transport.controlOverUdp())
            {
                awaitControlPort(driverWatch, member.controlPort());
                controlStreams = own(subscribeUdpControl(channels, controlPublications));
                controlPoller = controlStreams::poll;
            }
            else
            {
                controlStreams = null;
                controlPoller = own(subscribe(channels.controlChannel(rank), channels.controlStream(rank)))::poll;
            }

            final BroadcastSchedule schedule = ctx.broadcast().newSchedule();
            if (ctx.authMode() == AuthMode.OFF)
            {
                LOG.log(Level.WARNING, "ringwatch node " + rank + ": " + AuthMode.OFF_WARNING);
            }
            // one stamper for heartbeats and control frames alike: one frame sequence per destination
            final FrameStamper stamper = new FrameStamper(n, ctx.frameAuthenticator());
            // before any publication: it resolves every member's host, and one that does not resolve fails the
            // start here, with its name, rather than as an Aeron error or a counter later
            final DatagramHeartbeats datagrams = udp ? own(new DatagramHeartbeats(cluster, rank, ctx.incarnation(),
                ctx.configDigest(), stamper, ctx.heartbeatReceiveBufferBytes())) : null;
            if (datagrams != null && datagrams.receiveBufferGranted() < datagrams.receiveBufferRequested())
            {
                LOG.log(Level.WARNING, "ringwatch node " + rank + ": heartbeat socket receive buffer " +
                    datagrams.receiveBufferGranted() + " bytes, asked for " + datagrams.receiveBufferRequested() +
                    ": a burst of foreign datagrams may push heartbeats out; raise net.core.rmem_max");
            }
            // hellos travel where the key does not matter: the heartbeat ports, or a stream per rank over IPC
            final HelloWire helloWire = udp ? new DatagramHelloWire(datagrams.foreignSocket(),
                datagrams.emitterSocket(), datagrams.peerAddresses()) :
                transport == TransportMode.IPC ? new IpcHelloWire(aeron, rank, n) : null;
            hello = helloWire == null ? null : own(new HelloExchange(new HelloExchange.Settings(cluster.clusterId(),
                rank, n, ctx.protocolSettings().heartbeatPeriodNs(), ctx.protocolSettings().suspicionTimeoutNs(),
                ctx.seeds(), ctx.jobDigest(), ctx.broadcast(), ctx.partitionPolicy()), keyFingerprints(), helloWire,
                !udp, counters));
            if (hello != null && ctx.listensFirst())
            {
                // a seed without a record of an earlier life here may be a restart that lost it (a wiped aeron.dir,
                // a new host): it asks before anything but the heartbeat port takes its incarnation
                if (hello.listen(ctx.bootPlan(), BootHearing.listenNs(ctx.protocolSettings().startupGraceNs()),
                    this::serviceClient).joins())
                {
                    ctx.joinAfterListening(hello.establishedBy());
                    if (datagrams != null)
                    {
                        datagrams.incarnation(ctx.incarnation());
                    }
                }
            }
            viewFile.journal(new MembershipJournal(JournalLayout.fileFor(dir, cluster.clusterId(), rank),
                cluster.clusterId(), n, rank, JournalLayout.DEFAULT_CAPACITY), ctx.incarnation(), ctx.join());
            final AeronControlChannel control = own(new AeronControlChannel(cluster.clusterId(), rank,
                ctx.incarnation(), n, ctx.configDigest(), stamper, controlPublications, ctx.sendQueueCapacity(),
                ctx.sendRetryTimeoutNs()));
            preCreate(controlPublications,
                ClusterChannels.controlPeersToPreCreate(schedule, rank, n, ctx.preCreateAllUpTo()));

            final CachedNanoClock cachedClock = new CachedNanoClock();
            final RdmaHeartbeats rdmaHeartbeats = rdma ? rdmaHeartbeats(cachedClock) : null;
            final HeartbeatTransport heartbeatTransport = rdma ?
                own(new RdmaHeartbeatTransport(rdmaHeartbeats)) : HeartbeatTransport.NONE;
            control.observerSlot(
                heartbeatTransport.slotRkey(), heartbeatTransport.slotAddress(), heartbeatTransport.slotLength());
            final RemoteHeartbeatChannel udpHeartbeats =
                udp ? new RemoteHeartbeatChannel(slots, rank, datagrams, cachedClock) : null;
            final HeartbeatChannel heartbeats = rdma ? rdmaHeartbeats : udp ? udpHeartbeats :
                new SharedMemoryHeartbeatChannel(slots, rank, ctx.incarnation(), cachedClock);

            final RealtimeSwitch realtime = realtimeSwitch();
            agent = new RingwatchAgent(ctx,
                listener ->
                {
                    // the protocol's clock starts when everything is in place, so set-up is not a missed heartbeat
                    final long startNs = ctx.nanoClock().nanoTime();
                    cachedClock.update(startNs);
                    final DetectorNode detector = new DetectorNode(rank, ctx.incarnation(), ctx.protocolSettings(),
                        schedule, heartbeats, control, listener, startNs);
                    if (datagrams != null)
                    {
                        // the heartbeat socket takes datagrams from the emitter the protocol watches, nobody else
                        datagrams.watch(detector::emitter);
                    }
                    return detector;
                },
                cachedClock, aeron.conductorAgentInvoker(), controlPoller, udp ? datagrams::poll : null, control,
                udpHeartbeats, heartbeatTransport, viewFile, counters, onAgentStart(realtime),
                realtime == null ? null : realtime::switchNow)
                .driverWatch(driverWatch, SystemEpochClock.INSTANCE)
                .hello(hello);
            if (hello != null)
            {
                hello.start();
            }
            // with a jitter file, the recorder wraps the agent and is what runs
            dutyCycleAgent = ctx.jitterFile() ? new JitterRecordingAgent(agent, own(new JitterFile(
                JitterLayout.fileFor(dir, cluster.clusterId(), rank), cluster.clusterId(), rank,
                ctx.protocolSettings().heartbeatPeriodNs())), ctx.nanoClock(),
                ctx.protocolSettings().heartbeatPeriodNs()) : agent;
        }
        catch (final RuntimeException ex)
        {
            closeAfterFailedStart();
            throw ex;
        }
    }

    /**
     * Conclude the context, build the node, pass it through the context's {@link StartGate} if any, and start its
     * agent as the context's {@link ThreadingMode} says.
     *
     * @param ctx configuration; concluded here, so not concluded before.
     * @return the node: running (DEDICATED), started and waiting for {@link #invoker()} (INVOKER), or built for the
     * caller to host {@link #dutyCycleAgent()} (UNSTARTED).
     * @throws IllegalArgumentException or IllegalStateException naming what is wrong; nothing is left open.
     */
    public static RingwatchNode launch(final RingwatchContext ctx)
    {
        final RingwatchNode node;
        try
        {
            node = new RingwatchNode(ctx.concludeForLaunch());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(ctx.rankLock());
            throw ex;
        }
        try
        {
            node.passStartGate();
            node.start();
        }
        catch (final RuntimeException ex)
        {
            node.closeAfterFailedStart();
            throw ex;
        }
        return node;
    }

    private void passStartGate()
    {
        final StartGate gate = ctx.startGate();
        if (gate == null)
        {
            return;
        }
        try
        {
            gate.await(this);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("node " + ctx.rank() + " interrupted at its start gate", ex);
        }
    }

    private void start()
    {
        switch (ctx.threadingMode())
        {
            case DEDICATED:
                runner = new AgentRunner(dedicatedIdleStrategy(), this::onAgentError, null, dutyCycleAgent);
                AgentRunner.startOnThread(runner);
                break;

            case INVOKER:
                invoker = new AgentInvoker(this::onAgentError, null, dutyCycleAgent);
                invoker.start();
                break;

            case UNSTARTED:
                // the caller hosts the agent
                break;
        }
    }

    private IdleStrategy dedicatedIdleStrategy()
    {
        final IdleStrategy idleStrategy = ctx.idleStrategy();
        if (idleStrategy instanceof DeadlineIdleStrategy deadlineIdle)
        {
            // the one idle strategy that sleeps to the protocol's next deadline, so it must be able to read it
            deadlineIdle.deadlines(agent::nextDeadlineNs);
        }
        return idleStrategy;
    }

    /**
     * Load classes and native code now, on the launching thread, rather than on the agent thread mid-cycle.
     */
    private void warmUp()
    {
        if (ctx.preloadClasses())
        {
            final List<Class<?>> anchors = new ArrayList<>(
                List.of(DetectorNode.class, RingwatchNode.class, Aeron.class, UnsafeBuffer.class));
            final List<String> prefixes = new ArrayList<>(
                List.of("io.ringwatch.core.", "io.ringwatch.transport.aeron.", "io.aeron.", "org.agrona."));
            if (ctx.transport() == TransportMode.RDMA)
            {
                // loading does not initialise, so DiSNI's classes load without its native library
                anchors.add(RdmaHeartbeats.class);
                anchors.add(com.ibm.disni.verbs.RdmaEventChannel.class);
                prefixes.add("io.ringwatch.transport.rdma.");
                prefixes.add("com.ibm.disni.");
            }
            ClassPreloader.preload(anchors, prefixes);
        }
        if (ctx.realtimePriority() > 0)
        {
            // load JNA and libc now: done first on the agent thread, before it is real-time, it took seconds
            // on a host busy with other agents, and the node missed its first heartbeats
            RealtimePriority.probe();
        }
    }

    private <T extends AutoCloseable> T own(final T resource)
    {
        resources.add(resource);
        return resource;
    }

    private void preCreate(final PeerPublications publications, final int[] peers)
    {
        peerPublications.add(publications);
        for (final int peer : peers)
        {
            publications.preCreate(peer);
        }
    }

    /**
     * Register the slot and listen for emitters; connections start with the agent's first duty cycle.
     *
     * @throws IllegalStateException with the reason and the doctor hint if this host cannot do RDMA.
     */
    private RdmaHeartbeats rdmaHeartbeats(final CachedNanoClock cachedClock)
    {
        final RdmaHeartbeats.Context rdmaCtx = new RdmaHeartbeats.Context()
            .rank(ctx.rank())
            .incarnation(ctx.incarnation())
            .endpoints(ctx.cluster().rdmaEndpoints())
            // the agent's own keyring, rotated in place on its thread, which also runs the RDMA handshake
            .authenticator(ctx.frameAuthenticator())
            .clusterId(ctx.cluster().clusterId())
            .configDigest(ctx.configDigest())
            .nanoClock(cachedClock)
            .verbs(ctx.rdmaVerbs());
        try
        {
            // own() only after it is built: a failed constructor has closed what it opened
            return new RdmaHeartbeats(rdmaCtx);
        }
        catch (final RdmaUnavailableException ex)
        {
            throw new IllegalStateException("transport=rdma, but RDMA is unusable for rank " + ctx.rank() + " on " +
                "this host: " + ex.getMessage() + " (java -jar ringwatch.jar doctor lists what is missing and how " +
                "to fix it; docs/rdma.md)", ex);
        }
    }

    /**
     * On the agent thread as it starts: pin it, and remember it for the switch to real time. Strings are built here
     * or on the switch's thread, never in a duty cycle once observers are armed.
     */
    private Runnable onAgentStart(final RealtimeSwitch realtime)
    {
        final boolean pin = ctx.cpu() >= 0;
        if (!pin && realtime == null)
        {
            return null;
        }
        return () ->
        {
            pinned = pin ? ctx.pinner().pinCurrentThread(ctx.cpu()) : "not pinned (no cpu configured)";
            if (realtime == null)
            {
                pinResult = pinned + ", ordinary scheduling";
            }
            else
            {
                realtime.captureCurrentThread();
            }
        };
    }

    /**
     * Real time only near the end of the startup grace: started together, agents run interpreted for a while, and as
     * SCHED_FIFO threads from the start they kept the JIT compiler threads (ordinary class) and the driver from the
     * cores, so they stayed slow and heartbeats stalled.
     */
    private RealtimeSwitch realtimeSwitch()
    {
        if (ctx.realtimePriority() <= 0)
        {
            return null;
        }
        return own(new RealtimeSwitch("ringwatch-rt-switch-" + ctx.rank(), ctx.realtimePriority(),
            scheduling -> pinResult = pinned + ", " + scheduling));
    }

    /**
     * Read the key file again and have the agent sign with its primary key and accept all of its keys from its next
     * duty cycle: a rolling rotation is [old] → [old, new] → [new, old] → [new], each step on every node before the
     * next.
     *
     * @return the reloaded keyring's fingerprints, primary first, for the log.
     * @throws IllegalStateException    if authentication is off.
     * @throws IllegalArgumentException or {@link java.io.UncheckedIOException} if the file is unreadable, too open, or
     *                                  malformed: the node keeps its keys.
     */
    public String reloadKeys()
    {
        if (ctx.authMode() != AuthMode.REQUIRED)
        {
            throw new IllegalStateException("authentication is off: no keys to reload");
        }
        final java.util.List<byte[]> keys = KeyFile.load(ctx.authKeyFile());
        agent.rekey(FrameAuthenticator.withKeys(keys));
        if (hello != null)
        {
            hello.rekey(fingerprints(keys));
        }
        if (controlStreams != null)
        {
            controlStreams.rekey(ControlStreams.streamIds(keys, ctx.cluster().clusterId()));
        }
        final StringBuilder fingerprints = new StringBuilder();
        for (final byte[] key : keys)
        {
            fingerprints.append(fingerprints.length() == 0 ? "" : ", ").append(KeyFile.fingerprint(key));
        }
        return fingerprints.toString();
    }

    private long[] keyFingerprints()
    {
        return ctx.authMode() == AuthMode.REQUIRED ? fingerprints(KeyFile.load(ctx.authKeyFile())) : new long[0];
    }

    private static long[] fingerprints(final List<byte[]> keys)
    {
        final long[] fingerprints = new long[keys.size()];
        for (int i = 0; i < fingerprints.length; i++)
        {
            fingerprints[i] = KeyFile.fingerprintValue(keys.get(i));
        }
        return fingerprints;
    }

    /**
     * @return over UDP or IPC, the last peer that told (by its hello) that it signs with another key, naming both keys'
     * fingerprints; null if none did, and always null over RDMA.
     */
    public String keyMismatch()
    {
        return hello == null ? null : hello.keyMismatch();
    }

    /**
     * @return over UDP or IPC, the last peer that told (by its hello) that its configuration differs, naming the
     * setting and both values; null if none did, and always null over RDMA.
     */
    public String configMismatch()
    {
        return hello == null ? null : hello.configMismatch();
    }

    /**
     * @return true once every publication created before joining has a connected subscriber: over UDP that takes
     * a setup exchange per peer, which a launcher should let finish before releasing nodes from a start barrier.
     */
    public boolean peersConnected()
    {
        for (final PeerPublications publications : peerPublications)
        {
            if (!publications.allConnected())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Keep a built, not yet started node connected (its Aeron client runs on the agent's duty cycle, so someone must
     * service it) until {@code go} is true: a start barrier, so a launcher can bring every node of a host up before
     * any of them starts watching. Call it from a {@link StartGate}, or before hosting an UNSTARTED node's agent.
     *
     * @param go        polled about every millisecond.
     * @param timeoutMs give up after this long.
     * @return true once {@code go}; false on timeout, or at once if the node lost its driver ({@link #driverLost()}).
     * @throws InterruptedException if interrupted.
     * @throws IllegalStateException if this node's runner or invoker has started: the agent services the client.
     */
    public boolean holdUntil(final BooleanSupplier go, final long timeoutMs) throws InterruptedException
    {
        if (runner != null || invoker != null)
        {
            throw new IllegalStateException("node " + ctx.rank() + " has started: holdUntil is for before its start");
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!go.getAsBoolean())
        {
            // without its driver nothing it waits for can come: the start that follows stops it as DRIVER_LOST
            if (System.nanoTime() - deadline >= 0 || driverLost != null)
            {
                return false;
            }
            serviceClient();
            if (hello != null)
            {
                // peers still deciding how to boot ask this node meanwhile: IPC answers pass through its client
                hello.pump();
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * @return the invoker in {@link ThreadingMode#INVOKER}, otherwise null.
     */
    public AgentInvoker invoker()
    {
        return invoker;
    }


    /**
     * @return what a host of this node must run for its duty cycle: the agent, or with a jitter file
     * ({@link RingwatchContext#jitterFile(boolean)}) the agent wrapped in a {@link JitterRecordingAgent}. A caller
     * hosting the node itself (e.g. in a {@code CompositeAgent}) runs this one.
     */
    public Agent dutyCycleAgent()
    {
        return dutyCycleAgent;
    }

    /**
     * @return the concluded context.
     */
    public RingwatchContext context()
    {
        return ctx;
    }

    /**
     * @return what pinning and the real-time request did, or null while they have not happened yet (they happen
     * on the agent thread as it starts).
     */
    public String pinResult()
    {
        return pinResult;
    }

    /**
     * Ask for a graceful leave and wait until the node stopped and its LEAVE frame left the queue.
     *
     * @param timeoutMs how long to wait.
     * @return true if the node stopped within the timeout.
     * @throws InterruptedException if interrupted.
     */
    public boolean leave(final long timeoutMs) throws InterruptedException
    {
        requestLeave();
        if (invoker != null)
        {
            invoker.invoke();
            return agent.stopped().getCount() == 0;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final boolean stopped = agent.stopped().await(timeoutMs, TimeUnit.MILLISECONDS);
        while (agent.control().queued() > 0 && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(1);
        }
        return stopped;
    }

    /**
     * Ask for a graceful leave without waiting for it: the next duty cycle sends LEAVE and stops the node. For a
     * caller hosting {@link #dutyCycleAgent()} itself, which cannot wait in {@link #leave(long)} on the thread that
     * must run the cycle; any thread may call it.
     */
    public void requestLeave()
    {
        agent.requestLeave();
    }

    /**
     * The detector's state as the last duty cycle left it. Exact on the thread that runs the duty cycle (a caller
     * hosting {@link #dutyCycleAgent()}); another thread may see it late, and should read the view file
     * ({@link io.ringwatch.transport.aeron.view.ViewReader}) instead.
     *
     * @return active, joining, excluded or left.
     */
    public NodeState state()
    {
        return agent.node().state();
    }

    /**
     * Stop the agent and release everything; view and slot files stay for tools.
     */
    public void close()
    {
        CloseHelper.quietClose(runner);
        CloseHelper.quietClose(invoker);
        closeResources();
    }

    private void closeAfterFailedStart()
    {
        CloseHelper.quietClose(runner);
        CloseHelper.quietClose(invoker);
        if (viewFile != null)
        {
            viewFile.stopped(ViewLayout.STOP_START_FAILED);
        }
        closeResources();
    }

    private void closeResources()
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(resources.get(i));
        }
        resources.clear();
    }

    private MediaDriver launchDriver(final String dir)
    {
        if (CommonContext.isDriverActive(new File(dir), TimeUnit.SECONDS.toMillis(2), s -> {}))
        {
            throw new IllegalStateException("a media driver is already running at aeron.dir=" + dir +
                ": use it with --driver external (-D" + RingwatchConfiguration.DRIVER_PROP_NAME +
                "=external) or pick another --aeron-dir (-Daeron.dir)");
        }
        return MediaDriver.launch(Drivers.lowFootprint(dir));
    }

    private Aeron connect(final String dir)
    {
        try
        {
            return Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(dir)
                .driverTimeoutMs(5_000)
                .useConductorAgentInvoker(true)
                .unavailableImageHandler(this::onUnavailableImage)
                .errorHandler(this::onClientError));
        }
        catch (final AeronException | IllegalStateException ex)
        {
            throw new IllegalStateException("no media driver at aeron.dir=" + dir + " (" + ex.getMessage() +
                "): start one (java -jar ringwatch.jar driver --aeron-dir " + dir + ", or its systemd unit " +
                "ringwatch-driver) or use --driver embedded", ex);
        }
    }

    private void onUnavailableImage(final Image image)
    {
        // on the agent thread (conductor invoker); null while the node is still being built
        final RingwatchAgent running = agent;
        if (running != null)
        {
            running.onUnavailableImage(image.sessionId());
        }
    }

    /**
     * Run the Aeron client's conductor once, if the node drives it (its own client); an application's client runs
     * its conductor itself.
     */
    private void serviceClient()
    {
        final AgentInvoker conductor = aeron.conductorAgentInvoker();
        if (conductor != null)
        {
            conductor.invoke();
        }
    }

    private void onClientError(final Throwable ex)
    {
        // without its driver a node can neither hear nor be heard; the owner must stop it (exit code 4 for `node`)
        if (ex instanceof DriverTimeoutException || ex instanceof ClientTimeoutException)
        {
            driverLost = ex;
            if (agent != null)
            {
                agent.halt(1000);
            }
            // expected and handled (the node stops, exit 4 for `node`): one line, no stack trace
            LOG.log(Level.WARNING, "ringwatch node " + ctx.rank() + ": lost the media driver: " +
                ex.getMessage());
            return;
        }
        if (ex instanceof AgentTerminationException && driverLost != null)
        {
            // the client ending its conductor after the driver loss just reported: nothing new to say
            return;
        }
        reportError("Aeron client error", ex);
    }

    private void reportError(final String what, final Throwable ex)
    {
        final ErrorHandler handler = ctx.errorHandler();
        if (handler != null)
        {
            handler.onError(ex);
        }
        else
        {
            LOG.log(Level.ERROR, "ringwatch node " + ctx.rank() + ": " + what, ex);
        }
    }

    private void onAgentError(final Throwable ex)
    {
        // the agent stops itself this way once it has recorded why (view file, listener): not an error to report
        if (!(ex instanceof AgentTerminationException))
        {
            reportError("agent error", ex);
        }
    }

    /**
     * @return the error that cut this node off from its media driver, or null while connected.
     */
    public Throwable driverLost()
    {
        return driverLost;
    }

    /**
     * Bind-check the control port, waiting while this node's own media driver holds it. A rank restarted on the same
     * host finds its control endpoint still bound by the driver, for its previous life, until the driver times that
     * killed client out ({@link DriverWatch#clientLivenessTimeoutNs()}, 5 s for ringwatch's drivers); failing then
     * would make every prompt restart by a supervisor fail. A port some other process holds still fails at once.
     */
    private void awaitControlPort(final DriverWatch driverWatch, final int port)
    {
        final String host = ctx.cluster().member(ctx.rank()).host();
        final IOException refused = bindRefusal(host, port);
        if (refused == null)
        {
            return;
        }
        final String endpoint = ClusterChannels.endpoint(host, port);
        // the driver frees a dropped client's receive-channel counter on its conductor and closes the socket on its
        // receiver a moment later: a node restarted 1 s after its previous life was SIGKILLed during start (the
        // nemesis, 2026-11-28) found the port bound and no counter, and exited "port in use"; look again a while
        boolean freedOrOurs = false;
        try
        {
            freedOrOurs = pollUntil(() -> driverHoldsReceiveEndpoint(endpoint) || bindRefusal(host, port) == null,
                System.nanoTime() + ENDPOINT_CLOSE_GRACE_NS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (!freedOrOurs)
        {
            throw new IllegalStateException("port in use: " + host + ":" + port + " for rank " + ctx.rank() + " (" +
                refused.getMessage() + "); fix the cluster file or stop the process holding it", refused);
        }
        // the old life's last keepalive was before now, so the driver drops it within one liveness timeout from now;
        // twice that leaves time for the driver's timer check and the endpoint's close on a loaded host
        final long livenessNs = driverWatch.clientLivenessTimeoutNs();
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + 2 * livenessNs;
        LOG.log(Level.INFO, "ringwatch node " + ctx.rank() + ": the media driver still holds control port " +
            endpoint + ", most likely for this rank's previous life until it times that client out (" +
            TimeUnit.NANOSECONDS.toMillis(livenessNs) + " ms of silence); waiting for it");
        final boolean freed;
        try
        {
            freed = pollUntil(() -> bindRefusal(host, port) == null, deadlineNs);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw portInUse(host, port, "interrupted while waiting for the media driver to free it", ex);
        }
        if (!freed)
        {
            throw portInUse(host, port, "the media driver kept it for " +
                TimeUnit.NANOSECONDS.toMillis(2 * livenessNs) + " ms, so a live client of that driver holds it: " +
                "two nodes on one driver with the same port? fix the cluster file", null);
        }
        LOG.log(Level.INFO, "ringwatch node " + ctx.rank() + ": control port " + endpoint + " free after " +
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms");
    }

    /**
     * Poll every 10 ms until {@code done} holds or {@code deadlineNs} passes, keeping this client alive for the driver
     * meanwhile: its conductor runs on the agent, which has not started.
     *
     * @return true once it held, false at the deadline.
     */
    private boolean pollUntil(final BooleanSupplier done, final long deadlineNs) throws InterruptedException
    {
        while (!done.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            serviceClient();
            Thread.sleep(10);
        }
        return true;
    }

    private IllegalStateException portInUse(final String host, final int port, final String why, final Exception cause)
    {
        return new IllegalStateException("port in use: " + host + ":" + port + " for rank " + ctx.rank() + " (" +
            why + ")", cause);
    }

    /**
     * @return null if {@code host:port} could be bound a moment ago, else why not.
     */
    private static IOException bindRefusal(final String host, final int port)
    {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(host, port)))
        {
            probe.getLocalPort();
            return null;
        }
        catch (final IOException ex)
        {
            return ex;
        }
    }

    /**
     * @param endpoint {@code host:port} as in this node's control channel.
     * @return true if this node's driver has a receive channel endpoint (a subscription's socket) on it.
     */
    private boolean driverHoldsReceiveEndpoint(final String endpoint)
    {
        final boolean[] held = new boolean[1];
        aeron.countersReader().forEach((counterId, typeId, key, label) ->
        {
            if (typeId == AeronCounters.DRIVER_RECEIVE_CHANNEL_STATUS_TYPE_ID)
            {
                final String channel = key.getStringAscii(ChannelEndpointStatus.CHANNEL_OFFSET);
                try
                {
                    held[0] |= endpoint.equals(ChannelUri.parse(channel).get(CommonContext.ENDPOINT_PARAM_NAME));
                }
                catch (final RuntimeException unparsable)
                {
                    // a label cut at the key's length: not ours to judge
                }
            }
        });
        return held[0];
    }

    private Subscription subscribe(final String channel, final int streamId)
    {
        try
        {
            return aeron.addSubscription(channel, streamId);
        }
        catch (final AeronException ex)
        {
            throw new IllegalStateException("cannot subscribe to " + channel + " stream " + streamId + " for rank " +
                ctx.rank() + ": " + ex.getMessage(), ex);
        }
    }

    private ControlStreams subscribeUdpControl(final ClusterChannels channels, final PeerPublications publications)
    {
        final String channel = channels.controlChannel(ctx.rank());
        try
        {
            return new ControlStreams(aeron, channel, channels.udpControlStreams(), publications);
        }
        catch (final AeronException ex)
        {
            throw new IllegalStateException("cannot subscribe to " + channel + " for rank " + ctx.rank() + ": " +
                ex.getMessage(), ex);
        }
    }
}
