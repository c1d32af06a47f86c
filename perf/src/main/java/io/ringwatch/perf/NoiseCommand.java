package io.ringwatch.perf;

import io.ringwatch.core.config.Durations;
import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.HostCpus;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.perf.noise.HostLayout;
import io.ringwatch.perf.noise.NoiseBenchmark;
import io.ringwatch.perf.noise.NoiseConfig;
import io.ringwatch.perf.noise.NoiseReport;
import io.ringwatch.perf.noise.NoiseSettings;
import io.ringwatch.perf.noise.Placement;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code noise}: what a running detector costs an application (DGEMM, FWQ, HPL), by interleaved A/B runs; parses
 * the flags and writes the results, the measuring is {@link NoiseBenchmark}'s.
 */
final class NoiseCommand implements Command
{
    private static final String ALL_ETAS = "100us,1ms,10ms,100ms";

    public String name()
    {
        return "noise";
    }

    public String summary()
    {
        return "slowdown of DGEMM/HPL and FWQ noise caused by a running detector, with the emitter's own jitter";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar noise [flags]",
            "  --quick                one configuration (low-noise η=10ms, 1 node/host, ipc), 3 pairs of 1 s runs,",
            "                         5 s warm, DGEMM n=512 and FWQ only: under a minute, for CI; not a measurement",
            "  --cold                 start a fresh detector for every B run (the old mode) instead of steady state:",
            "                         answers what a detector costs in its first seconds (JVMs compiling, driver",
            "                         setting up), not what a site pays while it runs",
            "  --warm D               steady state: how long the detector runs before the first pair (default 60s,",
            "                         5s with --quick)",
            "  --pairs N              A/B pairs per configuration (default 10)",
            "  --run-time D           length of each DGEMM and each FWQ run (default 10s)",
            "  --placements LIST      low-noise (agents and driver on the application's cores),",
            "                         low-noise-driver-apart (agents there, the driver on the detector's core),",
            "                         low-latency (a core of its own), low-latency-app-core (forced onto an",
            "                         application core); default all four",
            "  --heartbeat-periods LIST            heartbeat periods η, δ = 10η (default " + ALL_ETAS + ")",
            "  --nodes-per-host LIST  this host's nodes; one more node, the peer, stands for the rest of the cluster",
            "  --transports LIST      ipc,udp",
            "                         Without any of the four lists: the η sweep of every placement at 1 node/host over",
            "                         ipc, plus 4 nodes/host and udp for every placement at η = 1ms (24 configurations).",
            "                         With any of them: every combination, the others defaulting to all placements,",
            "                         all of " + ALL_ETAS + ", 1 node/host, ipc.",
            "  --loads LIST           dgemm,fwq,hpl (default all three; hpl runs only where Debian's hpcc is",
            "                         installed, else it is skipped with the reason)",
            "  --dgemm-n N            DGEMM matrix order (default 1024)",
            "  --fwq-quantum D        target length of one FWQ work quantum (default 20us)",
            "  --hpl-n N              HPL problem size (default 4000: about 1 s of HPL in 12 s of HPCC per run)",
            "  --cores LIST           the cores the benchmark may use (default every core this process may run on);",
            "                         refused if one is not on this host or not allowed to this process. A",
            "                         placement these cores cannot give is refused with the reason rather than",
            "                         silently shared: asked for by --placements, the command stops (exit 2); in",
            "                         the default matrix it is listed as not run",
            "  --app-cores LIST       the application's cores (default every core of --cores but the last, which the",
            "                         harness and a detector of its own get)",
            "  --rt-priority P        SCHED_FIFO priority of low-noise agents, 0 for none (default 10 where",
            "                         permitted, else 0)",
            "  --startup-grace D      nodes' startup grace (default 2s)",
            "  --settle D             wait between a detector being up and its B run (default 1s)",
            "  --start-timeout D      time for a detector to come up (default 120s)",
            "  --seed S               matrix contents and the order of the first pair (default 1)",
            "  --budget D             fit the run into D of wall time (e.g. 45m): the default matrix (or the lists",
            "                         given) with --pairs, startup grace 1s and settle 500ms unless given, and the",
            "                         longest --run-time (and, where HPL runs, the largest --hpl-n) whose planned time",
            "                         fits; refused when even 0.5 s runs do not fit. Configurations still to run when",
            "                         2 x D has passed are skipped (\"not run: over budget\"), so the run is bounded",
            "  --dry-run              print the configurations and the planned time, run nothing",
            "  --out DIR              writes DIR/noise.md, noise.csv, noise-pairs.csv and PNG plots after every",
            "                         configuration (default results)",
            "Steady state (default): one detector per configuration, started, left to run warm, then in each pair A",
            "runs the loads with every detector process (this host's nodes, the peer, the driver) frozen by SIGSTOP",
            "and B with them running; the driver's timeouts are set so a freeze harms nobody and each node's pause",
            "guard restarts its suspicion deadline on the thaw. It answers what a running detector costs, and",
            "prints per thread of every detector process its wake-ups/s, preemptions/s and CPU µs/s during B.",
            "--cold: A without a detector, B with a freshly started one. Either way A goes first in every other",
            "pair; slowdown = A's rate / B's rate - 1 within a pair, mean and Student-t 95 % interval over the",
            "pairs, \"not measurable\" when the interval contains 0. Prints the planned time first and an ETA as it",
            "goes. Exit code 1 if a configuration that could run here got fewer than 2 valid pairs.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0, "--quick", "--dry-run", "--cold");
        final boolean quick = flags.switchOn("--quick");
        final boolean cold = flags.switchOn("--cold");
        final long warmNs = flags.durationNs("--warm", TimeUnit.SECONDS.toNanos(quick ? 5 : 60));
        final String coresGiven = flags.string("--cores", null);
        final long budgetNs = budgetNs(flags.string("--budget", null));
        if (budgetNs < 0 || (budgetNs > 0 && quick))
        {
            throw new UsageException("--budget takes a positive duration and does not go with --quick");
        }
        final boolean budgeted = budgetNs > 0;
        final boolean runTimeGiven = flags.isSet("--run-time");
        final boolean hplNGiven = flags.isSet("--hpl-n");
        final boolean dryRun = flags.switchOn("--dry-run");
        final boolean placementsGiven = flags.isSet("--placements");
        final boolean listsGiven = placementsGiven || flags.isSet("--heartbeat-periods") ||
            flags.isSet("--nodes-per-host") || flags.isSet("--transports");
        final List<Placement> placements = new ArrayList<>();
        for (final String p : list(flags.string("--placements", "low-noise,low-noise-driver-apart,low-latency,low-latency-app-core")))
        {
            try
            {
                placements.add(Placement.fromName(p));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("bad value for --placements: " + ex.getMessage());
            }
        }
        final List<Long> etas = new ArrayList<>();
        for (final String e : list(flags.string("--heartbeat-periods", quick ? "10ms" : ALL_ETAS)))
        {
            try
            {
                etas.add(Durations.parseNs("--heartbeat-periods", e));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("bad value for --heartbeat-periods: '" + e + "' (" + ex.getMessage() + ")");
            }
        }
        final List<Integer> nodesPerHost = new ArrayList<>();
        for (final String n : list(flags.string("--nodes-per-host", "1")))
        {
            nodesPerHost.add(parseInt("--nodes-per-host", n, 1, 32));
        }
        final List<TransportMode> transports = new ArrayList<>();
        for (final String t : list(flags.string("--transports", "ipc")))
        {
            switch (t)
            {
                case "ipc" -> transports.add(TransportMode.IPC);
                case "udp" -> transports.add(TransportMode.UDP);
                default -> throw new UsageException("bad value for --transports: '" + t + "' (expected ipc or udp)");
            }
        }
        final int pairs = (int)flags.longValue("--pairs", quick ? 3 : 10, 1, 10_000);
        final long runNs = flags.durationNs("--run-time", TimeUnit.SECONDS.toNanos(quick ? 1 : 10));
        final Set<String> loads = new LinkedHashSet<>(list(flags.string("--loads", quick ? "dgemm,fwq" : "dgemm,fwq,hpl")));
        for (final String load : loads)
        {
            if (!Set.of(NoiseSettings.DGEMM, NoiseSettings.FWQ, NoiseSettings.HPL).contains(load))
            {
                throw new UsageException("bad value for --loads: '" + load + "' (expected dgemm, fwq or hpl)");
            }
        }
        final int dgemmN = (int)flags.longValue("--dgemm-n", quick ? 512 : 1024, 16, 16_384);
        final long quantumNs = flags.durationNs("--fwq-quantum", TimeUnit.MICROSECONDS.toNanos(20));
        final int hplN = (int)flags.longValue("--hpl-n", 4000, 500, 200_000);
        final String appCores = flags.string("--app-cores", null);
        final int rtDefault = RealtimePriority.probe().applied() ? 10 : 0;
        final int realtimePriority = (int)flags.longValue("--rt-priority", rtDefault, 0, 99);
        final long graceNs = flags.durationNs(Args.STARTUP_GRACE, TimeUnit.SECONDS.toNanos(quick || budgeted ? 1 : 2));
        final long settleNs = flags.durationNs("--settle",
            TimeUnit.MILLISECONDS.toNanos(quick ? 200 : budgeted ? 500 : 1000));
        final long startTimeoutNs = flags.durationNs("--start-timeout", TimeUnit.SECONDS.toNanos(120));
        final long seed = flags.longValue("--seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        final Path outDir = Path.of(flags.string("--out", "results"));
        flags.finish();

        final HostLayout layout = layout(coresGiven, appCores);

        final List<NoiseConfig> configs = new ArrayList<>();
        if (quick || listsGiven)
        {
            for (final Placement p : quick ? List.of(Placement.LOW_NOISE_SHARED) : placements)
            {
                for (final long eta : etas)
                {
                    for (final int n : nodesPerHost)
                    {
                        for (final TransportMode t : transports)
                        {
                            configs.add(new NoiseConfig(p, eta, n, t));
                        }
                    }
                }
            }
        }
        else
        {
            for (final Placement p : placements)
            {
                for (final long eta : etas)
                {
                    configs.add(new NoiseConfig(p, eta, 1, TransportMode.IPC));
                }
            }
            for (final Placement p : placements)
            {
                configs.add(new NoiseConfig(p, 1_000_000L, 4, TransportMode.IPC));
                configs.add(new NoiseConfig(p, 1_000_000L, 1, TransportMode.UDP));
            }
        }

        refuseWhatTheCoresCannotGive(configs, layout, cold, placementsGiven || quick);

        NoiseSettings settings = new NoiseSettings(pairs, runNs, loads, dgemmN, quantumNs, hplN, seed, graceNs,
            settleNs, startTimeoutNs, realtimePriority, cold, warmNs, null);
        if (budgeted)
        {
            settings = fitBudget(budgetNs, configs, settings, layout, runTimeGiven, hplNGiven, out);
        }
        final String commandLine = "java -jar ringwatch-perf.jar noise " + String.join(" ", args);
        if (dryRun)
        {
            final NoiseBenchmark plan = new NoiseBenchmark(configs, settings, layout, outDir, err);
            for (final NoiseConfig c : configs)
            {
                final String whyNot = NoiseBenchmark.whyNotRunnable(c, layout, cold);
                out.println(c.label() + (whyNot == null ? "" : " (not run: " + whyNot + ")"));
            }
            out.printf(Locale.ROOT, "%d configuration(s) x %d pair(s), %s per run: planned about %s on %s%n",
                configs.size(), pairs, Durations.format(settings.runNs()), minutes(plan.estimateNs()), layout);
            return 0;
        }
        // the worker's log and HPCC's files go to scratch space, kept only when something failed
        final Path workDir = java.nio.file.Files.createTempDirectory("ringwatch-noise-");
        final NoiseBenchmark benchmark = new NoiseBenchmark(configs, settings, layout, workDir, err);
        if (budgeted)
        {
            benchmark.stopStartingAfter(2 * budgetNs);
        }
        final NoiseReport report = new NoiseReport(commandLine, settings, layout, benchmark, Instant.now().toString(),
            quick, configs.size());
        final long plannedNs = benchmark.estimateNs();
        err.printf(Locale.ROOT, "noise: %d configuration(s) x %d pair(s) = %d A/B pairs, %s per run, loads %s; %s; " +
            "load average %.2f; planned about %s, done about %s UTC; scratch %s%n", configs.size(), pairs,
            configs.size() * pairs, Durations.format(settings.runNs()), String.join(",", loads), layout,
            NoiseBenchmark.loadAverage(), minutes(plannedNs),
            java.time.LocalTime.now(java.time.ZoneOffset.UTC).plusNanos(plannedNs).withNano(0), workDir);

        final var outcomes = benchmark.run(done ->
        {
            try
            {
                report.write(done, outDir);
            }
            catch (final java.io.IOException ex)
            {
                throw new java.io.UncheckedIOException("cannot write results to " + outDir, ex);
            }
        });
        out.printf(Locale.ROOT, "host: %d CPU(s), %s; load average now %.2f (per configuration in the table)%n%n",
            Runtime.getRuntime().availableProcessors(), layout, NoiseBenchmark.loadAverage());
        out.println(report.slowdownTable(outcomes));
        out.println(report.jitterTable(outcomes));
        out.println(report.threadTables(outcomes));
        out.println("written: " + outDir.resolve("noise.md") + ", noise.csv, noise-pairs.csv, " +
            "slowdown_vs_eta.png, fwq_percentiles.png, emission_error_cdf.png, duty_cycle_cdf.png");
        if (NoiseBenchmark.allMeasured(outcomes))
        {
            org.agrona.IoUtil.delete(workDir.toFile(), true);
            return 0;
        }
        err.println("noise: a configuration got fewer than 2 valid pairs; worker log and HPCC files kept in " + workDir);
        return 1;
    }

    private static HostLayout layout(final String coresGiven, final String appCores) throws UsageException
    {
        final BitSet allowed = HostCpus.probe().allowedCores();
        BitSet cores = allowed;
        if (coresGiven != null)
        {
            try
            {
                cores = CpuList.parse(coresGiven);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("bad value for --cores: " + ex.getMessage());
            }
            final BitSet missing = (BitSet)cores.clone();
            missing.andNot(allowed);
            if (!missing.isEmpty())
            {
                throw new UsageException("--cores " + coresGiven + ": this host cannot give core(s) " +
                    CpuList.format(missing) + " (this process may run on " + CpuList.format(allowed) + ", " +
                    Runtime.getRuntime().availableProcessors() + " CPU(s))");
            }
        }
        try
        {
            final BitSet app = appCores == null ? null : CpuList.parse(appCores);
            if (app != null && !cores.equals(orOf(cores, app)))
            {
                throw new UsageException("--app-cores " + appCores + " lies outside the cores given (" +
                    CpuList.format(cores) + ")");
            }
            return HostLayout.of(cores, app);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad value for --app-cores: " + ex.getMessage());
        }
    }

    private static BitSet orOf(final BitSet a, final BitSet b)
    {
        final BitSet or = (BitSet)a.clone();
        or.or(b);
        return or;
    }

    /**
     * A placement asked for by name that the cores cannot give stops the command with the reason; in the default
     * matrix it is left to be reported as not run.
     */
    private static void refuseWhatTheCoresCannotGive(
        final List<NoiseConfig> configs, final HostLayout layout, final boolean cold, final boolean asked)
        throws UsageException
    {
        if (!asked)
        {
            return;
        }
        for (final NoiseConfig config : configs)
        {
            final String whyNot = NoiseBenchmark.whyNotRunnable(config, layout, cold);
            if (whyNot != null)
            {
                throw new UsageException("refused: " + config.label() + ": " + whyNot + " (" + layout + ")");
            }
        }
    }

    /**
     * The longest runs (and, where HPL runs, the largest N) whose planned time fits the budget, from a ladder that
     * shortens HPL to N = 2000 (about 3 s of HPCC), the DGEMM/FWQ runs to 2 s, HPL to N = 1000, then the runs to
     * 0.5 s: DGEMM and FWQ are the primary measures, and HPCC spends most of its time outside HPL anyway.
     */
    private static NoiseSettings fitBudget(
        final long budgetNs,
        final List<NoiseConfig> configs,
        final NoiseSettings asked,
        final HostLayout layout,
        final boolean runTimeGiven,
        final boolean hplNGiven,
        final PrintStream out) throws UsageException
    {
        final long[][] ladder = {
            {10_000, 4000}, {5_000, 4000}, {5_000, 2000}, {3_000, 2000}, {2_000, 2000}, {2_000, 1000},
            {1_500, 1000}, {1_000, 1000}, {500, 1000}};
        NoiseSettings fitted = null;
        for (final long[] step : ladder)
        {
            final NoiseSettings s = new NoiseSettings(asked.pairs(),
                runTimeGiven ? asked.runNs() : TimeUnit.MILLISECONDS.toNanos(step[0]), asked.loads(), asked.dgemmN(),
                asked.fwqQuantumNs(), hplNGiven ? asked.hplN() : (int)step[1], asked.seed(), asked.graceNs(),
                asked.settleNs(), asked.startTimeoutNs(), asked.realtimePriority(), asked.cold(), asked.warmNs(),
                asked.classpath());
            fitted = s;
            if (new NoiseBenchmark(configs, s, layout, null, out).estimateNs() <= budgetNs)
            {
                out.printf(Locale.ROOT, "noise: --budget %s: %s runs%s, grace %s, settle %s%n",
                    minutes(budgetNs), Durations.format(s.runNs()),
                    s.loads().contains(NoiseSettings.HPL) ? ", HPL N=" + s.hplN() + " (where installed)" : "",
                    Durations.format(s.graceNs()), Durations.format(s.settleNs()));
                return s;
            }
        }
        throw new UsageException("--budget " + minutes(budgetNs) + " is too short for " + configs.size() +
            " configuration(s) x " + asked.pairs() + " pair(s): the shortest plan (" +
            Durations.format(fitted.runNs()) + " runs) takes about " +
            minutes(new NoiseBenchmark(configs, fitted, layout, null, out).estimateNs()) +
            "; give a longer budget, fewer --pairs or narrower lists");
    }

    /**
     * @return the budget in ns, 0 when not given; minutes and hours as {@code 45m}, {@code 1.5h}, or any duration.
     */
    private static long budgetNs(final String value) throws UsageException
    {
        if (value == null)
        {
            return 0;
        }
        final String v = value.trim().toLowerCase(Locale.ROOT);
        try
        {
            if (v.endsWith("h") || (v.endsWith("m") && !v.endsWith("ms")))
            {
                final double n = Double.parseDouble(v.substring(0, v.length() - 1));
                return (long)(n * (v.endsWith("h") ? 3600e9 : 60e9));
            }
            return Durations.parseNs("--budget", v);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad value for --budget: '" + value + "' (e.g. 45m, 1.5h, 900s)");
        }
    }

    private static String minutes(final long ns)
    {
        final long s = TimeUnit.NANOSECONDS.toSeconds(ns);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60) :
            String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    private static int parseInt(final String flag, final String value, final int min, final int max)
        throws UsageException
    {
        try
        {
            final int v = Integer.parseInt(value);
            if (v >= min && v <= max)
            {
                return v;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below
        }
        throw new UsageException("bad value for " + flag + ": '" + value + "' (expected " + min + ".." + max + ")");
    }

    private static List<String> list(final String value)
    {
        final List<String> items = new ArrayList<>();
        for (final String item : value.split(","))
        {
            if (!item.isBlank())
            {
                items.add(item.trim().toLowerCase(Locale.ROOT));
            }
        }
        return items;
    }
}
