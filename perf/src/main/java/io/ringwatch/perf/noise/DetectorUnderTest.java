package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.ProcessAffinity;
import io.ringwatch.perf.live.LiveCluster;
import io.ringwatch.perf.live.ProcessCluster;
import io.ringwatch.perf.live.SharedThreadCluster;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.aeron.CncFileDescriptor;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.jitter.JitterLayout;
import io.ringwatch.transport.aeron.jitter.JitterReader;
import io.ringwatch.transport.aeron.jitter.JitterSnapshot;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One running detector for one B run: a cluster of real node processes and a real driver process
 * ({@link LocalCluster}), placed on cores by {@link Placement}; or, for the low-latency profile on a host with fewer
 * spare cores than agents, the detection benchmark's shared spinning thread on the last core. Ranks
 * {@code 0..k-1} are this host's nodes; rank {@code k}, the peer, stands for the rest of the cluster and stays on
 * the detector's cores.
 */
final class DetectorUnderTest implements AutoCloseable
{
    /** Driver timeouts a freeze of every detector process would otherwise run out. */
    private static final List<String> FREEZE_SAFE_TIMEOUTS = List.of(
        "aeron.client.liveness.timeout", "aeron.image.liveness.timeout", "aeron.publication.connection.timeout");

    /** Above any A run, HPL's included. */
    private static final String FREEZE_TIMEOUT = "3600s";

    /** How long a thawed driver has to stamp its heartbeat before its nodes are let go. */
    private static final long DRIVER_THAW_TIMEOUT_MS = 10_000;

    /** A driver heartbeat this fresh is one stamped since the thaw (its timers run every 10 ms). */
    private static final long FRESH_HEARTBEAT_MS = 100;

    private final NoiseConfig config;
    private final LiveCluster cluster;
    private final LocalCluster host;
    private final List<String> notes = new ArrayList<>();
    private final JitterReader[] readers;
    private JitterSnapshot[] emissionBefore;
    private JitterSnapshot[] dutyBefore;
    private JitterSnapshot[] idleBefore;
    private final List<Map<Long, ThreadSample>> threadsBefore = new ArrayList<>();
    private long windowStartNs;
    private ManyToOneRingBuffer toDriver;
    private MappedByteBuffer cnc;
    private CountersReader counters;
    private boolean frozen;

    /**
     * What the host's nodes recorded during a window, and whether the cluster stayed whole.
     *
     * @param emission  heartbeat emission error, ns, all of this host's nodes.
     * @param dutyCycle duty-cycle lengths, ns.
     * @param idleGap   gaps after duty cycles that found no work (the idle strategy's sleeps), ns.
     * @param nodeSeconds the window's length times this host's nodes, s.
     * @param threads   what every thread of every detector process (this host's nodes, the peer, the driver) did.
     * @param health    null when every node ran and nobody was declared dead, else what went wrong.
     */
    record Window(
        Histogram emission, Histogram dutyCycle, Histogram idleGap, double nodeSeconds, ThreadActivity threads,
        String health)
    {
        /**
         * @return idle gaps of {@link JitterLayout#WAKE_UP_MIN_NS} or more: wake-ups from sleep.
         */
        long wakeUps()
        {
            return idleGap.getTotalCount() - idleGap.getCountBetweenValues(0, JitterLayout.WAKE_UP_MIN_NS - 1);
        }
    }

    private DetectorUnderTest(final NoiseConfig config, final LiveCluster cluster, final LocalCluster host)
    {
        this.config = config;
        this.cluster = cluster;
        this.host = host;
        this.readers = new JitterReader[config.nodesPerHost()];
    }

    /**
     * @param config     what to run.
     * @param layout     the host's cores.
     * @param settings   grace, priority, timeouts, classpath.
     * @param clusterId  distinct per start.
     * @param freezable  true to set the media driver's timeouts so that {@link #freeze()} harms nobody.
     * @return the detector, up and past its grace, placed.
     * @throws IllegalStateException if the cluster fails to come up.
     */
    static DetectorUnderTest start(
        final NoiseConfig config,
        final HostLayout layout,
        final NoiseSettings settings,
        final int clusterId,
        final boolean freezable)
        throws InterruptedException
    {
        final boolean lowLatency = "low-latency".equals(config.placement().profile());
        final List<String> jvm = new ArrayList<>(new LocalCluster.Options().jvmOptions());
        jvm.add("-D" + RingwatchConfiguration.JITTER_FILE_PROP_NAME + "=true");
        if (freezable)
        {
            // a frozen client sends no keepalive and a frozen peer no frame: the driver, woken first on a thaw, must
            // not time out either (the nodes' own pause guard covers their side)
            for (final String timeout : FREEZE_SAFE_TIMEOUTS)
            {
                jvm.add("-D" + timeout + "=" + FREEZE_TIMEOUT);
            }
        }
        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(config.clusterSize())
            .transport(config.transport())
            .heartbeatPeriodNs(config.heartbeatPeriodNs())
            .suspicionTimeoutNs(config.suspicionTimeoutNs())
            .graceNs(settings.graceNs())
            .profile(config.placement().profile())
            .realtimePriority(lowLatency ? 0 : settings.realtimePriority())
            .clusterId(clusterId)
            .jvmOptions(jvm);
        if (settings.classpath() != null)
        {
            options.classpath(settings.classpath());
        }
        final boolean shared = sharesOneThread(config, layout);
        final LocalCluster host = new LocalCluster(options);
        final LiveCluster cluster = shared ?
            new SharedThreadCluster(host, true, layout.detectorCpus().length() - 1) : new ProcessCluster(host);
        final DetectorUnderTest detector = new DetectorUnderTest(config, cluster, host);
        try
        {
            cluster.start();
            detector.place(layout, shared);
            if (!cluster.awaitAllUp(TimeUnit.NANOSECONDS.toMillis(settings.startTimeoutNs())))
            {
                throw new IllegalStateException("cluster not up within " +
                    TimeUnit.NANOSECONDS.toSeconds(settings.startTimeoutNs()) + " s");
            }
            // again: threads the JVMs started since the first pass
            detector.place(layout, shared);
            detector.checkPlacement(layout, shared);
            if (cluster.hosting() != null)
            {
                detector.notes.add(cluster.hosting());
            }
            for (int r = 0; r < config.nodesPerHost(); r++)
            {
                detector.readers[r] = new JitterReader(
                    JitterLayout.fileFor(host.aeronDir().getAbsolutePath(), clusterId, r));
            }
            if (freezable)
            {
                detector.cnc = IoUtil.mapExistingFile(
                    new File(host.aeronDir(), CncFileDescriptor.CNC_FILE), "cnc");
                final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(detector.cnc);
                detector.toDriver =
                    new ManyToOneRingBuffer(CncFileDescriptor.createToDriverBuffer(detector.cnc, meta));
                detector.counters = new CountersReader(
                    CncFileDescriptor.createCountersMetaDataBuffer(detector.cnc, meta),
                    CncFileDescriptor.createCountersValuesBuffer(detector.cnc, meta));
            }
            return detector;
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            detector.close();
            throw ex;
        }
    }

    /**
     * @param config what to run.
     * @param layout the cores given.
     * @param cold   fresh starts: low-latency agents may then take turns on one spinning thread in this JVM, which
     *               steady state (it freezes processes) cannot do.
     * @return null if the configuration can run on this layout, else why not.
     */
    static String whyNotRunnable(final NoiseConfig config, final HostLayout layout, final boolean cold)
    {
        if (!cold && sharesOneThread(config, layout))
        {
            return "low-latency on cores of its own needs one spare core per spinning agent (" + config.clusterSize() +
                ": this host's " + config.nodesPerHost() + " and the peer), the cores given leave " +
                layout.detectorCpus().cardinality() + " (" + CpuList.format(layout.detectorCpus()) + ") beside the " +
                "application's; refused rather than shared (--cold shares one spinning thread)";
        }
        if (config.placement() == Placement.LOW_LATENCY_APP_CORE &&
            config.nodesPerHost() > layout.appCpus().cardinality())
        {
            return "one spinning agent per application core needs " + config.nodesPerHost() + " application cores, " +
                "this layout has " + layout.appCpus().cardinality();
        }
        return null;
    }

    /**
     * Low-latency on its own cores needs one per agent, the peer's included; with fewer, every agent takes turns on
     * one spinning thread pinned to the last detector core (in this JVM), as the detection benchmark does.
     */
    static boolean sharesOneThread(final NoiseConfig config, final HostLayout layout)
    {
        return config.placement() == Placement.LOW_LATENCY_OWN_CORE &&
            config.clusterSize() > layout.detectorCpus().cardinality();
    }

    private BitSet nodeCpus(final int rank, final HostLayout layout)
    {
        if (rank == config.nodesPerHost())
        {
            return config.placement() == Placement.LOW_LATENCY_OWN_CORE ?
                HostLayout.single(layout.detectorCpu(rank)) : layout.detectorCpus();
        }
        return switch (config.placement())
        {
            case LOW_NOISE_SHARED, LOW_NOISE_DRIVER_APART -> layout.appCpus();
            case LOW_LATENCY_APP_CORE -> HostLayout.single(layout.appCpu(rank));
            case LOW_LATENCY_OWN_CORE -> HostLayout.single(layout.detectorCpu(rank));
        };
    }

    private BitSet driverCpus(final HostLayout layout)
    {
        return config.placement() == Placement.LOW_NOISE_SHARED ? layout.appCpus() : layout.detectorCpus();
    }

    private void place(final HostLayout layout, final boolean shared)
    {
        final Optional<ProcessHandle> driver = driver();
        if (driver.isPresent())
        {
            placeProcess("driver", driver.get().pid(), driverCpus(layout));
        }
        else
        {
            notes.add("driver process not found among this JVM's children: not placed");
        }
        if (!shared)
        {
            for (int r = 0; r < config.clusterSize(); r++)
            {
                placeProcess("node " + r, host.process(r).pid(), nodeCpus(r, layout));
            }
        }
    }

    private void placeProcess(final String what, final long pid, final BitSet cpus)
    {
        final ProcessAffinity.Result result = ProcessAffinity.setProcess(pid, cpus);
        if (!result.applied())
        {
            notes.add(what + " not placed on " + CpuList.format(cpus) + ": " + result);
        }
    }

    private void checkPlacement(final HostLayout layout, final boolean shared)
    {
        driver().ifPresent(d -> checkProcess("driver", d.pid(), driverCpus(layout)));
        if (!shared)
        {
            for (int r = 0; r < config.clusterSize(); r++)
            {
                checkProcess("node " + r, host.process(r).pid(), nodeCpus(r, layout));
            }
        }
    }

    private void checkProcess(final String what, final long pid, final BitSet cpus)
    {
        final String outside = ProcessAffinity.threadsOutside(pid, cpus);
        if (!outside.isEmpty())
        {
            notes.add(what + " has threads outside " + CpuList.format(cpus) + ": " + outside);
        }
    }

    /**
     * The driver {@link LocalCluster} launched: the child of this JVM running {@code driver} on this cluster's
     * Aeron directory.
     */
    private Optional<ProcessHandle> driver()
    {
        final String dirArg = "-Daeron.dir=" + host.aeronDir().getAbsolutePath();
        return ProcessHandle.current().children().filter(p ->
        {
            final List<String> args = List.of(p.info().arguments().orElse(new String[0]));
            return args.contains(dirArg) && args.contains("driver");
        }).findFirst();
    }

    /**
     * @return every process of the detector by name: this host's nodes, the peer, the driver; none for a shared
     * thread in this JVM.
     */
    private Map<String, Long> processes()
    {
        final Map<String, Long> pids = new LinkedHashMap<>();
        if (!(cluster instanceof SharedThreadCluster))
        {
            for (int r = 0; r < config.clusterSize(); r++)
            {
                pids.put(r == config.nodesPerHost() ? "peer" : "node " + r, host.process(r).pid());
            }
        }
        pids.put("driver", host.driverPid());
        return pids;
    }

    /**
     * SIGSTOP every node (this host's and the peer) and then the driver, in one {@code kill}: within microseconds of
     * each other, so no node sees another stop while it still runs. The baseline then runs on a host where the
     * detector holds memory but takes no CPU, cache or wake-up.
     *
     * @throws IOException          if {@code kill} fails.
     * @throws InterruptedException if interrupted.
     */
    void freeze() throws IOException, InterruptedException
    {
        if (toDriver == null)
        {
            throw new IllegalStateException("not started freezable");
        }
        signal("STOP", new ArrayList<>(processes().values()));
        frozen = true;
    }

    /**
     * SIGCONT the driver, wait until it has stamped a fresh heartbeat (else a node waking first would take its
     * driver for hung), then every node at once: each finds its next duty cycle late past its pause threshold and
     * starts its emitter's suspicion deadline afresh instead of blaming it for the freeze.
     *
     * @throws IOException          if {@code kill} fails or the driver does not beat again.
     * @throws InterruptedException if interrupted.
     */
    void thaw() throws IOException, InterruptedException
    {
        final List<Long> pids = new ArrayList<>(processes().values());
        final long driverPid = pids.remove(pids.size() - 1);
        signal("CONT", List.of(driverPid));
        final long deadline = System.currentTimeMillis() + DRIVER_THAW_TIMEOUT_MS;
        long age;
        while ((age = driverHeartbeatAgeMs(System.currentTimeMillis())) > FRESH_HEARTBEAT_MS || age < 0)
        {
            if (System.currentTimeMillis() > deadline)
            {
                signal("CONT", pids);
                frozen = false;
                throw new IOException("the thawed driver did not beat within " + DRIVER_THAW_TIMEOUT_MS + " ms");
            }
            Thread.sleep(1);
        }
        signal("CONT", pids);
        frozen = false;
    }

    /**
     * @return ms since the driver's conductor last stamped its heartbeat into the CnC file, -1 once it has closed.
     */
    private long driverHeartbeatAgeMs(final long nowMs)
    {
        final long beatMs = toDriver.consumerHeartbeatTime();
        return beatMs < 0 ? -1 : nowMs - beatMs;
    }

    /**
     * @return by rank (this host's nodes and the peer), the late duty cycles each node took for a pause of its own
     * and restarted its suspicion window for ({@link NodeCounter#PAUSES_DETECTED}), as its counter says; -1 for a
     * node whose counter is not found.
     */
    long[] pausesDetected()
    {
        final long[] pauses = new long[config.clusterSize()];
        java.util.Arrays.fill(pauses, -1);
        final int clusterId = host.options().clusterId();
        counters.forEach((counterId, typeId, key, label) ->
        {
            final int rank = key.getInt(Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
            if (typeId == NodeCounter.PAUSES_DETECTED.typeId() &&
                key.getInt(0, ByteOrder.LITTLE_ENDIAN) == clusterId && rank >= 0 && rank < pauses.length)
            {
                pauses[rank] = counters.getCounterValue(counterId);
            }
        });
        return pauses;
    }

    private static void signal(final String signal, final List<Long> pids) throws IOException, InterruptedException
    {
        final List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        final Process kill = new ProcessBuilder(cmd).inheritIO().start();
        if (kill.waitFor() != 0)
        {
            throw new IOException(String.join(" ", cmd) + " failed");
        }
    }

    /**
     * @return every detector process's threads now, in {@link #processes()}' order.
     */
    List<Map<Long, ThreadSample>> threadSnapshot()
    {
        final List<Map<Long, ThreadSample>> snapshot = new ArrayList<>();
        for (final long pid : processes().values())
        {
            snapshot.add(ThreadActivity.snapshot(pid));
        }
        return snapshot;
    }

    /**
     * @param before  {@link #threadSnapshot()} at the start.
     * @param seconds time since.
     * @return what every thread did since.
     */
    ThreadActivity threadsSince(final List<Map<Long, ThreadSample>> before, final double seconds)
    {
        final ThreadActivity threads = new ThreadActivity();
        int i = 0;
        for (final Map.Entry<String, Long> process : processes().entrySet())
        {
            threads.add(process.getKey(), before.get(i++), ThreadSample.ofProcess(process.getValue()));
        }
        threads.addSeconds(seconds);
        return threads;
    }

    /**
     * Start of a measured window.
     */
    void beginWindow()
    {
        threadsBefore.clear();
        threadsBefore.addAll(threadSnapshot());
        emissionBefore = new JitterSnapshot[readers.length];
        dutyBefore = new JitterSnapshot[readers.length];
        idleBefore = new JitterSnapshot[readers.length];
        windowStartNs = System.nanoTime();
        for (int r = 0; r < readers.length; r++)
        {
            emissionBefore[r] = readers[r].snapshot(JitterLayout.EMISSION_ERROR);
            dutyBefore[r] = readers[r].snapshot(JitterLayout.DUTY_CYCLE);
            idleBefore[r] = readers[r].snapshot(JitterLayout.IDLE_GAP);
        }
    }

    /**
     * @return what the host's nodes recorded since {@link #beginWindow()}.
     */
    Window endWindow()
    {
        final Histogram emission = NoiseStats.newHistogram();
        final Histogram duty = NoiseStats.newHistogram();
        final Histogram idle = NoiseStats.newHistogram();
        for (int r = 0; r < readers.length; r++)
        {
            NoiseStats.add(emission, readers[r].snapshot(JitterLayout.EMISSION_ERROR).minus(emissionBefore[r]));
            NoiseStats.add(duty, readers[r].snapshot(JitterLayout.DUTY_CYCLE).minus(dutyBefore[r]));
            NoiseStats.add(idle, readers[r].snapshot(JitterLayout.IDLE_GAP).minus(idleBefore[r]));
        }
        final double seconds = (System.nanoTime() - windowStartNs) / 1e9;
        final ThreadActivity threads = threadsSince(threadsBefore, seconds);
        return new Window(emission, duty, idle, seconds * readers.length, threads, health());
    }

    String health()
    {
        for (int r = 0; r < config.clusterSize(); r++)
        {
            final String stopped = cluster.stopped(r);
            if (stopped != null)
            {
                return "node " + r + " " + stopped;
            }
            final ViewSnapshot view = cluster.view(r);
            if (view.deadCount() > 0)
            {
                return "node " + r + " holds " + view.deadCount() + " live node(s) dead";
            }
        }
        return null;
    }

    /**
     * @return placement problems and how the nodes are hosted.
     */
    List<String> notes()
    {
        return notes;
    }

    public void close()
    {
        if (frozen)
        {
            try
            {
                thaw();
            }
            catch (final IOException | InterruptedException ex)
            {
                // closing stops them anyway; a stopped process still takes SIGKILL
            }
        }
        if (cnc != null)
        {
            IoUtil.unmap(cnc);
        }
        CloseHelper.quietCloseAll(readers);
        cluster.close();
    }
}
