package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.config.BootSeeds;
import io.ringwatch.core.config.Durations;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.protocol.BootHearing;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.protocol.StartIncarnation;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.nativeconfig.CpuPinning;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.internal.IncarnationFile;
import io.ringwatch.transport.aeron.internal.RankLock;
import io.ringwatch.transport.rdma.RdmaEndpoint;
import io.ringwatch.transport.rdma.RdmaVerbs;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Everything a {@link RingwatchNode} needs. Defaults come from {@link RingwatchConfiguration} (system properties)
 * and the cluster file; {@link #conclude()} fills the rest, validates, and fails naming the offending value.
 * {@link RingwatchNode#launch(RingwatchContext)} concludes the context and builds the node's resources from it in
 * one pass; a context launches one node, so a second conclude and every setter after the first are refused.
 */
public final class RingwatchContext
{
    private boolean concluded;
    private RankLock rankLock;
    private Path clusterFile;
    private ClusterConfig cluster;
    private int rank = -1;
    private long incarnation;
    private boolean incarnationSet;
    private boolean join;
    private int seeds = RingwatchConfiguration.seeds();
    private BootPlan bootPlan;
    private boolean listenFirst = true;
    private boolean listensFirst;
    private int liveClusterHeardFrom = -1;
    private TransportMode transport = RingwatchConfiguration.transport() == null ? null :
        TransportMode.parse(RingwatchConfiguration.transport());
    private BroadcastKind broadcast = BroadcastKind.parse(RingwatchConfiguration.broadcast());
    private PartitionPolicy partitionPolicy = PartitionPolicy.parse(RingwatchConfiguration.partitionPolicy());
    private long heartbeatPeriodNs = -1;
    private long suspicionTimeoutNs = -1;
    private long pauseThresholdNs = -1;
    private long startupGraceNs = RingwatchConfiguration.startupGraceNs();
    private String idleStrategyName = RingwatchConfiguration.idleStrategy();
    private IdleStrategy idleStrategy;
    private long idleMaxSleepNs = -1;
    private int cpu = RingwatchConfiguration.cpu();
    private ThreadPinner pinner = ThreadPinner.UNAVAILABLE;
    private int realtimePriority = RingwatchConfiguration.realtimePriority();
    private boolean preloadClasses = RingwatchConfiguration.preload();
    private boolean jitterFile = RingwatchConfiguration.jitterFile();
    private int preCreateAllUpTo = RingwatchConfiguration.preCreateAllMax();
    private Boolean embeddedDriver = RingwatchConfiguration.driver() == null ? null :
        parseDriver(RingwatchConfiguration.driver());
    private ThreadingMode threadingMode = ThreadingMode.parse(RingwatchConfiguration.threadingMode());
    private RingwatchNode.StartGate startGate;
    private String aeronDirectoryName = CommonContext.getAeronDirectoryName();
    private int fragmentLimit = RingwatchConfiguration.fragmentLimit();
    private int heartbeatReceiveBufferBytes = RingwatchConfiguration.heartbeatReceiveBufferBytes();
    private int controlStreamId = RingwatchConfiguration.controlStreamId();
    private int heartbeatStreamId = RingwatchConfiguration.heartbeatStreamId();
    private int termLength = RingwatchConfiguration.termLength();
    private int sendQueueCapacity = RingwatchConfiguration.sendQueueCapacity();
    private long sendRetryTimeoutNs = RingwatchConfiguration.sendRetryTimeoutNs();
    private long driverTimeoutNs = -1;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private MembershipListener listener = MembershipListener.NO_OP;
    private Aeron aeronClient;
    private ErrorHandler errorHandler;
    private RdmaVerbs rdmaVerbs;
    private ProtocolSettings protocolSettings;
    private final String authProperty = RingwatchConfiguration.auth();
    private AuthMode authMode;
    private Path authKeyFile = RingwatchConfiguration.authKeyFile() == null ? null :
        Path.of(RingwatchConfiguration.authKeyFile());
    private FrameAuthenticator frameAuthenticator;
    private int configDigest;
    private JobLayout jobLayout;

    /**
     * Fill defaults and validate, once: {@link RingwatchNode#launch(RingwatchContext)} calls it.
     *
     * @return this.
     * @throws IllegalArgumentException or IllegalStateException naming the offending setting and value.
     * @throws IllegalStateException if this context was concluded before, even if that conclude failed.
     */
    public RingwatchContext conclude()
    {
        return conclude(false);
    }

    /**
     * {@link #conclude()} for {@link RingwatchNode#launch}: also take the rank's {@link RankLock} before the first
     * file of the rank is touched, so a duplicate start is refused before it can harm the running node. The caller
     * owns the lock ({@link #rankLock()}) from then on, also when this throws after taking it.
     */
    RingwatchContext concludeForLaunch()
    {
        return conclude(true);
    }

    /**
     * @return the lock taken by {@link #concludeForLaunch()}, or null.
     */
    RankLock rankLock()
    {
        return rankLock;
    }

    private RingwatchContext conclude(final boolean lockRank)
    {
        if (concluded)
        {
            throw new IllegalStateException(this + " already concluded: a context launches one node");
        }
        concluded = true;
        concludeCluster();
        concludeTransport();
        concludeSeeds();
        if (lockRank)
        {
            rankLock = RankLock.acquire(aeronDirectoryName, cluster.clusterId(), rank);
        }
        concludeBootPlan(lockRank);
        concludeProtocolSettings();
        concludeAuthentication();
        concludeIdleStrategy();
        concludeChannels();
        concludeScheduling();
        concludeJoinIncarnation();
        return this;
    }

    private void concludeCluster()
    {
        if (aeronClient != null)
        {
            // the application's client decides which driver: the node's files live in that driver's directory
            if (Boolean.TRUE.equals(embeddedDriver))
            {
                throw new IllegalArgumentException("an application's Aeron client (aeronClient) and an embedded " +
                    "driver exclude each other: the client is connected to its driver already");
            }
            embeddedDriver = false;
            aeronDirectoryName = aeronClient.context().aeronDirectoryName();
        }
        if (cluster == null)
        {
            if (clusterFile == null)
            {
                throw new IllegalArgumentException("no cluster: set clusterFile (--cluster FILE) or cluster");
            }
            cluster = ClusterConfig.load(clusterFile);
        }
        if (rank < 0 || rank >= cluster.size())
        {
            throw new IllegalArgumentException("rank " + rank + " out of range: cluster " + cluster.clusterId() +
                " has ranks 0.." + (cluster.size() - 1));
        }
        if (aeronDirectoryName == null || aeronDirectoryName.isEmpty())
        {
            throw new IllegalArgumentException("aeron.dir is empty");
        }
        if (threadingMode == null)
        {
            throw new IllegalArgumentException("threadingMode must be set: dedicated, invoker or unstarted");
        }
    }

    /**
     * One default for every node, from the cluster file: members on one host talk over shared memory through an
     * embedded driver; members on several hosts talk UDP through their host's driver. Shared memory across hosts is
     * refused rather than left to fail as a silence.
     */
    private void concludeTransport()
    {
        final int away = cluster.firstRankOnAnotherHost();
        if (transport == null)
        {
            transport = away < 0 ? TransportMode.IPC : TransportMode.UDP;
        }
        if (embeddedDriver == null)
        {
            embeddedDriver = away < 0;
        }
        if (transport == TransportMode.IPC && away >= 0)
        {
            throw new IllegalArgumentException("transport ipc reaches one host only, and the cluster file puts rank 0 " +
                "on " + cluster.member(0).host() + " and rank " + away + " on " + cluster.member(away).host() +
                ": use --transport udp (the default for a cluster file that spans hosts) with --driver external");
        }
        if (transport == TransportMode.RDMA)
        {
            requireRdmaEndpoints(cluster);
        }
    }

    private void concludeSeeds()
    {
        if (seeds < 0)
        {
            seeds = BootSeeds.defaultFor(cluster.size());
        }
        if (seeds < 1 || seeds > cluster.size())
        {
            throw new IllegalArgumentException(RingwatchConfiguration.SEEDS_PROP_NAME + " must be in [1, " +
                cluster.size() + "]: " + seeds);
        }
    }

    /**
     * Seed or joiner, and the incarnation of a node that does not join.
     *
     * @param launching true when the rank's lock is held ({@link #concludeForLaunch()}): only a launch records the
     *                  incarnation file, a context merely concluded writes nothing.
     */
    private void concludeBootPlan(final boolean launching)
    {
        final Path incarnationFile = IncarnationFile.fileFor(aeronDirectoryName, cluster.clusterId(), rank);
        // the rule is core's; what the runtime knows is whether this rank has run under this cluster here before
        final boolean ranBefore = Files.exists(incarnationFile);
        bootPlan = BootPlan.decide(rank, seeds, cluster.size(), join, ranBefore);
        join = bootPlan.joins();
        // a seed without a record may be a restart that lost it (a wiped aeron.dir, a new host): it asks its peers
        // first (hellos; none over RDMA) and joins if its cluster is up
        listensFirst = listenFirst && !incarnationSet && transport != TransportMode.RDMA &&
            BootHearing.listensFirst(bootPlan);
        if (!incarnationSet && !join)
        {
            // by the joiners' rule, so a member restarted without its record still comes back above its earlier
            // lives unless the clock is behind too; recorded by a launch alone, so its next start knows it ran here
            incarnation = launching ? IncarnationFile.next(incarnationFile, System.currentTimeMillis()) :
                StartIncarnation.next(IncarnationFile.last(incarnationFile), System.currentTimeMillis());
        }
    }

    /**
     * A seed that {@link #listensFirst()} heard its cluster up: it joins instead, under an incarnation taken as a
     * restarted rank's is (its pid may be below its earlier life's). Called by the launch while it builds the node,
     * before anything uses the incarnation but the heartbeat port.
     *
     * @param answeredBy the peer that answered as a member past its startup grace.
     */
    void joinAfterListening(final int answeredBy)
    {
        bootPlan = BootPlan.JOIN;
        join = true;
        liveClusterHeardFrom = answeredBy;
        incarnation = IncarnationFile.next(IncarnationFile.fileFor(aeronDirectoryName, cluster.clusterId(), rank),
            System.currentTimeMillis());
    }

    /**
     * η, δ and the pause threshold from the setters, the system properties or the cluster file, checked here in
     * units and named as an operator sets them; {@link ProtocolSettings} checks the rest.
     */
    private void concludeProtocolSettings()
    {
        if (heartbeatPeriodNs < 0)
        {
            heartbeatPeriodNs = RingwatchConfiguration.heartbeatPeriodNs(cluster.heartbeatPeriodNs() > 0 ?
                cluster.heartbeatPeriodNs() : RingwatchConfiguration.HEARTBEAT_PERIOD_DEFAULT_NS);
        }
        if (suspicionTimeoutNs < 0)
        {
            suspicionTimeoutNs = RingwatchConfiguration.suspicionTimeoutNs(cluster.suspicionTimeoutNs() > 0 ?
                cluster.suspicionTimeoutNs() : RingwatchConfiguration.SUSPICION_TIMEOUT_DEFAULT_NS);
        }
        if (pauseThresholdNs < 0)
        {
            pauseThresholdNs = RingwatchConfiguration.pauseThresholdNs(suspicionTimeoutNs / 2);
        }
        if (heartbeatPeriodNs == 0)
        {
            throw new IllegalArgumentException("heartbeat-period (η) must be above 0");
        }
        if (suspicionTimeoutNs <= heartbeatPeriodNs)
        {
            throw new IllegalArgumentException("suspicion-timeout (δ) " + Durations.format(suspicionTimeoutNs) +
                " must exceed heartbeat-period (η) " + Durations.format(heartbeatPeriodNs) +
                ", or every gap between heartbeats is a suspicion (typically δ = 10η)");
        }
        if (pauseThresholdNs <= 0 || pauseThresholdNs >= suspicionTimeoutNs)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.PAUSE_THRESHOLD_PROP_NAME + " " +
                Durations.format(pauseThresholdNs) + " must be above 0 and below suspicion-timeout (δ) " +
                Durations.format(suspicionTimeoutNs));
        }
        if (startupGraceNs < 0)
        {
            throw new IllegalArgumentException("startup-grace must be 0 or more: " + Durations.format(startupGraceNs));
        }
        protocolSettings = new ProtocolSettings(cluster.size(), heartbeatPeriodNs, suspicionTimeoutNs,
            pauseThresholdNs, startupGraceNs, ProtocolSettings.DEFAULT_DEDUP_CAPACITY)
            .withPartitionPolicy(partitionPolicy);
        final int brokenRules = BrokenRules.named(RingwatchConfiguration.brokenRules());
        if (brokenRules != 0)
        {
            // a negative control's node: it must never pass for a real one
            System.err.println("ringwatch rank " + rank + ": NEGATIVE CONTROL, protocol rules switched off: " +
                RingwatchConfiguration.brokenRules());
            protocolSettings = protocolSettings.withBrokenRules(brokenRules);
        }
        if (jobLayout != null && jobLayout.nodeCount() != cluster.size())
        {
            throw new IllegalArgumentException("the job places processes on " + jobLayout.nodeCount() +
                " node ranks, the cluster has " + cluster.size());
        }
        configDigest = ConfigDigest.of(FrameHeaderFlyweight.VERSION, cluster.clusterId(), cluster.size(),
            heartbeatPeriodNs, suspicionTimeoutNs, broadcast, partitionPolicy, jobDigest(), seeds);
    }

    private void concludeAuthentication()
    {
        if (authMode == null && authProperty != null)
        {
            authMode = AuthMode.parse(authProperty);
        }
        // fail-closed like the node command: no key means an explicit off, never a silent one
        authMode = AuthMode.resolveExplicit(authMode, authKeyFile, AuthMode.EMBEDDED_KEY_REQUIRED);
        frameAuthenticator = authMode == AuthMode.REQUIRED ?
            KeyFile.authenticator(authKeyFile) : FrameAuthenticator.NONE;
    }

    private void concludeIdleStrategy()
    {
        if (idleMaxSleepNs < 0)
        {
            idleMaxSleepNs = RingwatchConfiguration.idleMaxSleepNs(heartbeatPeriodNs);
        }
        if (idleMaxSleepNs < DeadlineIdleStrategy.MIN_PARK_NS ||
            idleMaxSleepNs > RingwatchConfiguration.IDLE_MAX_SLEEP_LIMIT_NS)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.IDLE_MAX_SLEEP_PROP_NAME + " must be in [" +
                Durations.format(DeadlineIdleStrategy.MIN_PARK_NS) + ", " +
                Durations.format(RingwatchConfiguration.IDLE_MAX_SLEEP_LIMIT_NS) + "]: " +
                Durations.format(idleMaxSleepNs));
        }
        if (idleStrategy == null)
        {
            idleStrategy = RingwatchConfiguration.newIdleStrategy(idleStrategyName, idleMaxSleepNs);
        }
    }

    private void concludeChannels()
    {
        requirePositive(RingwatchConfiguration.FRAGMENT_LIMIT_PROP_NAME, fragmentLimit);
        requirePositive(RingwatchConfiguration.HEARTBEAT_RCVBUF_PROP_NAME, heartbeatReceiveBufferBytes);
        requirePositive(RingwatchConfiguration.SEND_QUEUE_CAPACITY_PROP_NAME, sendQueueCapacity);
        if (sendRetryTimeoutNs <= 0)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.SEND_RETRY_TIMEOUT_PROP_NAME +
                " must be above 0: " + Durations.format(sendRetryTimeoutNs));
        }
        if (driverTimeoutNs < 0)
        {
            driverTimeoutNs = RingwatchConfiguration.driverTimeoutNs(suspicionTimeoutNs);
        }
        if (driverTimeoutNs == 0)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.DRIVER_TIMEOUT_PROP_NAME + " must be above 0");
        }
        if (termLength < 64 * 1024 || Integer.bitCount(termLength) != 1)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.TERM_LENGTH_PROP_NAME +
                " must be a power of two >= 64KiB: " + termLength);
        }
        if (controlStreamId == heartbeatStreamId)
        {
            throw new IllegalArgumentException("control and heartbeat stream ids must differ: " + controlStreamId);
        }
    }

    private void concludeScheduling()
    {
        if (cpu < -1)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.CPU_PROP_NAME + " must be >= -1: " + cpu);
        }
        if (preCreateAllUpTo < 0)
        {
            throw new IllegalArgumentException(RingwatchConfiguration.PRECREATE_ALL_MAX_PROP_NAME + " must be >= 0: " +
                preCreateAllUpTo);
        }
        if (realtimePriority != 0)
        {
            if (realtimePriority < RealtimePriority.MIN || realtimePriority > RealtimePriority.MAX)
            {
                throw new IllegalArgumentException(RingwatchConfiguration.REALTIME_PRIORITY_PROP_NAME +
                    " must be 0 (off) or in [" + RealtimePriority.MIN + ", " + RealtimePriority.MAX + "]: " +
                    realtimePriority);
            }
            if (idleStrategy instanceof BusySpinIdleStrategy && cpu < 0)
            {
                // a spinning real-time thread never yields its core: only acceptable on a core set aside for it
                throw new IllegalArgumentException(RingwatchConfiguration.REALTIME_PRIORITY_PROP_NAME + "=" +
                    realtimePriority + " with a busy-spin idle strategy needs a dedicated core (" +
                    RingwatchConfiguration.CPU_PROP_NAME + "): unpinned it would take a core from everything else");
            }
        }
    }

    /**
     * Last, once everything else is valid: a joiner's incarnation is greater than any this rank used before, and
     * taking it advances the rank's incarnation file (see {@link IncarnationFile}).
     */
    private void concludeJoinIncarnation()
    {
        if (!incarnationSet && join)
        {
            incarnation = IncarnationFile.next(IncarnationFile.fileFor(aeronDirectoryName, cluster.clusterId(), rank),
                System.currentTimeMillis());
        }
    }

    private static void requireRdmaEndpoints(final ClusterConfig cluster)
    {
        final int missing = cluster.firstMemberWithoutRdma();
        if (missing >= 0)
        {
            final ClusterConfig.Member m = cluster.member(missing);
            throw new IllegalArgumentException("transport=rdma needs an RDMA endpoint for every member, and rank " +
                missing + " has none: end its cluster-file line with " + RdmaEndpoint.COLUMN + "=host:port, the " +
                "IPoIB or RoCE address its RDMA connection manager listens on ('" + ClusterConfig.MEMBER_SYNTAX +
                "', e.g. '" + missing + " " + m.host() + " " + m.controlPort() + " " + m.heartbeatPort() + " " +
                RdmaEndpoint.COLUMN + "=192.168.100." + (missing + 1) + ":7471')");
        }
    }

    private void requireOpen(final String setting)
    {
        if (concluded)
        {
            throw new IllegalStateException("context already concluded: set " + setting + " before launch");
        }
    }

    private static void requirePositive(final String name, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(name + " must be > 0: " + value);
        }
    }

    private static boolean parseDriver(final String mode)
    {
        if ("embedded".equalsIgnoreCase(mode))
        {
            return true;
        }
        if ("external".equalsIgnoreCase(mode))
        {
            return false;
        }
        throw new IllegalArgumentException(RingwatchConfiguration.DRIVER_PROP_NAME +
            " must be embedded or external: " + mode);
    }

    /**
     * @param path cluster file.
     * @return this.
     */
    public RingwatchContext clusterFile(final Path path)
    {
        requireOpen("clusterFile");
        this.clusterFile = path;
        return this;
    }

    /**
     * @param cluster already parsed cluster; wins over the file.
     * @return this.
     */
    public RingwatchContext cluster(final ClusterConfig cluster)
    {
        requireOpen("cluster");
        this.cluster = cluster;
        return this;
    }

    /**
     * @return the cluster.
     */
    public ClusterConfig cluster()
    {
        return cluster;
    }

    /**
     * @param rank this node's rank.
     * @return this.
     */
    public RingwatchContext rank(final int rank)
    {
        requireOpen("rank");
        this.rank = rank;
        return this;
    }

    /**
     * @return this node's rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @param incarnation distinguishes restarts of a rank; defaults to the rank's next by {@link StartIncarnation#next}.
     * @return this.
     */
    public RingwatchContext incarnation(final long incarnation)
    {
        requireOpen("incarnation");
        this.incarnation = incarnation;
        this.incarnationSet = true;
        return this;
    }

    /**
     * @return incarnation.
     */
    public long incarnation()
    {
        return incarnation;
    }

    /**
     * Start by joining a running cluster under a new incarnation (a restarted rank) instead of with the cluster: the
     * node asks its neighbours, then the others, to admit it and takes part once it has the view. Unless set, the
     * incarnation is then taken from the rank's {@link IncarnationFile}.
     *
     * @param join true to join.
     * @return this.
     */
    public RingwatchContext join(final boolean join)
    {
        requireOpen("join");
        this.join = join;
        return this;
    }

    /**
     * @return true if the node starts by joining: once concluded, also a rank that is no seed, and a seed that has
     * run under this cluster and aeron.dir before (its incarnation file exists).
     */
    public boolean join()
    {
        return join;
    }

    /**
     * Start = join: ranks below {@code seeds} form the initial membership and every other rank joins once ready.
     * Every node of a cluster must be given the same value; {@code seeds} = N boots every rank as a member.
     *
     * @param seeds in [1, N]; default {@link RingwatchConfiguration#SEEDS_PROP_NAME} or
     *              {@link BootSeeds#DEFAULT} (at most N).
     * @return this.
     */
    public RingwatchContext seeds(final int seeds)
    {
        requireOpen("seeds");
        this.seeds = seeds;
        return this;
    }

    /**
     * @return the seeds, once concluded.
     */
    public int seeds()
    {
        return seeds;
    }

    /**
     * @return how the node enters its cluster, once concluded ({@link BootPlan#decide}: a restart joins, a seed
     * boots as a seed, any other rank joins at its first boot within everyone's startup grace). A seed that
     * {@link #listensFirst()} may join instead, when launched.
     */
    public BootPlan bootPlan()
    {
        return bootPlan;
    }

    /**
     * Whether a seed with no record of an earlier life here asks its peers before it boots, to join if its cluster is
     * up (a restart that lost its incarnation file). On by default; a launcher that starts every node of a cluster
     * for its first boot in one process knows there is nothing to hear, and spares each node's wait.
     *
     * @param listenFirst false to boot as planned without asking.
     * @return this.
     */
    public RingwatchContext listenFirst(final boolean listenFirst)
    {
        requireOpen("listenFirst");
        this.listenFirst = listenFirst;
        return this;
    }

    /**
     * @return once concluded, true for a seed with no record of an earlier life here (no incarnation file, no
     * incarnation set; not over RDMA, which has no hellos): its launch asks its peers before it builds the node, and it
     * joins if one answers as a member past its startup grace ({@link BootHearing}).
     */
    public boolean listensFirst()
    {
        return listensFirst;
    }

    /**
     * @return the peer whose answer made a seed that {@link #listensFirst()} join its running cluster instead, once
     * launched; -1 if none did.
     */
    public int liveClusterHeardFrom()
    {
        return liveClusterHeardFrom;
    }

    /**
     * @param transport transport.
     * @return this.
     */
    public RingwatchContext transport(final TransportMode transport)
    {
        requireOpen("transport");
        this.transport = transport;
        return this;
    }

    /**
     * @param broadcast the schedule failure notices travel; every node of the cluster must use the same.
     * @return this.
     */
    public RingwatchContext broadcast(final BroadcastKind broadcast)
    {
        requireOpen("broadcast");
        this.broadcast = broadcast;
        return this;
    }

    /**
     * @param policy what the node does when it can no longer count a majority alive; every node of the cluster
     *               should run the same.
     * @return this.
     */
    public RingwatchContext partitionPolicy(final PartitionPolicy policy)
    {
        requireOpen("partitionPolicy");
        this.partitionPolicy = policy;
        return this;
    }

    /**
     * @param layout the job this node is the daemon of (its process level), or null for none; every daemon of the
     *               cluster must run the same job: it is part of the {@link #configDigest()}.
     * @return this.
     */
    public RingwatchContext jobLayout(final JobLayout layout)
    {
        requireOpen("jobLayout");
        this.jobLayout = layout;
        return this;
    }

    /**
     * @return the job, or null for a node without a process level.
     */
    public JobLayout jobLayout()
    {
        return jobLayout;
    }

    /**
     * @return {@link JobLayout#digest()} of the job, 0 without one.
     */
    public int jobDigest()
    {
        return jobLayout == null ? 0 : jobLayout.digest();
    }

    /**
     * @return the partition policy.
     */
    public PartitionPolicy partitionPolicy()
    {
        return partitionPolicy;
    }

    /**
     * @return the broadcast schedule kind.
     */
    public BroadcastKind broadcast()
    {
        return broadcast;
    }

    /**
     * @return transport; unless set, resolved by {@link #conclude()} from the cluster file: ipc when every member is
     * on one host, udp when they are on several.
     */
    public TransportMode transport()
    {
        return transport;
    }

    /**
     * @param ns η.
     * @return this.
     */
    public RingwatchContext heartbeatPeriodNs(final long ns)
    {
        requireOpen("heartbeatPeriodNs");
        this.heartbeatPeriodNs = ns;
        return this;
    }

    /**
     * @param ns δ.
     * @return this.
     */
    public RingwatchContext suspicionTimeoutNs(final long ns)
    {
        requireOpen("suspicionTimeoutNs");
        this.suspicionTimeoutNs = ns;
        return this;
    }

    /**
     * @param ns pause threshold.
     * @return this.
     */
    public RingwatchContext pauseThresholdNs(final long ns)
    {
        requireOpen("pauseThresholdNs");
        this.pauseThresholdNs = ns;
        return this;
    }

    /**
     * @param ns startup grace.
     * @return this.
     */
    public RingwatchContext startupGraceNs(final long ns)
    {
        requireOpen("startupGraceNs");
        this.startupGraceNs = ns;
        return this;
    }

    /**
     * @return validated protocol settings, after {@link #conclude()}.
     */
    public ProtocolSettings protocolSettings()
    {
        return protocolSettings;
    }

    /**
     * @param name idle strategy by name, see {@link RingwatchConfiguration#newIdleStrategy(String, long)}.
     * @return this.
     */
    public RingwatchContext idleStrategyName(final String name)
    {
        requireOpen("idleStrategyName");
        this.idleStrategyName = name;
        this.idleStrategy = null;
        return this;
    }

    /**
     * @return idle strategy name.
     */
    public String idleStrategyName()
    {
        return idleStrategyName;
    }

    /**
     * @param ns longest sleep of the deadline (low-noise) idle strategy, the most a control frame waits to be polled;
     *           -1 for the default, see {@link RingwatchConfiguration#IDLE_MAX_SLEEP_PROP_NAME}.
     * @return this.
     */
    public RingwatchContext idleMaxSleepNs(final long ns)
    {
        requireOpen("idleMaxSleepNs");
        this.idleMaxSleepNs = ns;
        return this;
    }

    /**
     * @return longest sleep of the deadline idle strategy; resolved by conclude().
     */
    public long idleMaxSleepNs()
    {
        return idleMaxSleepNs;
    }

    /**
     * Apply a tuning profile: the agent's idle strategy (busy spin for {@link TuningProfile#LOW_LATENCY}, sleep until
     * the protocol's next deadline, at most {@link #idleMaxSleepNs(long)}, otherwise) and, for a profile that pins, CPU pinning of the agent thread through
     * {@link CpuPinning} on the CPU given by {@link #cpu(int)}; a profile that does not pin clears the CPU.
     *
     * @param profile the profile.
     * @return this.
     */
    public RingwatchContext profile(final TuningProfile profile)
    {
        requireOpen("profile");
        if (profile == TuningProfile.LOW_LATENCY)
        {
            idleStrategy(new BusySpinIdleStrategy());
        }
        else
        {
            // built by conclude(), once η and so the default cap are known
            idleStrategyName(profile.idleStrategyAlias());
        }
        if (profile.pinsAgent())
        {
            pinner(RingwatchContext::pinThroughAffinity);
        }
        else
        {
            cpu(-1);
        }
        return this;
    }

    private static String pinThroughAffinity(final int cpu)
    {
        try
        {
            return CpuPinning.forThisHost().pinCurrentThread(cpu).toString();
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return "pinning to cpu " + cpu + " impossible: " + ex;
        }
    }

    /**
     * @param idleStrategy idle strategy instance; wins over the name.
     * @return this.
     */
    public RingwatchContext idleStrategy(final IdleStrategy idleStrategy)
    {
        requireOpen("idleStrategy");
        this.idleStrategy = idleStrategy;
        return this;
    }

    /**
     * @return idle strategy.
     */
    public IdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    /**
     * @param cpu CPU to pin the agent thread to, -1 for none.
     * @return this.
     */
    public RingwatchContext cpu(final int cpu)
    {
        requireOpen("cpu");
        this.cpu = cpu;
        return this;
    }

    /**
     * @return CPU or -1.
     */
    public int cpu()
    {
        return cpu;
    }

    /**
     * @param pinner how to pin.
     * @return this.
     */
    public RingwatchContext pinner(final ThreadPinner pinner)
    {
        requireOpen("pinner");
        this.pinner = pinner;
        return this;
    }

    /**
     * @return how to pin.
     */
    public ThreadPinner pinner()
    {
        return pinner;
    }

    /**
     * @param priority SCHED_FIFO priority 1..99 for the agent thread, or 0 to leave it in the ordinary class.
     * @return this.
     */
    public RingwatchContext realtimePriority(final int priority)
    {
        requireOpen("realtimePriority");
        this.realtimePriority = priority;
        return this;
    }

    /**
     * @return SCHED_FIFO priority of the agent thread, 0 for none.
     */
    public int realtimePriority()
    {
        return realtimePriority;
    }

    /**
     * @param n largest cluster in which every control publication is created before joining (0: never).
     * @return this.
     */
    public RingwatchContext preCreateAllUpTo(final int n)
    {
        requireOpen("preCreateAllUpTo");
        this.preCreateAllUpTo = n;
        return this;
    }

    /**
     * @return largest cluster in which every control publication is created before joining.
     */
    public int preCreateAllUpTo()
    {
        return preCreateAllUpTo;
    }

    /**
     * @param record true to record heartbeat emission error and duty-cycle lengths into the node's jitter file.
     * @return this.
     */
    public RingwatchContext jitterFile(final boolean record)
    {
        this.jitterFile = record;
        return this;
    }

    /**
     * @return whether the node keeps a jitter file.
     */
    public boolean jitterFile()
    {
        return jitterFile;
    }

    /**
     * @param preload whether to load the runtime's classes before joining (see {@link ClassPreloader}).
     * @return this.
     */
    public RingwatchContext preloadClasses(final boolean preload)
    {
        requireOpen("preloadClasses");
        this.preloadClasses = preload;
        return this;
    }

    /**
     * @return whether the runtime's classes are loaded before joining.
     */
    public boolean preloadClasses()
    {
        return preloadClasses;
    }

    /**
     * @param embedded true to launch a media driver in this process.
     * @return this.
     */
    public RingwatchContext embeddedDriver(final boolean embedded)
    {
        requireOpen("embeddedDriver");
        this.embeddedDriver = embedded;
        return this;
    }

    /**
     * @return true if a media driver is launched in this process: unless set, when every member of the cluster is on
     * one host (several hosts: each host's own driver).
     */
    public boolean embeddedDriver()
    {
        return embeddedDriver != null ? embeddedDriver : cluster == null || cluster.firstRankOnAnotherHost() < 0;
    }

    /**
     * @param dir Aeron directory: the driver's, and where slot and view files live.
     * @return this.
     */
    public RingwatchContext aeronDirectoryName(final String dir)
    {
        requireOpen("aeronDirectoryName");
        this.aeronDirectoryName = dir;
        return this;
    }

    /**
     * @return Aeron directory.
     */
    public String aeronDirectoryName()
    {
        return aeronDirectoryName;
    }

    /**
     * @param limit fragments per poll.
     * @return this.
     */
    public RingwatchContext fragmentLimit(final int limit)
    {
        requireOpen("fragmentLimit");
        this.fragmentLimit = limit;
        return this;
    }

    /**
     * @return fragments per poll.
     */
    public int fragmentLimit()
    {
        return fragmentLimit;
    }

    /**
     * @param bytes {@code SO_RCVBUF} to ask for on the UDP heartbeat socket.
     * @return this.
     */
    public RingwatchContext heartbeatReceiveBufferBytes(final int bytes)
    {
        requireOpen("heartbeatReceiveBufferBytes");
        this.heartbeatReceiveBufferBytes = bytes;
        return this;
    }

    /**
     * @return {@code SO_RCVBUF} asked for on the UDP heartbeat socket.
     */
    public int heartbeatReceiveBufferBytes()
    {
        return heartbeatReceiveBufferBytes;
    }

    /**
     * @return control stream id.
     */
    public int controlStreamId()
    {
        return controlStreamId;
    }

    /**
     * @param id control stream id.
     * @return this.
     */
    public RingwatchContext controlStreamId(final int id)
    {
        requireOpen("controlStreamId");
        this.controlStreamId = id;
        return this;
    }

    /**
     * @return heartbeat stream id.
     */
    public int heartbeatStreamId()
    {
        return heartbeatStreamId;
    }

    /**
     * @return term length of ringwatch publications.
     */
    public int termLength()
    {
        return termLength;
    }

    /**
     * @return retry queue capacity.
     */
    public int sendQueueCapacity()
    {
        return sendQueueCapacity;
    }

    /**
     * @param capacity retry queue capacity.
     * @return this.
     */
    public RingwatchContext sendQueueCapacity(final int capacity)
    {
        requireOpen("sendQueueCapacity");
        this.sendQueueCapacity = capacity;
        return this;
    }

    /**
     * @return retry timeout.
     */
    public long sendRetryTimeoutNs()
    {
        return sendRetryTimeoutNs;
    }

    /**
     * @param ns how long the media driver's heartbeat may stand still before the node stops as driver-lost
     *           ({@link RingwatchConfiguration#DRIVER_TIMEOUT_PROP_NAME}); default 10δ, at least 1 s; a driver whose
     *           process is gone is lost sooner.
     * @return this.
     */
    public RingwatchContext driverTimeoutNs(final long ns)
    {
        requireOpen("driverTimeoutNs");
        this.driverTimeoutNs = ns;
        return this;
    }

    /**
     * @return the driver timeout; after {@link #conclude()}, resolved.
     */
    public long driverTimeoutNs()
    {
        return driverTimeoutNs;
    }

    /**
     * @param clock the agent's clock; tests inject one.
     * @return this.
     */
    RingwatchContext nanoClock(final NanoClock clock)
    {
        requireOpen("nanoClock");
        this.nanoClock = clock;
        return this;
    }

    /**
     * @return the agent's clock.
     */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * @param mode who runs the agent once the node is built.
     * @return this.
     */
    public RingwatchContext threadingMode(final ThreadingMode mode)
    {
        requireOpen("threadingMode");
        this.threadingMode = mode;
        return this;
    }

    /**
     * @return who runs the agent once the node is built.
     */
    public ThreadingMode threadingMode()
    {
        return threadingMode;
    }

    /**
     * @param gate called by launch once the node is built and before its agent starts, e.g. to hold it at a start
     *             barrier with {@link RingwatchNode#holdUntil}; null for none.
     * @return this.
     */
    public RingwatchContext startGate(final RingwatchNode.StartGate gate)
    {
        requireOpen("startGate");
        this.startGate = gate;
        return this;
    }

    /**
     * @return the start gate, or null.
     */
    public RingwatchNode.StartGate startGate()
    {
        return startGate;
    }

    /**
     * Use the application's own Aeron client instead of connecting one: the node adds its publications, subscriptions
     * and counters through it and never closes it. Its directory is the node's {@link #aeronDirectoryName()} (the
     * driver's), and the driver is external. The client's conductor runs on the client's thread, so the node's agent
     * does not drive it; close the node before the client. Driver loss is still seen by the node's own watch of the
     * driver's heartbeat; the client's own errors go to the client's error handler.
     *
     * @param aeron a connected client.
     * @return this.
     */
    public RingwatchContext aeronClient(final Aeron aeron)
    {
        requireOpen("aeronClient");
        this.aeronClient = aeron;
        return this;
    }

    /**
     * @return the application's Aeron client, or null for a client of the node's own.
     */
    public Aeron aeronClient()
    {
        return aeronClient;
    }

    /**
     * @param handler told of the node's unexpected errors (its agent's, and its own Aeron client's) instead of their
     *                being logged; expected stops (a halted agent, a lost driver) are not errors.
     * @return this.
     */
    public RingwatchContext errorHandler(final ErrorHandler handler)
    {
        requireOpen("errorHandler");
        this.errorHandler = handler;
        return this;
    }

    /**
     * @return the error handler, or null to log errors through {@code System.Logger} "io.ringwatch.node".
     */
    public ErrorHandler errorHandler()
    {
        return errorHandler;
    }

    /**
     * @param listener application callbacks, on the agent thread.
     * @return this.
     */
    public RingwatchContext listener(final MembershipListener listener)
    {
        requireOpen("listener");
        this.listener = listener;
        return this;
    }

    /**
     * @return application callbacks.
     */
    public MembershipListener listener()
    {
        return listener;
    }

    /**
     * @param mode {@link AuthMode#REQUIRED} or {@link AuthMode#OFF}, overriding
     * {@value RingwatchConfiguration#AUTH_PROP_NAME}; when neither is set: required if a key file is, else
     * {@link #conclude()} refuses, naming both ways out ({@link AuthMode#EMBEDDED_KEY_REQUIRED}).
     * @return this.
     */
    public RingwatchContext authMode(final AuthMode mode)
    {
        requireOpen("authMode");
        this.authMode = mode;
        return this;
    }

    /**
     * @param verbs the RDMA verbs layer for {@link TransportMode#RDMA}; null (the default) uses DiSNI on this host's
     *              RDMA device. Another implementation replaces the hardware, as tests on hosts without RDMA do.
     * @return this.
     */
    RingwatchContext rdmaVerbs(final RdmaVerbs verbs)
    {
        requireOpen("rdmaVerbs");
        this.rdmaVerbs = verbs;
        return this;
    }

    /**
     * @return how frames are authenticated; resolved by {@link #conclude()}.
     */
    public AuthMode authMode()
    {
        return authMode;
    }

    /**
     * @param path the cluster keyring ({@link KeyFile}); setting one makes authentication required.
     * @return this.
     */
    public RingwatchContext authKeyFile(final Path path)
    {
        requireOpen("authKeyFile");
        this.authKeyFile = path;
        return this;
    }

    /**
     * @return the cluster keyring's path, or null.
     */
    public Path authKeyFile()
    {
        return authKeyFile;
    }

    /**
     * Signs and verifies this node's frames. Not thread safe: the node's agent thread uses it for both, and any other
     * thread takes {@link FrameAuthenticator#newInstance()}.
     *
     * @return the keyring loaded by {@link #conclude()}, or {@link FrameAuthenticator#NONE} with authentication off.
     */
    public FrameAuthenticator frameAuthenticator()
    {
        return frameAuthenticator;
    }

    /**
     * @return the {@link ConfigDigest} this node's frames carry and require, set by {@link #conclude()}.
     */
    public int configDigest()
    {
        return configDigest;
    }

    /**
     * @return the RDMA verbs layer, or null for DiSNI on this host's device.
     */
    RdmaVerbs rdmaVerbs()
    {
        return rdmaVerbs;
    }

    /**
     * @return which node this context describes, for messages.
     */
    public String toString()
    {
        return "RingwatchContext(rank " + rank + " of cluster " +
            (cluster != null ? Integer.toString(cluster.clusterId()) : String.valueOf(clusterFile)) + ")";
    }
}
