package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.HostCpus;
import io.ringwatch.nativeconfig.ProcessAffinity;
import io.ringwatch.perf.reproduce.Progress;
import io.ringwatch.transport.aeron.launch.NodeProcesses;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Measures what a running detector costs an application, configuration by configuration, by interleaved A/B runs:
 * the same loads without the detector (A) and with it (B), back to back, the side that goes first alternating from
 * pair to pair so a drift of the host (another tenant, thermal state) falls on both sides alike. A slowdown is a
 * ratio within one pair, so what the host did in between cancels; over the pairs it gets a 95 % interval.
 * <p>
 * Layout: this harness (and a shared spinning thread, when one is used) runs on the detector cores; the load worker
 * on the application cores; the detector where its {@link Placement} says. A detector is started afresh for each B
 * run and is up, past its grace and settled before the loads start, so JVM launches never fall in a window.
 */
public final class NoiseBenchmark
{
    /** A configuration gives up after this many failed cluster starts in a row. */
    static final int MAX_FAILED_STARTS_IN_A_ROW = 3;

    /**
     * Rough cost of starting and stopping one detector, beyond its grace and settle, for the plan: a fixed part and
     * one per node JVM. Measured: 1.5 s per pair of 2 nodes on this 2-core host when quiet, 3.3 s at load 16.
     */
    private static final long START_ESTIMATE_NS = TimeUnit.MILLISECONDS.toNanos(2_500);
    private static final long START_PER_NODE_ESTIMATE_NS = TimeUnit.MILLISECONDS.toNanos(500);

    /** Steady state: the warm-up is watched in this many equal steps (their thread counters make its curve). */
    private static final int WARM_UP_STEPS = 6;

    /** Freezing and thawing a detector, once per pair in steady state: a few {@code kill}s and a driver beat. */
    private static final long FREEZE_ESTIMATE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Starting the load worker and calibrating FWQ, once per run. */
    private static final long WORKER_ESTIMATE_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Rough length of one HPCC run at N = 4000 on this project's machines (its other kernels take most of it and
     * grow with N², as HPCC sizes them from HPL's memory), for the first ETA only.
     */
    private static final long HPCC_4000_ESTIMATE_NS = TimeUnit.SECONDS.toNanos(12);

    private final List<NoiseConfig> configs;
    private final NoiseSettings settings;
    private final HostLayout layout;
    private final Path workDir;
    private final PrintStream progress;
    private int clusterId = 500;
    private String dgemmUnavailable;
    private String hplUnavailable;
    private String blasLibrary;
    private long fwqQuantumNs;
    private Hpl hpl;
    private long timedAllocations;
    private long stopStartingAfterNs = Long.MAX_VALUE;

    /**
     * @param configs  configurations, in order.
     * @param settings how to measure.
     * @param layout   the host's cores.
     * @param workDir  scratch space (worker log, HPL files).
     * @param progress progress lines.
     */
    public NoiseBenchmark(
        final List<NoiseConfig> configs,
        final NoiseSettings settings,
        final HostLayout layout,
        final Path workDir,
        final PrintStream progress)
    {
        this.configs = List.copyOf(configs);
        this.settings = settings;
        this.layout = layout;
        this.workDir = workDir;
        this.progress = progress;
    }

    /**
     * Bound the run: a configuration not started within this long of the run's start is skipped as over budget.
     *
     * @param ns from {@link #run(Consumer)}'s start.
     * @return this.
     */
    public NoiseBenchmark stopStartingAfter(final long ns)
    {
        stopStartingAfterNs = ns;
        return this;
    }

    /**
     * @return the planned wall time, before anything ran, ns.
     */
    public long estimateNs()
    {
        long perSide = 0;
        perSide += settings.loads().contains(NoiseSettings.DGEMM) ? settings.runNs() : 0;
        perSide += settings.loads().contains(NoiseSettings.FWQ) ? settings.runNs() : 0;
        perSide += settings.loads().contains(NoiseSettings.HPL) && Hpl.detect(settings.hplN()).hpl() != null ?
            (long)(HPCC_4000_ESTIMATE_NS * Math.pow(settings.hplN() / 4000.0, 2)) : 0;
        long total = WORKER_ESTIMATE_NS;
        for (final NoiseConfig config : configs)
        {
            if (DetectorUnderTest.whyNotRunnable(config, layout, settings.cold()) == null)
            {
                final long start = START_ESTIMATE_NS + START_PER_NODE_ESTIMATE_NS * config.clusterSize() +
                    settings.graceNs();
                total += settings.cold() ? settings.pairs() * (2 * perSide + start + settings.settleNs()) :
                    start + settings.warmNs() + settings.pairs() * (2 * perSide + settings.settleNs() +
                    FREEZE_ESTIMATE_NS);
            }
        }
        return total;
    }

    /**
     * @param onConfigDone called after each configuration with everything so far (to rewrite the result files).
     * @return one outcome per configuration.
     * @throws IOException          if the work directory cannot be written.
     * @throws InterruptedException if interrupted; processes started are stopped first.
     */
    public List<ConfigOutcome> run(final Consumer<List<ConfigOutcome>> onConfigDone)
        throws IOException, InterruptedException
    {
        final long startNs = System.nanoTime();
        Files.createDirectories(workDir);
        final long self = ProcessHandle.current().pid();
        final BitSet original = HostCpus.probe().allowedCores();
        final ProcessAffinity.Result confined = ProcessAffinity.setProcess(self, layout.detectorCpus());
        if (!confined.applied())
        {
            progress.println("noise: could not confine this harness to " + CpuList.format(layout.detectorCpus()) +
                ": " + confined + " (it may disturb the application's cores)");
        }
        final List<ConfigOutcome> outcomes = new ArrayList<>();
        try (LoadClient worker = new LoadClient(classpath(), layout.appCpus(), settings.dgemmN(),
            settings.fwqQuantumNs(), settings.seed(), workDir.resolve("load-worker.log").toFile()))
        {
            dgemmUnavailable = settings.loads().contains(NoiseSettings.DGEMM) ? worker.dgemmUnavailable() : "not asked";
            blasLibrary = worker.blasLibrary();
            fwqQuantumNs = worker.fwqQuantumNs();
            if (settings.loads().contains(NoiseSettings.HPL))
            {
                final Hpl.Detection found = Hpl.detect(settings.hplN());
                hpl = found.hpl();
                hplUnavailable = found.reason();
            }
            else
            {
                hplUnavailable = "not asked (--loads)";
            }
            progress.printf(Locale.ROOT, "noise: load worker pid %d on cores %s; DGEMM %s; FWQ quantum %.1f µs " +
                "(%d iterations); HPL %s%n", worker.pid(), CpuList.format(layout.appCpus()),
                dgemmUnavailable == null ? "n=" + settings.dgemmN() + " via " + blasLibrary : "skipped: " +
                dgemmUnavailable, fwqQuantumNs / 1e3, worker.fwqIterations(),
                hpl != null ? hpl.describe() : "skipped: " + hplUnavailable);

            final Progress bar = new Progress(progress, "noise", (double)configs.size() * settings.pairs());
            for (final NoiseConfig config : configs)
            {
                if (System.nanoTime() - startNs > stopStartingAfterNs)
                {
                    final ConfigOutcome skipped = new ConfigOutcome(config);
                    final double load = loadAverage();
                    skipped.notRun("over budget: " + TimeUnit.NANOSECONDS.toMinutes(stopStartingAfterNs) +
                        " min had passed before it could start");
                    skipped.loads(load, load);
                    progress.println("[" + config.label() + "] not run: over budget");
                    bar.advance(settings.pairs(), config.label() + " not run (over budget)");
                    outcomes.add(skipped);
                }
                else
                {
                    outcomes.add(runConfig(config, worker, bar));
                }
                onConfigDone.accept(outcomes);
            }
            bar.finish();
        }
        finally
        {
            ProcessAffinity.setProcess(self, original);
        }
        return outcomes;
    }

    private ConfigOutcome runConfig(final NoiseConfig config, final LoadClient worker, final Progress bar)
        throws InterruptedException, IOException
    {
        final ConfigOutcome outcome = new ConfigOutcome(config);
        final double loadStart = loadAverage();
        final String whyNot = DetectorUnderTest.whyNotRunnable(config, layout, settings.cold());
        if (whyNot != null)
        {
            outcome.notRun(whyNot);
            outcome.loads(loadStart, loadStart);
            progress.println("[" + config.label() + "] not run: " + whyNot);
            bar.advance(settings.pairs(), config.label() + " not run");
            return outcome;
        }
        outcome.sharedThread(DetectorUnderTest.sharesOneThread(config, layout));
        if (!settings.cold())
        {
            runSteady(outcome, worker, bar);
            outcome.loads(loadStart, loadAverage());
            return outcome;
        }
        final int[] failedInARow = new int[1];
        runPairs(outcome, bar, new Sides()
        {
            public Measurement baseline() throws IOException, InterruptedException
            {
                return measure(worker);
            }

            public Detected detected() throws IOException, InterruptedException
            {
                try (DetectorUnderTest detector =
                    DetectorUnderTest.start(config, layout, settings, clusterId++, false))
                {
                    detector.notes().forEach(outcome::note);
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(settings.settleNs()));
                    failedInARow[0] = 0;
                    return measureWindow(detector, worker);
                }
                catch (final IllegalStateException ex)
                {
                    failedInARow[0]++;
                    return new Detected(null, null, "detector did not start: " + withoutLog(ex));
                }
            }

            public String giveUp(final String invalid)
            {
                return failedInARow[0] >= MAX_FAILED_STARTS_IN_A_ROW ?
                    "gave up after " + failedInARow[0] + " failed starts in a row" : null;
            }
        });
        outcome.loads(loadStart, loadAverage());
        return outcome;
    }

    /**
     * Steady state: one detector, started and left to run warm (up to {@link #MAX_FAILED_STARTS_IN_A_ROW} tries, a
     * try failing when the cluster does not come up or loses a node while warming), then every pair's A with all its
     * processes frozen and B with them running; a thaw is followed by the settle time so the resumed processes'
     * catching up falls in no window.
     */
    private void runSteady(final ConfigOutcome outcome, final LoadClient worker, final Progress bar)
        throws InterruptedException, IOException
    {
        final NoiseConfig config = outcome.config();
        DetectorUnderTest detector = null;
        for (int attempt = 1; detector == null && attempt <= MAX_FAILED_STARTS_IN_A_ROW; attempt++)
        {
            detector = startWarm(outcome, attempt);
        }
        if (detector == null)
        {
            outcome.note("gave up after " + MAX_FAILED_STARTS_IN_A_ROW + " failed starts in a row");
            bar.advance(settings.pairs(), config.label() + " gave up");
            return;
        }
        final int[] thaws = new int[1];
        final long[] pauses = new long[config.clusterSize()];
        try (DetectorUnderTest running = detector)
        {
            runPairs(outcome, bar, new Sides()
            {
                public Measurement baseline() throws IOException, InterruptedException
                {
                    final long[] pausesBefore = running.pausesDetected();
                    final Measurement a;
                    try
                    {
                        running.freeze();
                        a = measure(worker);
                    }
                    finally
                    {
                        running.thaw();
                    }
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(settings.settleNs()));
                    thaws[0]++;
                    addRise(pauses, pausesBefore, running.pausesDetected());
                    return a;
                }

                public Detected detected() throws IOException, InterruptedException
                {
                    return measureWindow(running, worker);
                }

                public String giveUp(final String invalid)
                {
                    return invalid != null && invalid.contains(" exited ") ?
                        "gave up: a node of the running detector exited" : null;
                }
            });
        }
        catch (final IOException ex)
        {
            // a process gone between two signals: the detector is broken, the benchmark goes on
            outcome.note("gave up: " + ex.getMessage());
            bar.advance(settings.pairs() - outcome.pairs().size(), config.label() + " gave up");
        }
        // a node whose first duty cycle after the thaw already finds its emitter's new beat re-arms on the beat
        // and counts no pause: either way its suspicion window starts afresh
        outcome.note(String.format(Locale.ROOT, "%d freeze(s) of every detector process%s; pauses the nodes " +
            "counted on waking, by rank: %s", thaws[0], outcome.validPairs() == outcome.pairs().size() ?
            ", and no node was declared dead or exited" : "", java.util.Arrays.toString(pauses)));
    }

    /**
     * @return the detector, up and warm with no node lost, or null (closed, with a note saying why).
     */
    private DetectorUnderTest startWarm(final ConfigOutcome outcome, final int attempt) throws InterruptedException
    {
        final NoiseConfig config = outcome.config();
        DetectorUnderTest detector = null;
        try
        {
            detector = DetectorUnderTest.start(config, layout, settings, clusterId++, true);
            detector.notes().forEach(outcome::note);
            progress.println("[" + config.label() + "] up; running warm for " +
                TimeUnit.NANOSECONDS.toSeconds(settings.warmNs()) + " s before the first pair");
            outcome.warmUp(warmUp(detector));
            final String health = detector.health();
            if (health == null)
            {
                return detector;
            }
            outcome.note("start " + attempt + ": while warming, " + health);
        }
        catch (final IllegalStateException ex)
        {
            outcome.note("start " + attempt + ": detector did not start: " + withoutLog(ex));
        }
        CloseHelper.quietClose(detector);
        return null;
    }

    /**
     * Run the detector warm, in {@link #WARM_UP_STEPS} steps, and say what its threads on the application's cores
     * did in each: how long after its start its cost settles.
     */
    private String warmUp(final DetectorUnderTest detector) throws InterruptedException
    {
        final StringBuilder sb = new StringBuilder();
        final long stepNs = settings.warmNs() / WARM_UP_STEPS;
        for (int step = 0; step < WARM_UP_STEPS; step++)
        {
            final var before = detector.threadSnapshot();
            final long startNs = System.nanoTime();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(stepNs));
            final ThreadActivity threads = detector.threadsSince(before, (System.nanoTime() - startNs) / 1e9);
            sb.append(String.format(Locale.ROOT, "%s%.1f–%.1f s: %.0f wake-ups/s, %.0f CPU µs/s",
                step == 0 ? "" : "; ", step * stepNs / 1e9, (step + 1) * stepNs / 1e9,
                threads.wakeUpsPerSecondOn(layout.appCpus()), threads.cpuMicrosPerSecondOn(layout.appCpus())));
        }
        return sb.toString();
    }

    private static void addRise(final long[] sum, final long[] before, final long[] after)
    {
        for (int r = 0; r < sum.length; r++)
        {
            sum[r] = before[r] < 0 || after[r] < 0 ? -1 : sum[r] < 0 ? -1 : sum[r] + after[r] - before[r];
        }
    }

    /**
     * One pair's two sides, as a mode measures them.
     */
    private interface Sides
    {
        /**
         * @return A: the loads without the detector's cost.
         */
        Measurement baseline() throws IOException, InterruptedException;

        /**
         * @return B: the loads with the detector running.
         */
        Detected detected() throws IOException, InterruptedException;

        /**
         * @param invalid why the pair just measured is invalid, or null.
         * @return why to measure no more pairs, or null to go on.
         */
        String giveUp(String invalid);
    }

    /**
     * B's side of a pair.
     *
     * @param b       the measurement, null if the detector did not run.
     * @param window  what the detector recorded, null if it did not run.
     * @param invalid null for a usable B, else why not.
     */
    private record Detected(Measurement b, DetectorUnderTest.Window window, String invalid)
    {
    }

    /**
     * The pairs of one configuration, A first in every other one.
     */
    private void runPairs(final ConfigOutcome outcome, final Progress bar, final Sides sides)
        throws IOException, InterruptedException
    {
        final String label = outcome.config().label();
        for (int i = 0; i < settings.pairs(); i++)
        {
            final boolean baselineFirst = ((i + settings.seed()) & 1) == 0;
            Measurement a = null;
            Detected b = null;
            for (int side = 0; side < 2; side++)
            {
                if ((side == 0) == baselineFirst)
                {
                    a = sides.baseline();
                }
                else
                {
                    b = sides.detected();
                }
            }
            if (b.invalid() != null)
            {
                outcome.note("pair " + i + ": " + b.invalid());
            }
            outcome.add(new PairResult(i, baselineFirst, a, b.b(), b.window(), b.invalid()));
            bar.advance(1, label + " pair " + (i + 1) + "/" + settings.pairs() + pairSummary(outcome));
            final String giveUp = sides.giveUp(b.invalid());
            if (giveUp != null)
            {
                outcome.note(giveUp);
                bar.advance(settings.pairs() - i - 1, label + " gave up");
                break;
            }
        }
    }

    private Detected measureWindow(final DetectorUnderTest detector, final LoadClient worker)
        throws IOException, InterruptedException
    {
        detector.beginWindow();
        final Measurement b = measure(worker);
        final DetectorUnderTest.Window window = detector.endWindow();
        return new Detected(b, window, window.health() == null ? null : "during B: " + window.health());
    }

    private static String withoutLog(final IllegalStateException ex)
    {
        final String message = String.valueOf(ex.getMessage());
        final int log = message.indexOf(NodeProcesses.LOG_MARK);
        return log > 0 ? message.substring(0, log) : message;
    }

    private static String pairSummary(final ConfigOutcome outcome)
    {
        final PairResult last = outcome.pairs().get(outcome.pairs().size() - 1);
        if (!last.valid())
        {
            return " (invalid)";
        }
        final StringBuilder sb = new StringBuilder();
        final double[] values = {last.dgemmSlowdown(), last.fwqSlowdown(), last.hplSlowdown()};
        final String[] names = {"dgemm", "fwq", "hpl"};
        for (int i = 0; i < values.length; i++)
        {
            if (!Double.isNaN(values[i]))
            {
                sb.append(String.format(Locale.ROOT, " %s %+.2f%%", names[i], 100 * values[i]));
            }
        }
        return sb.toString();
    }

    private Measurement measure(final LoadClient worker) throws InterruptedException, IOException
    {
        double gflops = Double.NaN;
        org.HdrHistogram.Histogram calls = null;
        org.HdrHistogram.Histogram fwq = null;
        double fwqCoreSeconds = Double.NaN;
        double hplGflops = Double.NaN;
        if (dgemmUnavailable == null)
        {
            final LoadClient.DgemmRun run = worker.dgemm(settings.runNs());
            gflops = run.gflops();
            calls = run.callTimes();
            timedAllocations += run.allocatedBytes();
        }
        if (settings.loads().contains(NoiseSettings.FWQ))
        {
            final LoadClient.FwqRun run = worker.fwq(settings.runNs());
            fwq = run.quanta();
            fwqCoreSeconds = run.elapsedNs() / 1e9 * layout.appCpus().cardinality();
            timedAllocations += run.allocatedBytes();
        }
        if (hpl != null)
        {
            hplGflops = hpl.run(layout.appCpus(), workDir.resolve("hpl"), layout.detectorCpus(),
                TimeUnit.MINUTES.toNanos(30));
        }
        return new Measurement(gflops, calls, fwq, fwqCoreSeconds, hplGflops, loadAverage());
    }

    private String classpath()
    {
        // under surefire java.class.path is the whole test classpath too (useManifestOnlyJar=false in the root pom)
        return settings.classpath() != null ? settings.classpath() : System.getProperty("java.class.path");
    }

    /**
     * @param config a configuration.
     * @param layout the cores given.
     * @param cold   fresh starts rather than steady state.
     * @return null if the layout can give the configuration its placement, else why not.
     */
    public static String whyNotRunnable(final NoiseConfig config, final HostLayout layout, final boolean cold)
    {
        return DetectorUnderTest.whyNotRunnable(config, layout, cold);
    }

    /**
     * @return why DGEMM did not run, or null.
     */
    public String dgemmUnavailable()
    {
        return dgemmUnavailable;
    }

    /**
     * @return bytes the load worker's timed loops allocated over the whole run (they should allocate none).
     */
    public long timedAllocations()
    {
        return timedAllocations;
    }

    /**
     * @return why HPL did not run, or null.
     */
    public String hplUnavailable()
    {
        return hplUnavailable;
    }

    /**
     * @return the BLAS library the worker loaded.
     */
    public String blasLibrary()
    {
        return blasLibrary;
    }

    /**
     * @return median FWQ quantum at calibration, ns.
     */
    public long fwqQuantumNs()
    {
        return fwqQuantumNs;
    }

    /**
     * @param outcomes a run's outcomes.
     * @return true if every configuration that could run here got at least 2 valid pairs (an interval).
     */
    public static boolean allMeasured(final List<ConfigOutcome> outcomes)
    {
        return outcomes.stream().allMatch(o -> o.notRun() != null || o.validPairs() >= 2);
    }

    /**
     * @return the host's 1-minute load average, NaN when unknown.
     */
    public static double loadAverage()
    {
        try
        {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        }
        catch (final IOException | RuntimeException ex)
        {
            return Double.NaN;
        }
    }
}
