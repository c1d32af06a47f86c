package io.ringwatch.perf.nemesis;

import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.launch.NetnsHosts;
import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One nemesis run: start the cluster, supervise it, inject faults, heal, wait for re-admission, check the history,
 * write what happened under the output directory.
 */
public final class Nemesis
{
    /**
     * What to run.
     */
    public static final class Settings
    {
        /** How long faults are injected. */
        public long durationNs = TimeUnit.MINUTES.toNanos(2);
        /** The nemesis's seed. */
        public long seed = 1;
        /** The kinds drawn; empty for none (the soak). */
        public final Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        /** Whether a fault may start while another runs. */
        public boolean overlaps;
        /** Where the files go. */
        public Path outDir = Path.of("results/nemesis");
        /** Namespace hosts, or 0 for every node on this host. */
        public int hosts = 4;
        /** Nodes per host (with no hosts: the node count). */
        public int nodesPerHost = 2;
        /** UDP, or IPC on one host. */
        public TransportMode transport = TransportMode.UDP;
        /** δ. */
        public long deltaNs = TimeUnit.MILLISECONDS.toNanos(250);
        /** η. */
        public long etaNs = TimeUnit.MILLISECONDS.toNanos(25);
        /** The nodes' startup grace. */
        public long graceNs = TimeUnit.SECONDS.toNanos(10);
        /** Added to T(f). */
        public long slackNs = TimeUnit.MILLISECONDS.toNanos(250);
        /** From the last heal to admitted everywhere. */
        public long readmitBoundNs = TimeUnit.SECONDS.toNanos(60);
        /** Resource samples, 0 for none. */
        public long samplePeriodNs = TimeUnit.MINUTES.toNanos(1);
        /** SCHED_FIFO priority of the node agents and the drivers' threads; 0 for none. */
        public int realtimePriority;
        /** Spinning processes at normal priority for the whole run, on any core: the soak under load. */
        public int backgroundLoad;
    }

    /**
     * What a run found.
     *
     * @param settings what ran.
     * @param history  what happened.
     * @param result   the checker's verdicts.
     * @param table    the report as Markdown.
     * @param json     one line.
     */
    public record Outcome(Settings settings, NemesisHistory history, HistoryChecker.Result result, String table,
        String json)
    {
    }

    private static final long JOURNAL_POLL_MS = 250;
    /** The slope is taken past start-up: JIT compilation and first touches of the heap grow RSS for minutes. */
    private static final long RSS_SLOPE_FROM_S = 300;

    private final Settings s;
    private final PrintStream err;

    /**
     * @param settings what to run.
     * @param err      progress.
     */
    public Nemesis(final Settings settings, final PrintStream err)
    {
        this.s = settings;
        this.err = err;
    }

    /**
     * @return what the run found; the cluster is gone when it returns.
     * @throws Exception if the cluster cannot be built or started.
     */
    public Outcome run() throws Exception
    {
        if (s.hosts > 0)
        {
            final String unavailable = NetnsHosts.unavailableReason();
            if (unavailable != null)
            {
                throw new IllegalStateException("namespace hosts: " + unavailable);
            }
        }
        final Path logDir = s.outDir.resolve("logs");
        Files.createDirectories(logDir);
        final LocalCluster.Options options = new LocalCluster.Options().heartbeatPeriodNs(s.etaNs)
            .suspicionTimeoutNs(s.deltaNs).graceNs(s.graceNs).realtimePriority(s.realtimePriority);
        if (s.samplePeriodNs > 0)
        {
            final List<String> jvm = new ArrayList<>(options.jvmOptions());
            jvm.add("-Xlog:gc:file=" + logDir.toAbsolutePath() + "/gc-%p.log");
            jvm.add("-XX:NativeMemoryTracking=summary");
            options.jvmOptions(jvm);
        }
        final int n = s.hosts == 0 ? s.nodesPerHost : s.hosts * s.nodesPerHost;
        final NetnsCluster netns = s.hosts == 0 ? null : new NetnsCluster(s.hosts, s.nodesPerHost, options);
        try (LaunchedCluster cluster = netns != null ? netns : new LocalCluster(options.nodes(n).transport(s.transport));
            BackgroundLoad load = new BackgroundLoad(s.backgroundLoad))
        {
            final long startNs = System.nanoTime();
            cluster.start();
            if (!cluster.awaitAllUp(180_000))
            {
                throw new IllegalStateException("the cluster was not up within 180 s");
            }
            err.printf("nemesis: %d nodes up after %d ms%n", n, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() -
                startNs));
            load.start();
            final JournalCollector journals = new JournalCollector(cluster);
            final Supervisors supervisors = new Supervisors(cluster, netns, journals, logDir, err, startNs);
            supervisors.start();
            final Thread collector = daemon("nemesis-journals", () -> collect(journals));
            final ResourceSampler sampler = s.samplePeriodNs > 0 ?
                new ResourceSampler(cluster, logDir, s.outDir.resolve("resources.csv"), err) : null;
            final Thread sampling = sampler == null ? null :
                daemon("nemesis-resources", () -> sampler.sampleEvery(s.samplePeriodNs));
            final FaultInjector injector = new FaultInjector(cluster, netns, new ArrayList<>(s.kinds), s.overlaps,
                s.deltaNs, s.seed, err);
            final long faultsUntilNs = System.nanoTime() + s.durationNs;
            long healedNs = injector.run(faultsUntilNs);
            if (s.kinds.isEmpty())
            {
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(faultsUntilNs - System.nanoTime())));
                healedNs = System.nanoTime();
            }
            healedNs = Math.max(healedNs, startNs);
            err.println("nemesis: faults over; waiting for the whole cluster to be admitted everywhere");
            final long admittedNs = awaitAdmitted(cluster, healedNs + s.readmitBoundNs +
                TimeUnit.SECONDS.toNanos(5));
            final String finalViews = cluster.describeViews();
            if (admittedNs < 0)
            {
                // what tells a node that never sent from one whose frames were refused, read while they still run
                Files.writeString(s.outDir.resolve("counters-not-admitted.txt"), cluster.describeCounters("", true));
                dumpThreads(cluster, s.outDir);
            }
            final long endNs = System.nanoTime();
            load.close();
            collector.interrupt();
            if (sampling != null)
            {
                sampling.interrupt();
                sampler.sample();
                sampler.plot(s.outDir);
            }
            journals.harvestAll();
            final List<Life> lives = supervisors.stop();
            final int[] hostOf = new int[n];
            for (int r = 0; r < n; r++)
            {
                hostOf[r] = cluster.hostOf(r);
            }
            final NemesisHistory history = new NemesisHistory(hostOf, s.deltaNs, s.etaNs, journals.records(), lives,
                supervisors.drivers(), injector.faults(), healedNs, admittedNs, finalViews, endNs);
            final HistoryChecker.Result result = new HistoryChecker(s.slackNs, s.readmitBoundNs).check(history)
                .withFailures(supervisors.failures());
            final String table = table(history, result, endNs - startNs, sampler);
            final String json = json(history, result);
            write(history, result, table, json);
            return new Outcome(s, history, result, table, json);
        }
    }

    /**
     * Every running node's threads, by {@code jcmd} (the JVMs run without perf data, which it does not need): where a
     * node that was never admitted is stuck.
     */
    private void dumpThreads(final LaunchedCluster cluster, final Path outDir) throws InterruptedException
    {
        for (int r = 0; r < cluster.size(); r++)
        {
            final Process p = cluster.process(r);
            if (!p.isAlive())
            {
                continue;
            }
            final Path to = outDir.resolve("threads-rank" + r + "-pid" + p.pid() + ".txt");
            try
            {
                final Process jcmd = new ProcessBuilder(ResourceSampler.jcmd(), Long.toString(p.pid()), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(to.toFile()).start();
                if (!jcmd.waitFor(30, TimeUnit.SECONDS))
                {
                    jcmd.destroyForcibly();
                }
            }
            catch (final IOException ex)
            {
                err.println("nemesis: no thread dump of rank " + r + ": " + ex.getMessage());
            }
        }
    }

    private static Thread daemon(final String name, final Runnable body)
    {
        final Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void collect(final JournalCollector journals)
    {
        try
        {
            while (!Thread.currentThread().isInterrupted())
            {
                journals.harvestAll();
                Thread.sleep(JOURNAL_POLL_MS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @return when every rank was running, active, and held alive under its own incarnation by every node; -1 if
     * not by the deadline.
     */
    private static long awaitAdmitted(final LaunchedCluster cluster, final long deadlineNs) throws InterruptedException
    {
        final int n = cluster.size();
        final ViewSnapshot[] views = new ViewSnapshot[n];
        for (int r = 0; r < n; r++)
        {
            views[r] = new ViewSnapshot();
        }
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (admitted(cluster, views))
            {
                return System.nanoTime();
            }
            Thread.sleep(50);
        }
        return -1;
    }

    private static boolean admitted(final LaunchedCluster cluster, final ViewSnapshot[] views)
    {
        final int n = views.length;
        for (int r = 0; r < n; r++)
        {
            if (!cluster.process(r).isAlive() || cluster.tryView(r, views[r]) == null ||
                views[r].state() != NodeState.ACTIVE || views[r].pid() != cluster.process(r).pid())
            {
                return false;
            }
        }
        for (int o = 0; o < n; o++)
        {
            for (int r = 0; r < n; r++)
            {
                if (views[o].isDead(r) || views[o].incarnation(r) != views[r].incarnation(r))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private String table(final NemesisHistory h, final HistoryChecker.Result result, final long tookNs,
        final ResourceSampler sampler)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "## nemesis: seed %d, %s, %s%n%n", s.seed,
            s.hosts == 0 ? s.nodesPerHost + " nodes on one host (" + s.transport + ")" :
            s.hosts + " hosts x " + s.nodesPerHost + " nodes, UDP, one driver per host, authenticated",
            "δ " + Durations.format(s.deltaNs) + ", η " + Durations.format(s.etaNs) +
            (s.realtimePriority > 0 ? ", SCHED_FIFO " + s.realtimePriority : "") +
            (s.backgroundLoad > 0 ? ", " + s.backgroundLoad + " spinning processes beside it" : "") + ", faults for " +
            Durations.format(s.durationNs) + " (run " + TimeUnit.NANOSECONDS.toSeconds(tookNs) + " s)"));
        sb.append("| fault | injected |\n| --- | --- |\n");
        for (final Map.Entry<FaultKind, Integer> e : result.faultsByKind().entrySet())
        {
            sb.append("| ").append(e.getKey().cliName()).append(" | ").append(e.getValue()).append(" |\n");
        }
        sb.append("| **total** | ").append(h.faults().size()).append(" |\n\n");
        sb.append("| exclusions by class | count |\n| --- | --- |\n");
        for (final HistoryChecker.ExclusionClass c : HistoryChecker.ExclusionClass.values())
        {
            sb.append("| ").append(c.name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(" | ")
                .append(result.count(c)).append(" |\n");
        }
        final long[] bounded = result.detections().stream().filter(d -> d.boundNs() >= 0 && d.learnNs() >= 0)
            .mapToLong(HistoryChecker.Detection::learnNs).sorted().toArray();
        final long[] all = result.detections().stream().filter(d -> d.learnNs() >= 0)
            .mapToLong(HistoryChecker.Detection::learnNs).sorted().toArray();
        sb.append(String.format(Locale.ROOT, "%n| check | result |%n| --- | --- |%n" +
            "| split brain | %d |%n| false exclusions | %d |%n" +
            "| crashes of admitted nodes | %d (%d under Theorem 1's bound) |%n" +
            "| missed or late detections | %d |%n" +
            "| detection, every survivor, bounded crashes: p50 / p99 / max | %s |%n" +
            "| detection, all crashes: p50 / p99 / max | %s |%n" +
            "| re-admission after the last heal | %s (bound %d ms) |%n" +
            "| node processes / drivers | %d / %d |%n" +
            "| **passed** | %s |%n",
            result.splitBrains().size(), result.count(HistoryChecker.ExclusionClass.FALSE),
            result.detections().size(), bounded.length, result.missedDetections(), percentiles(bounded),
            percentiles(all), result.readmitNs() < 0 ? "never" : ms(result.readmitNs()) + " ms",
            ms(result.readmitBoundNs()), h.lives().size(), h.drivers().size(), result.passed() ? "yes" : "**no**"));
        if (!result.failures().isEmpty())
        {
            sb.append("\nFailures:\n");
            result.failures().forEach(f -> sb.append("- ").append(f.replace("\n", "\n    ")).append('\n'));
        }
        if (sampler != null)
        {
            sb.append('\n').append(sampler.table());
            sb.append(String.format(Locale.ROOT, "%nRSS of all nodes, least-squares slope from minute 5 on: " +
                "%.3f MB/min (plots: resources-memory.png, resources-counts.png)%n",
                sampler.rssSlopeMbPerMinute(RSS_SLOPE_FROM_S)));
        }
        return sb.toString();
    }

    private static String percentiles(final long[] sorted)
    {
        if (sorted.length == 0)
        {
            return "-";
        }
        return ms(sorted[(int)Math.ceil(0.5 * sorted.length) - 1]) + " / " +
            ms(sorted[(int)Math.ceil(0.99 * sorted.length) - 1]) + " / " + ms(sorted[sorted.length - 1]) + " ms";
    }

    private String json(final NemesisHistory h, final HistoryChecker.Result result)
    {
        final StringBuilder kinds = new StringBuilder("{");
        result.faultsByKind().forEach((k, v) -> kinds.append(kinds.length() > 1 ? "," : "").append('"')
            .append(k.cliName()).append("\":").append(v));
        kinds.append('}');
        // crashes under the theorem's bound: the others' times include what an overlapping fault added
        final long[] learn = result.detections().stream().filter(d -> d.boundNs() >= 0 && d.learnNs() >= 0)
            .mapToLong(HistoryChecker.Detection::learnNs).sorted().toArray();
        final String detection = learn.length == 0 ? "null" : String.format(Locale.ROOT,
            "{\"p50\":%d,\"p99\":%d,\"max\":%d,\"n\":%d}", ms(learn[(int)Math.ceil(0.5 * learn.length) - 1]),
            ms(learn[(int)Math.ceil(0.99 * learn.length) - 1]), ms(learn[learn.length - 1]), learn.length);
        return String.format(Locale.ROOT, "{\"seed\":%d,\"faults\":%d,\"faultsByKind\":%s,\"nodes\":%d," +
            "\"deltaMs\":%d,\"etaMs\":%d,\"durationS\":%d,\"exclusions\":%d,\"falseExclusions\":%d," +
            "\"splitBrain\":%d,\"crashes\":%d,\"missedDetections\":%d,\"detectionMs\":%s,\"readmitMs\":%s," +
            "\"processes\":%d,\"failures\":%d,\"passed\":%s}",
            s.seed, h.faults().size(), kinds, h.clusterSize(), ms(s.deltaNs), ms(s.etaNs),
            TimeUnit.NANOSECONDS.toSeconds(s.durationNs), result.exclusions().size(),
            result.count(HistoryChecker.ExclusionClass.FALSE), result.splitBrains().size(),
            result.detections().size(), result.missedDetections(), detection,
            result.readmitNs() < 0 ? "null" : Long.toString(ms(result.readmitNs())), h.lives().size(),
            result.failures().size(), result.passed());
    }

    private void write(final NemesisHistory h, final HistoryChecker.Result result, final String table,
        final String json) throws IOException
    {
        final StringBuilder faults = new StringBuilder();
        h.faults().stream().sorted((a, b) -> Long.compare(a.startNs(), b.startNs())).forEach(f -> faults.append(
            String.format(Locale.ROOT, "mono %.3f-%.3f %s%n", f.startNs() / 1e9, f.endNs() / 1e9, f)));
        Files.writeString(s.outDir.resolve("faults.log"), faults, StandardCharsets.UTF_8);
        final StringBuilder history = new StringBuilder();
        final List<JournalEntry> journal = new ArrayList<>(h.journal());
        journal.sort(JournalEntry.TIME_ORDER);
        journal.forEach(e -> history.append(e).append('\n'));
        h.lives().stream().sorted((a, b) -> Long.compare(a.startNs(), b.startNs())).forEach(l -> history.append(
            String.format(Locale.ROOT, "process: rank %d pid %d mono %.3f-%s exit %d%n", l.rank(), l.pid(),
            l.startNs() / 1e9, l.running() ? "running" : String.format(Locale.ROOT, "%.3f", l.endNs() / 1e9),
            l.exitCode())));
        result.exclusions().forEach(e -> history.append(String.format(Locale.ROOT,
            "exclusion: mono %.3f %s rank %d inc %d by %d (%s): %s, %s%n", e.atNs() / 1e9,
            e.selfStop() ? "self-stop" : "verdict", e.rank(), e.incarnation(), e.by(), e.cause(), e.cls(), e.why())));
        result.detections().forEach(d -> history.append(String.format(Locale.ROOT,
            "detection: rank %d crash mono %.3f f=%d bound %s learnt by all in %s missed by %s %s%n", d.rank(),
            d.crashNs() / 1e9, d.failures(), d.boundNs() < 0 ? "none" : ms(d.boundNs()) + " ms",
            d.learnNs() < 0 ? "-" : ms(d.learnNs()) + " ms", d.missedBy(), d.why())));
        Files.writeString(s.outDir.resolve("history.txt"), history, StandardCharsets.UTF_8);
        Files.writeString(s.outDir.resolve("nemesis.md"), table + "\n" + json + "\n", StandardCharsets.UTF_8);
        err.println("nemesis: written " + s.outDir.resolve("nemesis.md") + ", faults.log, history.txt, logs/" +
            " (hostOf " + Arrays.toString(h.hostOf()) + ")");
    }

    private static long ms(final long ns)
    {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }
}
