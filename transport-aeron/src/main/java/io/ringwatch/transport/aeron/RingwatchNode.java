package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.ClientTimeoutException;
import io.aeron.exceptions.DriverTimeoutException;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.slot.HeartbeatSender;
import io.ringwatch.transport.aeron.slot.HeartbeatSlots;
import io.ringwatch.transport.aeron.slot.RemoteHeartbeatChannel;
import io.ringwatch.transport.aeron.slot.SharedMemoryHeartbeatChannel;
import io.ringwatch.transport.aeron.view.ViewFile;
import io.ringwatch.transport.aeron.view.ViewLayout;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
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
 * {@link #launch(RingwatchContext)} starts the agent on its own thread; {@link #launchWithInvoker(RingwatchContext)}
 * leaves the duty cycle to the caller ({@link #invoker()}), for tests and for hosting several nodes on one thread.
 */
public final class RingwatchNode implements AutoCloseable
{
    private final RingwatchContext ctx;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private volatile RingwatchAgent agent;
    private Aeron aeron;
    private final List<PeerPublications> peerPublications = new ArrayList<>();
    private AgentRunner runner;
    private AgentInvoker invoker;
    private volatile String pinResult;
    private String pinned;
    private volatile Throwable driverLost;

    private RingwatchNode(final RingwatchContext ctx)
    {
        this.ctx = ctx.conclude();
        final ClusterConfig cluster = ctx.cluster();
        final int rank = ctx.rank();
        final int n = cluster.size();
        try
        {
            if (ctx.preloadClasses())
            {
                ClassPreloader.preload(
                    List.of(DetectorNode.class, RingwatchNode.class, Aeron.class, UnsafeBuffer.class),
                    List.of("io.ringwatch.core.", "io.ringwatch.transport.aeron.", "io.aeron.", "org.agrona."));
            }
            if (ctx.realtimePriority() > 0)
            {
                // load JNA and libc now: done first on the agent thread, before it is real-time, it took seconds
                // on a host busy with other agents, and the node missed its first heartbeats
                RealtimePriority.probe();
            }
            final String dir = ctx.aeronDirectoryName();
            if (ctx.embeddedDriver())
            {
                resources.add(launchDriver(dir));
            }
            aeron = connect(dir);
            resources.add(aeron);

            final HeartbeatSlots slots = HeartbeatSlots.mapOrCreate(
                HeartbeatSlots.fileFor(dir, cluster.clusterId()), cluster.clusterId(), n);
            resources.add(slots);
            slots.clear(rank);

            final ViewFile viewFile = new ViewFile(ViewLayout.fileFor(dir, cluster.clusterId(), rank),
                cluster.clusterId(), n, rank, ctx.nanoClock().nanoTime());
            resources.add(viewFile);

            final NodeCounters counters = new NodeCounters(aeron, cluster.clusterId(), rank);
            resources.add(counters);

            final boolean udp = ctx.transport() == TransportMode.UDP;
            final ClusterChannels channels = new ClusterChannels(ctx);
            final Subscription controlSubscription = subscribe(aeron, channels.controlChannel(rank),
                channels.controlStream(rank), udp ? cluster.member(rank).controlPort() : 0);
            resources.add(controlSubscription);
            Subscription heartbeatSubscription = null;
            if (udp)
            {
                heartbeatSubscription = subscribe(aeron, channels.heartbeatChannel(rank), ctx.heartbeatStreamId(),
                    cluster.member(rank).heartbeatPort());
                resources.add(heartbeatSubscription);
            }

            if (ctx.authMode() == AuthMode.OFF)
            {
                System.err.println("ringwatch node " + rank + ": " + AuthMode.OFF_WARNING);
            }
            // one stamper for heartbeats and control frames alike: one frame sequence per destination
            final FrameStamper stamper = new FrameStamper(n, ctx.frameAuthenticator());
            final PeerPublications controlPublications = new PeerPublications(
                aeron, channels.controlChannels(), channels.controlStreams());
            final AeronControlChannel control = new AeronControlChannel(cluster.clusterId(), rank, ctx.incarnation(),
                n, ctx.configDigest(), stamper, controlPublications, ctx.sendQueueCapacity(), ctx.sendRetryTimeoutNs());
            resources.add(control);
            peerPublications.add(controlPublications);
            for (final int peer : ClusterChannels.controlPeersToPreCreate(rank, n, ctx.preCreateAllUpTo()))
            {
                controlPublications.preCreate(peer);
            }

            final CachedNanoClock cachedClock = new CachedNanoClock();
            final HeartbeatChannel heartbeats;
            if (udp)
            {
                final PeerPublications heartbeatPublications = new PeerPublications(
                    aeron, channels.heartbeatChannels(), channels.heartbeatStreams());
                resources.add(heartbeatPublications);
                peerPublications.add(heartbeatPublications);
                for (final int peer : ClusterChannels.usualHeartbeatPeers(rank, n))
                {
                    heartbeatPublications.preCreate(peer);
                }
                heartbeats = new RemoteHeartbeatChannel(slots, rank,
                    new UdpHeartbeatSender(heartbeatPublications, cluster.clusterId(), rank, ctx.incarnation(),
                        ctx.configDigest(), stamper),
                    cachedClock);
            }
            else
            {
                heartbeats = new SharedMemoryHeartbeatChannel(slots, rank, ctx.incarnation(), cachedClock);
            }

            agent = new RingwatchAgent(
                ctx, cachedClock, controlSubscription, heartbeatSubscription, control, viewFile, counters);
            agent.clientConductor(aeron.conductorAgentInvoker());
            if (heartbeats instanceof RemoteHeartbeatChannel)
            {
                agent.remoteHeartbeats((RemoteHeartbeatChannel)heartbeats);
            }
            // the protocol's clock starts when everything is in place, so set-up time is not a missed heartbeat
            final long startNs = ctx.nanoClock().nanoTime();
            cachedClock.update(startNs);
            agent.node(new DetectorNode(rank, ctx.incarnation(), ctx.protocolSettings(),
                new DoubleHypercubeSchedule(), heartbeats, control, agent, startNs));
            if (ctx.idleStrategy() instanceof DeadlineIdleStrategy deadlineIdle)
            {
                deadlineIdle.deadlines(agent::nextDeadlineNs);
            }
            final boolean pin = ctx.cpu() >= 0;
            final boolean realtime = ctx.realtimePriority() > 0;
            pinResult = pin || realtime ? null : "not pinned (no cpu configured), ordinary scheduling";
            if (pin)
            {
                agent.onStartAction(() -> pinned = ctx.pinner().pinCurrentThread(ctx.cpu()));
            }
            if (pin || realtime)
            {
                // Real time only once the startup grace is over: started together, agents run interpreted for a
                // while, and as SCHED_FIFO threads they then kept the JIT compiler threads (ordinary class) and the
                // driver from the cores, so they stayed slow and heartbeats stalled.
                agent.onArmedAction(() -> pinResult = (pin ? pinned : "not pinned (no cpu configured)") + ", " +
                    (realtime ? RealtimePriority.raiseCurrentThread(ctx.realtimePriority()).toString() :
                        "ordinary scheduling"));
            }
        }
        catch (final RuntimeException ex)
        {
            closeResources();
            throw ex;
        }
    }

    /**
     * Build a node and start its agent on a dedicated thread with the context's idle strategy.
     *
     * @param ctx configuration; concluded here.
     * @return the running node.
     */
    public static RingwatchNode launch(final RingwatchContext ctx)
    {
        return new RingwatchNode(ctx).startOnThread();
    }

    /**
     * Start the agent of a node made by {@link #build(RingwatchContext)} on a dedicated thread with the context's
     * idle strategy; its protocol clocks (startup grace included) start now.
     *
     * @return this.
     * @throws IllegalStateException if the agent already runs.
     */
    public RingwatchNode startOnThread()
    {
        if (runner != null || invoker != null)
        {
            throw new IllegalStateException("node " + ctx.rank() + " already started");
        }
        runner = new AgentRunner(ctx.idleStrategy(), Throwable::printStackTrace, null, agent);
        AgentRunner.startOnThread(runner);
        return this;
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
     * any of them starts watching.
     *
     * @param go        polled about every millisecond.
     * @param timeoutMs give up after this long.
     * @return true once {@code go}, false on timeout.
     * @throws InterruptedException if interrupted.
     */
    public boolean holdUntil(final BooleanSupplier go, final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!go.getAsBoolean())
        {
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            aeron.conductorAgentInvoker().invoke();
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * Build a node whose duty cycle the caller drives through {@link #invoker()}.
     *
     * @param ctx configuration; concluded here.
     * @return the node, not yet started.
     */
    public static RingwatchNode launchWithInvoker(final RingwatchContext ctx)
    {
        final RingwatchNode node = new RingwatchNode(ctx);
        node.invoker = new AgentInvoker(Throwable::printStackTrace, null, node.agent);
        return node;
    }

    /**
     * Build a node without running it: the caller hosts {@link #agent()}, e.g. with other nodes in a
     * {@code CompositeAgent} on one thread.
     *
     * @param ctx configuration; concluded here.
     * @return the node, not yet started.
     */
    public static RingwatchNode build(final RingwatchContext ctx)
    {
        return new RingwatchNode(ctx);
    }

    /**
     * @return the invoker, or null when the node runs on its own thread.
     */
    public AgentInvoker invoker()
    {
        return invoker;
    }

    /**
     * @return the agent.
     */
    public RingwatchAgent agent()
    {
        return agent;
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
        agent.requestLeave();
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
     * Stop the agent and release everything; view and slot files stay for tools.
     */
    public void close()
    {
        CloseHelper.quietClose(runner);
        CloseHelper.quietClose(invoker);
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
                "=external) or pick another -Daeron.dir");
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
                .errorHandler(this::onClientError));
        }
        catch (final AeronException | IllegalStateException ex)
        {
            throw new IllegalStateException("no media driver at aeron.dir=" + dir + " (" + ex.getMessage() +
                "): start one (java -cp ringwatch.jar io.aeron.driver.MediaDriver) or use --driver embedded", ex);
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
        }
        ex.printStackTrace();
    }

    /**
     * @return the error that cut this node off from its media driver, or null while connected.
     */
    public Throwable driverLost()
    {
        return driverLost;
    }

    private Subscription subscribe(final Aeron aeron, final String channel, final int streamId, final int port)
    {
        if (port > 0)
        {
            final String host = ctx.cluster().member(ctx.rank()).host();
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(host, port)))
            {
                probe.getLocalPort();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("port in use: " + host + ":" + port + " for rank " + ctx.rank() +
                    " (" + ex.getMessage() + "); fix the cluster file or stop the process holding it", ex);
            }
        }
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

    private static final class UdpHeartbeatSender implements HeartbeatSender
    {
        private final PeerPublications publications;
        private final int clusterId;
        private final int rank;
        private final int incarnation;
        private final int configDigest;
        private final FrameStamper stamper;
        private final HeartbeatFlyweight frame = new HeartbeatFlyweight();
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);

        UdpHeartbeatSender(final PeerPublications publications, final int clusterId, final int rank,
            final int incarnation, final int configDigest, final FrameStamper stamper)
        {
            this.publications = publications;
            this.clusterId = clusterId;
            this.rank = rank;
            this.incarnation = incarnation;
            this.configDigest = configDigest;
            this.stamper = stamper;
        }

        public boolean send(final int observerRank, final long counter, final long timestampNs)
        {
            final Publication publication = publications.get(observerRank);
            if (publication == null)
            {
                return false;
            }
            final int length = stamper.stamp(buffer, 0, frame.encode(
                buffer, 0, clusterId, rank, incarnation, observerRank, configDigest, counter, timestampNs));
            return publication.offer(buffer, 0, length) > 0;
        }
    }
}
