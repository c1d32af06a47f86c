package io.ringwatch.perf.noise;

import io.ringwatch.core.config.Durations;
import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.QuietHost;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.perf.reproduce.Chart;
import io.ringwatch.perf.reproduce.CsvTable;
import io.ringwatch.perf.reproduce.MarkdownTable;
import io.ringwatch.transport.aeron.TransportMode;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Writes the noise benchmark's results: {@code noise.md} (tables, host facts, targets, comparison with the
 * papers), {@code noise.csv} (one row per configuration), {@code noise-pairs.csv} (every pair) and the plots.
 */
public final class NoiseReport
{
    private static final double[] FWQ_PERCENTILES = {50, 99, 99.9, 99.99};

    private final String commandLine;
    private final NoiseSettings settings;
    private final HostLayout layout;
    private final NoiseBenchmark benchmark;
    private final String startedAt;
    private final boolean quick;
    private final int totalConfigs;

    /**
     * @param commandLine how the run was started.
     * @param settings    how it measured.
     * @param layout      the host's cores.
     * @param benchmark   the run (for what it found about DGEMM, HPL and FWQ).
     * @param startedAt   ISO time of the start.
     * @param quick       true for a {@code --quick} run, which the report says loudly.
     * @param totalConfigs configurations planned.
     */
    public NoiseReport(
        final String commandLine,
        final NoiseSettings settings,
        final HostLayout layout,
        final NoiseBenchmark benchmark,
        final String startedAt,
        final boolean quick,
        final int totalConfigs)
    {
        this.totalConfigs = totalConfigs;
        this.commandLine = commandLine;
        this.settings = settings;
        this.layout = layout;
        this.benchmark = benchmark;
        this.startedAt = startedAt;
        this.quick = quick;
    }

    /**
     * @param outcomes configurations done so far.
     * @param dir      output directory.
     * @throws IOException on write failure.
     */
    public void write(final List<ConfigOutcome> outcomes, final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("noise.md"), markdown(outcomes), StandardCharsets.UTF_8);
        summaryCsv(outcomes).write(dir.resolve("noise.csv"));
        pairsCsv(outcomes).write(dir.resolve("noise-pairs.csv"));
        plots(outcomes, dir);
    }

    /**
     * @param outcomes configurations.
     * @return the main table alone, for the console.
     */
    public String slowdownTable(final List<ConfigOutcome> outcomes)
    {
        final MarkdownTable t = new MarkdownTable("configuration", "pairs (invalid)", "DGEMM GFLOP/s A → B",
            "DGEMM slowdown % [95 % CI]", "HPL slowdown % [95 % CI]", "FWQ mean slowdown % [95 % CI]",
            "FWQ events > A's p99.9, extra per core·s [95 % CI]", "load avg start → end");
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null)
            {
                t.row(o.label(), "not run: " + o.notRun(), "", "", "", "", "", "");
                continue;
            }
            t.row(o.label(), o.validPairs() + " (" + o.invalidPairs() + ")",
                Double.isNaN(o.meanOf(Measurement::dgemmGflops, true)) ? "–" : f("%.2f → %.2f",
                    o.meanOf(Measurement::dgemmGflops, true), o.meanOf(Measurement::dgemmGflops, false)),
                percent(o.dgemm()), percent(o.hpl()), percent(o.fwq()), plain(o.fwqExcess()),
                f("%.2f → %.2f", o.loadAtStart(), o.loadAtEnd()));
        }
        return t.toString();
    }

    /**
     * @param outcomes configurations.
     * @return the emitter's jitter table.
     */
    public String jitterTable(final List<ConfigOutcome> outcomes)
    {
        final MarkdownTable t = new MarkdownTable("configuration", "beats", "emission error p50 / p99 / p99.9 / max (µs)",
            "duty cycles", "duty cycle p50 / p99 / p99.9 / max (µs)", "wake-ups/s per agent");
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.validPairs() == 0)
            {
                continue;
            }
            final Histogram e = o.emissionPooled();
            final Histogram d = o.dutyCyclePooled();
            t.row(o.label(), Long.toString(e.getTotalCount()), percentiles(e), Long.toString(d.getTotalCount()),
                percentiles(d), String.format(Locale.ROOT, "%.0f", o.wakeUpsPerNodeSecond()));
        }
        return t.toString();
    }

    /**
     * @param outcomes configurations.
     * @return per configuration, its slowdown and what each thread of the detector's processes did during B.
     */
    public String threadTables(final List<ConfigOutcome> outcomes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.validPairs() == 0)
            {
                continue;
            }
            final ThreadActivity threads = o.threads();
            sb.append(f("%s: DGEMM slowdown %s, FWQ %s%n", o.label(), percent(o.dgemm()), percent(o.fwq())));
            if (o.warmUp() != null)
            {
                sb.append(f("  warming up, on the application's cores: %s%n", o.warmUp()));
            }
            sb.append(threads.seconds() > 0 ? threads.table(layout.appCpus()) : "  (no thread counters)\n");
            sb.append('\n');
        }
        return sb.toString();
    }

    private String fwqTable(final List<ConfigOutcome> outcomes)
    {
        final MarkdownTable t = new MarkdownTable("configuration", "side", "quanta", "p50 (µs)", "p99 (µs)",
            "p99.9 (µs)", "p99.99 (µs)", "max (µs)");
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.validPairs() == 0 || o.fwqPooled(true).getTotalCount() == 0)
            {
                continue;
            }
            for (final boolean baseline : new boolean[]{true, false})
            {
                final Histogram h = o.fwqPooled(baseline);
                t.row(o.label(), baseline ? "A (none)" : "B (detector)", Long.toString(h.getTotalCount()),
                    us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
                    us(h.getValueAtPercentile(99.99)), us(h.getMaxValue()));
            }
        }
        return t.toString();
    }

    private String markdown(final List<ConfigOutcome> outcomes)
    {
        final StringBuilder md = new StringBuilder("# Noise and jitter: what the detector costs the application\n\n");
        if (quick)
        {
            md.append("**A `--quick` run: few short pairs on whatever the host was doing. It shows that the harness " +
                "works, not what the detector costs; use the full run's numbers for that.**\n\n");
        }
        md.append("`").append(commandLine).append("`\n\n");
        md.append(f("Started %s; %d of %d configuration(s) written. %d pair(s) per configuration, %s per DGEMM/FWQ " +
            "run, seed %d; δ = %dη.%n%n", startedAt, outcomes.size(), totalConfigs, settings.pairs(),
            Durations.format(settings.runNs()), settings.seed(), NoiseConfig.TIMEOUT_RATIO));
        md.append("## Host\n\n").append(hostFacts()).append('\n');
        md.append("## Slowdown of the application\n\n");
        md.append(settings.cold() ?
            "Cold (`--cold`): every B starts a fresh detector and measures it from its grace's end: the cost of a " +
            "detector in its first seconds, JIT and driver set-up included.\n\n" :
            f("Steady state: one detector per configuration, warm for %s before the first pair; A = the same " +
            "processes frozen (SIGSTOP of this host's nodes, the peer and the driver), B = them running.%n%n",
            Durations.format(settings.warmNs())));
        md.append("A = the loads alone, B = the same loads with the detector running; each pair runs back to back, " +
            "A first in every other pair. Slowdown = A's rate / B's rate − 1 within a pair (FWQ: B's mean quantum / " +
            "A's − 1); mean over the valid pairs with a Student-t 95 % interval. **not measurable** = the interval " +
            "contains 0. An invalid pair is one whose detector did not start or lost a node during B.\n\n");
        md.append(slowdownTable(outcomes)).append('\n');
        md.append("## The emitter's own jitter\n\n");
        md.append("Recorded by each of this host's nodes in its jitter file (`ringwatch.jitter.file`) during B: " +
            "emission error = start of the duty cycle that sent a scheduled heartbeat − the time it was due " +
            "(start + k·η); duty cycle = one `doWork()` of the agent, idle ones included; wake-ups = gaps of " +
            "≥ 20 µs after a duty cycle that found no work (sleeps, or a spinner losing its core), per second of " +
            "one agent.\n\n");
        md.append(jitterTable(outcomes)).append('\n');
        md.append("## Wake-ups by thread\n\n");
        md.append("Every thread of every detector process (this host's nodes, the peer, the driver) during the valid " +
            "pairs' B windows, from `/proc/PID/task/TID/{stat,status,schedstat}`: wake-ups = voluntary context " +
            "switches (the thread slept and was woken), preempt = involuntary ones, CPU = run time; per second of " +
            "B. Cores = where the thread may run, `*` = an application core. The sum on the application's cores " +
            "is the figure to drive down.\n\n```\n").append(threadTables(outcomes)).append("```\n\n");
        md.append("## FWQ quanta (pooled over valid pairs)\n\n").append(fwqTable(outcomes)).append('\n');
        md.append("## Targets\n\n").append(targets(outcomes)).append('\n');
        md.append("## Against the papers\n\n").append(papers(outcomes)).append('\n');
        md.append("## What this host can and cannot show\n\n").append(limits()).append('\n');
        final StringBuilder notes = new StringBuilder();
        for (final ConfigOutcome o : outcomes)
        {
            for (final String note : o.notes())
            {
                notes.append("- ").append(o.label()).append(": ").append(note).append('\n');
            }
        }
        if (notes.length() > 0)
        {
            md.append("## Notes\n\n").append(notes).append('\n');
        }
        md.append("Plots: `slowdown_vs_eta.png`, `fwq_percentiles.png`, `emission_error_cdf.png`, " +
            "`duty_cycle_cdf.png`; data: `noise.csv`, `noise-pairs.csv`.\n");
        return md.toString();
    }

    private String hostFacts()
    {
        final QuietHost quiet = QuietHost.probe();
        final StringBuilder sb = new StringBuilder();
        sb.append(f("- %d online CPU(s) %s; %s%n", quiet.online().cardinality(), CpuList.format(quiet.online()),
            layout));
        sb.append(f("- kernel %s, %s %s; Java %s%n", System.getProperty("os.version"), System.getProperty("os.name"),
            System.getProperty("os.arch"), System.getProperty("java.version")));
        sb.append(f("- isolated cores: %s; nohz_full: %s; SMT siblings: %s; cpufreq governor: %s; IRQs reaching " +
            "the application's cores: %d of %d%n",
            none(CpuList.format(quiet.isolated())), none(CpuList.format(quiet.nohzFull())), none(quiet.smtPairs()),
            quiet.governors().isEmpty() ? "not exposed" : String.join(",", quiet.governors()),
            quiet.irqsReaching(layout.appCpus()).size(), quiet.irqAffinity().size()));
        sb.append(f("- SCHED_FIFO for low-noise agents: %s%n", settings.realtimePriority() > 0 ?
            "priority " + settings.realtimePriority() : "off (" + RealtimePriority.probe() + ")"));
        sb.append(f("- bytes allocated inside the timed DGEMM and FWQ loops, all runs: %d%n", benchmark.timedAllocations()));
        sb.append(f("- DGEMM: %s; FWQ quantum %.1f µs; HPL: %s%n",
            benchmark.dgemmUnavailable() == null ? "n = " + settings.dgemmN() + ", " + benchmark.blasLibrary() +
                ", " + layout.appCpus().cardinality() + " BLAS thread(s)" : "skipped: " + benchmark.dgemmUnavailable(),
            benchmark.fwqQuantumNs() / 1e3,
            benchmark.hplUnavailable() == null ? "hpcc N = " + settings.hplN() : "skipped: " +
                benchmark.hplUnavailable()));
        return sb.toString();
    }

    private String targets(final List<ConfigOutcome> outcomes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final Placement placement : List.of(Placement.LOW_NOISE_SHARED, Placement.LOW_NOISE_DRIVER_APART))
        {
            final ConfigOutcome lowNoise1ms = find(outcomes, placement, 1_000_000L);
            sb.append("- DGEMM slowdown at η = 1 ms, ").append(placement.description()).append(", ≤ 0.5 %: ");
            if (lowNoise1ms == null || lowNoise1ms.dgemm().n() < 2)
            {
                sb.append("not measured in this run.\n");
            }
            else
            {
                final NoiseStats.Interval i = lowNoise1ms.dgemm();
                sb.append(f("%s → %s.%n", percent(i), i.high() <= 0.005 ? "met (upper bound ≤ 0.5 %)" :
                    i.mean() <= 0.005 ? "mean within it, but the interval reaches above 0.5 %" : "NOT met"));
            }
        }
        sb.append("- DGEMM slowdown with the detector on its own core: not measurable: ");
        final List<String> ownCore = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            if (o.config().placement() == Placement.LOW_LATENCY_OWN_CORE && o.dgemm().n() >= 2)
            {
                ownCore.add(o.label() + " " + percent(o.dgemm()));
            }
        }
        sb.append(ownCore.isEmpty() ? "not measured in this run.\n" : String.join("; ", ownCore) + ".\n");
        sb.append("- Emission error of a pinned busy-spinning agent, p99.9 ≤ 5 µs: ");
        sb.append(emissionOf(outcomes, p -> p == Placement.LOW_LATENCY_OWN_CORE)).append('\n');
        sb.append("- Emission error of a sleeping (SCHED_FIFO when permitted) low-noise agent, reported: ");
        sb.append(emissionOf(outcomes, p -> "low-noise".equals(p.profile()))).append('\n');
        sb.append("- FWQ: no noise event above the baseline's p99.9 at η ≥ 10 ms: ");
        final List<String> fwq = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            if (o.config().heartbeatPeriodNs() >= 10_000_000L && o.fwqExcess().n() >= 2)
            {
                fwq.add(o.label() + " " + plain(o.fwqExcess()) + " extra/core·s");
            }
        }
        sb.append(fwq.isEmpty() ? "not measured in this run.\n" : String.join("; ", fwq) + ".\n");
        sb.append("- Wake-ups/s of all detector threads on the application's cores ≤ 2/η + 20 at η ≥ 10 ms: ");
        final List<String> wakeUps = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            final ThreadActivity threads = o.threads();
            if (o.config().heartbeatPeriodNs() >= 10_000_000L && threads.seconds() > 0)
            {
                final double bound = 2e9 / o.config().heartbeatPeriodNs() + 20;
                final double measured = threads.wakeUpsPerSecondOn(layout.appCpus());
                wakeUps.add(f("%s %.1f (bound %.0f: %s)", o.label(), measured, bound, measured <= bound ? "met" :
                    "NOT met, see the thread table"));
            }
        }
        sb.append(wakeUps.isEmpty() ? "not measured in this run.\n" : String.join("; ", wakeUps) + ".\n");
        return sb.toString();
    }

    private String emissionOf(final List<ConfigOutcome> outcomes, final Predicate<Placement> placements)
    {
        final List<String> parts = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            if (placements.test(o.config().placement()) && o.validPairs() > 0)
            {
                final Histogram e = o.emissionPooled();
                if (e.getTotalCount() > 0)
                {
                    parts.add(f("%s p99.9 %s µs (max %s µs)", o.label(), us(e.getValueAtPercentile(99.9)),
                        us(e.getMaxValue())));
                }
            }
        }
        return parts.isEmpty() ? "not measured in this run." : String.join("; ", parts) + ".";
    }

    private static ConfigOutcome find(final List<ConfigOutcome> outcomes, final Placement placement, final long eta)
    {
        for (final ConfigOutcome o : outcomes)
        {
            if (o.config().placement() == placement && o.config().heartbeatPeriodNs() == eta &&
                o.config().nodesPerHost() == 1 && o.config().transport() == TransportMode.IPC)
            {
                return o;
            }
        }
        return null;
    }

    private String papers(final List<ConfigOutcome> outcomes)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("- Paper 000 (Bosilca et al., the detector's journal version), Section 5, Figure 8: HPL on Titan " +
            "showed no observable slowdown for η ≥ 100 ms and stayed under 2 % at higher heartbeat frequencies. " +
            "Here, low-noise on the application's cores: ");
        final List<String> sweep = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            if ("low-noise".equals(o.config().placement().profile()) && o.config().nodesPerHost() == 1 &&
                o.config().transport() == TransportMode.IPC && o.notRun() == null)
            {
                final NoiseStats.Interval hpl = o.hpl();
                sweep.add(o.config().placement().cliName() + " η = " + Durations.format(o.config().heartbeatPeriodNs()) +
                    ": DGEMM " + percent(o.dgemm()) +
                    (hpl.n() >= 2 ? ", HPL " + percent(hpl) : ""));
            }
        }
        sb.append(sweep.isEmpty() ? "not measured in this run" : String.join("; ", sweep)).append(".\n");
        sb.append("- Paper 003 (Kharbas et al.): a liveness checker in a separate process cost nothing measurable " +
            "while a core was spare, and 28–60 % once every core ran an MPI task. Here, a core of its own: ");
        final List<String> spare = new ArrayList<>();
        final List<String> none = new ArrayList<>();
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.dgemm().n() < 2)
            {
                continue;
            }
            if (o.config().placement() == Placement.LOW_LATENCY_OWN_CORE)
            {
                spare.add(o.label() + " " + percent(o.dgemm()));
            }
            else if (o.config().placement() == Placement.LOW_LATENCY_APP_CORE)
            {
                none.add(o.label() + " " + percent(o.dgemm()));
            }
        }
        sb.append(spare.isEmpty() ? "not measured" : String.join("; ", spare));
        sb.append("; a spinning agent on an application core (no core spare): ");
        sb.append(none.isEmpty() ? "not measured" : String.join("; ", none)).append(".\n");
        return sb.toString();
    }

    private String limits()
    {
        final int app = layout.appCpus().cardinality();
        final int det = layout.detectorCpus().cardinality();
        final StringBuilder sb = new StringBuilder();
        sb.append(f("The application had %d core(s), the detector and this harness %d. ", app, det));
        if (app + det <= 2)
        {
            sb.append("On 2 cores a one-core application cannot be parallel, so DGEMM and HPL here measure a " +
                "single core's throughput; every helper thread of the node JVMs (JIT, GC) and of the driver shares " +
                "the detector's one core with this harness, so \"a core of its own\" is the detector sharing a core " +
                "with everything that is not the application; the low-latency agents of more than one node cannot " +
                "each have a core, so they take turns on one spinning thread (\"shared thread\"); several nodes " +
                "per host means several nodes on that one core or on the one application core. ");
        }
        sb.append("Without isolated or tickless cores (see Host) the scheduler tick, kernel threads and interrupts " +
            "land on the application's cores in A and B alike: they widen the intervals but do not bias the " +
            "ratios. A virtual machine adds steal time no guest setting removes. The cluster is all on this " +
            "host: the peer node stands for the rest of a real cluster, and over UDP the frames cross loopback, " +
            "not a NIC. Other processes on a shared host are not confined: they take turns on the application's " +
            "cores in A and B alike, and a spinning agent on the detector's core pushes more of them there.\n");
        return sb.toString();
    }

    private CsvTable summaryCsv(final List<ConfigOutcome> outcomes)
    {
        final CsvTable csv = new CsvTable(settings.seed(), commandLine, "placement", "eta_ns", "delta_ns",
            "nodes_per_host", "transport", "shared_thread", "not_run", "valid_pairs", "invalid_pairs",
            "dgemm_gflops_a", "dgemm_gflops_b", "dgemm_slowdown", "dgemm_ci_low", "dgemm_ci_high",
            "hpl_slowdown", "hpl_ci_low", "hpl_ci_high", "fwq_slowdown", "fwq_ci_low", "fwq_ci_high",
            "fwq_excess_per_core_s", "fwq_excess_ci_low", "fwq_excess_ci_high",
            "beats", "emission_p50_ns", "emission_p99_ns", "emission_p999_ns", "emission_max_ns",
            "duty_cycles", "duty_p50_ns", "duty_p99_ns", "duty_p999_ns", "duty_max_ns", "wakeups_per_agent_s",
            "app_core_wakeups_per_s", "app_core_cpu_us_per_s", "load_start", "load_end");
        csv.comment("layout", layout).comment("pairs", settings.pairs()).comment("run_ns", settings.runNs())
            .comment("quick", quick).comment("mode", settings.cold() ? "cold" : "steady");
        for (final ConfigOutcome o : outcomes)
        {
            final NoiseConfig c = o.config();
            final Histogram e = o.emissionPooled();
            final Histogram d = o.dutyCyclePooled();
            final ThreadActivity threads = o.threads();
            csv.row(c.placement().cliName(), c.heartbeatPeriodNs(), c.suspicionTimeoutNs(), c.nodesPerHost(),
                c.transport().name().toLowerCase(Locale.ROOT), o.sharedThread(),
                o.notRun() == null ? "" : o.notRun().replace(',', ';'), o.validPairs(), o.invalidPairs(),
                o.meanOf(Measurement::dgemmGflops, true), o.meanOf(Measurement::dgemmGflops, false),
                o.dgemm().mean(), o.dgemm().low(), o.dgemm().high(), o.hpl().mean(), o.hpl().low(), o.hpl().high(),
                o.fwq().mean(), o.fwq().low(), o.fwq().high(), o.fwqExcess().mean(), o.fwqExcess().low(),
                o.fwqExcess().high(), e.getTotalCount(), e.getValueAtPercentile(50), e.getValueAtPercentile(99),
                e.getValueAtPercentile(99.9), e.getMaxValue(), d.getTotalCount(), d.getValueAtPercentile(50),
                d.getValueAtPercentile(99), d.getValueAtPercentile(99.9), d.getMaxValue(), o.wakeUpsPerNodeSecond(),
                threads.wakeUpsPerSecondOn(layout.appCpus()), threads.cpuMicrosPerSecondOn(layout.appCpus()),
                o.loadAtStart(), o.loadAtEnd());
        }
        return csv;
    }

    private CsvTable pairsCsv(final List<ConfigOutcome> outcomes)
    {
        final CsvTable csv = new CsvTable(settings.seed(), commandLine, "configuration", "pair", "baseline_first",
            "valid", "dgemm_gflops_a", "dgemm_gflops_b", "hpl_gflops_a", "hpl_gflops_b", "fwq_mean_ns_a",
            "fwq_mean_ns_b", "fwq_excess_per_core_s", "load_a", "load_b", "invalid_reason");
        for (final ConfigOutcome o : outcomes)
        {
            for (final PairResult p : o.pairs())
            {
                final Measurement b = p.b();
                csv.row(o.label().replace(',', ';'), p.index(), p.baselineFirst(), p.valid(), p.a().dgemmGflops(),
                    b == null ? Double.NaN : b.dgemmGflops(), p.a().hplGflops(), b == null ? Double.NaN : b.hplGflops(),
                    p.a().fwqMeanNs(), b == null ? Double.NaN : b.fwqMeanNs(),
                    p.valid() ? p.fwqExcessEventsPerSecond() : Double.NaN, p.a().loadAverage(),
                    b == null ? Double.NaN : b.loadAverage(),
                    p.invalid() == null ? "" : p.invalid().replace(',', ';').replace('\n', ' '));
            }
        }
        return csv;
    }

    private void plots(final List<ConfigOutcome> outcomes, final Path dir) throws IOException
    {
        final Chart slowdown = new Chart("DGEMM slowdown vs heartbeat period (1 node/host, IPC; bars: 95 % CI)",
            "heartbeat period η (ms, δ = 10η)", "slowdown (%)").logX().yDecimalPattern("0.0#");
        boolean any = false;
        for (final Placement placement : Placement.values())
        {
            final List<double[]> points = new ArrayList<>();
            for (final ConfigOutcome o : outcomes)
            {
                final NoiseConfig c = o.config();
                final NoiseStats.Interval i = o.dgemm();
                if (c.placement() == placement && c.nodesPerHost() == 1 && c.transport() == TransportMode.IPC &&
                    i.n() >= 2)
                {
                    points.add(new double[]{c.heartbeatPeriodNs() / 1e6, 100 * i.mean(), 100 * i.halfWidth()});
                }
            }
            if (!points.isEmpty())
            {
                points.sort((x, y) -> Double.compare(x[0], y[0]));
                slowdown.pointsWithErrorBars(placement.description(), column(points, 0), column(points, 1),
                    column(points, 2));
                any = true;
            }
        }
        if (!any)
        {
            slowdown.points("no DGEMM pairs measured", new double[]{1}, new double[]{0});
        }
        slowdown.save(dir, "slowdown_vs_eta.png");

        final Chart fwq = new Chart("FWQ quantum percentiles (pooled; x: number of nines)",
            "nines (0.3 = p50, 2 = p99, 3 = p99.9, 4 = p99.99, 5 = max)", "quantum time (µs)").logY();
        any = false;
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.fwqPooled(true).getTotalCount() == 0)
            {
                continue;
            }
            if (!any)
            {
                fwq.pointsAndLine("A (no detector), first configuration's pairs", nines(), fwqPoints(o.fwqPooled(true)));
                any = true;
            }
            fwq.pointsAndLine("B " + o.label(), nines(), fwqPoints(o.fwqPooled(false)));
        }
        if (!any)
        {
            fwq.points("no FWQ runs", new double[]{1}, new double[]{1});
        }
        fwq.save(dir, "fwq_percentiles.png");

        cdf(outcomes, true, "Heartbeat emission error (CDF)", "emission error (µs)").save(dir, "emission_error_cdf.png");
        cdf(outcomes, false, "Agent duty-cycle length (CDF)", "duty cycle (µs)").save(dir, "duty_cycle_cdf.png");
    }

    private static Chart cdf(final List<ConfigOutcome> outcomes, final boolean emission, final String title,
        final String xTitle)
    {
        final Chart chart = new Chart(title, xTitle, "fraction ≤ x").logX().yDecimalPattern("0.0#");
        boolean any = false;
        for (final ConfigOutcome o : outcomes)
        {
            if (o.notRun() != null || o.validPairs() == 0)
            {
                continue;
            }
            final Histogram h = emission ? o.emissionPooled() : o.dutyCyclePooled();
            if (h.getTotalCount() == 0)
            {
                continue;
            }
            final List<double[]> points = new ArrayList<>();
            for (final double p : new double[]{0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100})
            {
                final double x = Math.max(0.01, (p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p)) / 1e3);
                points.add(new double[]{x, p / 100});
            }
            chart.pointsAndLine(o.label(), column(points, 0), column(points, 1));
            any = true;
        }
        if (!any)
        {
            chart.points("nothing recorded", new double[]{1}, new double[]{0});
        }
        return chart;
    }

    private static double[] nines()
    {
        final double[] x = new double[FWQ_PERCENTILES.length + 1];
        for (int i = 0; i < FWQ_PERCENTILES.length; i++)
        {
            x[i] = -Math.log10(1 - FWQ_PERCENTILES[i] / 100);
        }
        x[FWQ_PERCENTILES.length] = 5;
        return x;
    }

    private static double[] fwqPoints(final Histogram h)
    {
        final double[] y = new double[FWQ_PERCENTILES.length + 1];
        for (int i = 0; i < FWQ_PERCENTILES.length; i++)
        {
            y[i] = Math.max(0.001, h.getValueAtPercentile(FWQ_PERCENTILES[i]) / 1e3);
        }
        y[FWQ_PERCENTILES.length] = Math.max(0.001, h.getMaxValue() / 1e3);
        return y;
    }

    private static double[] column(final List<double[]> rows, final int c)
    {
        return rows.stream().mapToDouble(r -> r[c]).toArray();
    }

    private static String percentiles(final Histogram h)
    {
        return h.getTotalCount() == 0 ? "–" : us(h.getValueAtPercentile(50)) + " / " + us(h.getValueAtPercentile(99)) +
            " / " + us(h.getValueAtPercentile(99.9)) + " / " + us(h.getMaxValue());
    }

    static String percent(final NoiseStats.Interval i)
    {
        if (i.n() == 0)
        {
            return "–";
        }
        if (i.n() == 1)
        {
            return f("%+.2f (1 pair: no interval)", 100 * i.mean());
        }
        return f("%+.2f [%+.2f, %+.2f]%s", 100 * i.mean(), 100 * i.low(), 100 * i.high(),
            i.measurable() ? "" : " not measurable");
    }

    private static String plain(final NoiseStats.Interval i)
    {
        if (i.n() == 0)
        {
            return "–";
        }
        if (i.n() == 1)
        {
            return f("%+.1f (1 pair)", i.mean());
        }
        return f("%+.1f [%+.1f, %+.1f]%s", i.mean(), i.low(), i.high(), i.measurable() ? "" : " not measurable");
    }

    private static String us(final double ns)
    {
        return ns >= 100_000 ? f("%.0f", ns / 1e3) : ns >= 1_000 ? f("%.1f", ns / 1e3) : f("%.2f", ns / 1e3);
    }

    private static String none(final String s)
    {
        return s.isEmpty() ? "none" : s;
    }

    private static String f(final String pattern, final Object... args)
    {
        return String.format(Locale.ROOT, pattern, args);
    }
}
