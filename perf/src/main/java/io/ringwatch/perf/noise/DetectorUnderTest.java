package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.ProcessAffinity;
import io.ringwatch.perf.live.LiveCluster;
import io.ringwatch.perf.live.ProcessCluster;
import io.ringwatch.perf.live.SharedThreadCluster;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.internal.jitter.JitterLayout;
import io.ringwatch.transport.aeron.internal.jitter.JitterReader;
import io.ringwatch.transport.aeron.internal.jitter.JitterSnapshot;
import io.ringwatch.transport.aeron.internal.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
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
    private final NoiseConfig config;
    private final LiveCluster cluster;
    private final LocalCluster host;
    private final List<String> notes = new ArrayList<>();
    private final JitterReader[] readers;
    private JitterSnapshot[] emissionBefore;
    private JitterSnapshot[] dutyBefore;
    private JitterSnapshot[] idleBefore;
    private long windowStartNs;

    /**
     * What the host's nodes recorded during a window, and whether the cluster stayed whole.
     *
     * @param emission  heartbeat emission error, ns, all of this host's nodes.
     * @param dutyCycle duty-cycle lengths, ns.
     * @param idleGap   gaps after duty cycles that found no work (the idle strategy's sleeps), ns.
     * @param nodeSeconds the window's length times this host's nodes, s.
     * @param health    null when every node ran and nobody was declared dead, else what went wrong.
     */
    record Window(Histogram emission, Histogram dutyCycle, Histogram idleGap, double nodeSeconds, String health)
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
     * @return the detector, up and past its grace, placed.
     * @throws IllegalStateException if the cluster fails to come up.
     */
    static DetectorUnderTest start(
        final NoiseConfig config, final HostLayout layout, final NoiseSettings settings, final int clusterId)
        throws InterruptedException
    {
        final boolean lowLatency = "low-latency".equals(config.placement().profile());
        final List<String> jvm = new ArrayList<>(new LocalCluster.Options().jvmOptions());
        jvm.add("-D" + RingwatchConfiguration.JITTER_FILE_PROP_NAME + "=true");
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
            return detector;
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            detector.close();
            throw ex;
        }
    }

    /**
     * @return null if the configuration can run on this layout, else why not.
     */
    static String whyNotRunnable(final NoiseConfig config, final HostLayout layout)
    {
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
     * Start of a measured window.
     */
    void beginWindow()
    {
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
        final double nodeSeconds = (System.nanoTime() - windowStartNs) / 1e9 * readers.length;
        return new Window(emission, duty, idle, nodeSeconds, health());
    }

    private String health()
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
        CloseHelper.quietCloseAll(readers);
        cluster.close();
    }
}
