package io.ringwatch.perf;

import io.ringwatch.core.config.Durations;
import io.ringwatch.perf.live.ConfigResult;
import io.ringwatch.perf.live.DetectionBenchmark;
import io.ringwatch.perf.live.DetectionConfig;
import io.ringwatch.perf.live.DetectionReport;
import io.ringwatch.perf.live.DetectionSettings;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code detection}: SIGKILL real node processes and time how long the others take to know; parses the flags and
 * writes the tables, the measuring is {@link DetectionBenchmark}'s.
 */
final class DetectionCommand implements Command
{
    private static final String SUSPICION_TIMEOUTS = Args.SUSPICION_TIMEOUT + "s";
    private static final String HEARTBEAT_PERIOD_RATIO = Args.HEARTBEAT_PERIOD + "-ratio";

    public String name()
    {
        return "detection";
    }

    public String summary()
    {
        return "detection delay, stabilization, LEAVE propagation and false positives of live node processes";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar detection [flags]",
            "  --nodes LIST                cluster sizes (default 4,8,16)",
            "  --suspicion-timeouts LIST   suspicion timeouts δ (default 10ms,1ms)",
            "  --profiles LIST             low-latency,low-noise (default both)",
            "  --transports LIST           ipc,udp (default both)",
            "  --heartbeat-period-ratio R  heartbeat period η = δ / R (default 10)",
            "  --kills K                   SIGKILLs per configuration (default 50)",
            "  --seed S                    victims and kill moments (default 1)",
            "  --miss-timeout D            a kill not known by every survivor by then is missed (default 5s)",
            "  --start-timeout D           time for a cluster to come up (default 120s)",
            "  --startup-grace D           nodes' startup grace, from their release at the start barrier (default 8s:",
            "                              16 low-noise node JVMs on two cores lost starts at 3s: docs/benchmarks.md)",
            "  --settle D                  quiet time after a cluster is up, before its first kill (default 1s)",
            "  --max-starts M              cluster starts per configuration before giving up (default 0: three times",
            "                              what the kill count needs at that size)",
            "  --config-budget D           no new cluster start for a configuration after this long on it",
            "                              (default none)",
            "  --rt-priority P             SCHED_FIFO priority 1..99 for low-noise node agents, 0 for none",
            "                              (default 0; needs root, CAP_SYS_NICE or ulimit -r); the driver's conductor",
            "                              runs one below, its network thread one above",
            "  --oversubscribe             run low-latency configurations with more busy-spinning agents than spare",
            "                              cores as one process per node anyway (default: their agents share one",
            "                              busy-spinning thread pinned to the last core, in this JVM)",
            "  --out DIR                   writes DIR/detection.md, DIR/detection.csv and DIR/detection-notes.md",
            "                              after every configuration (default results)",
            "Per cluster start: kill a random node at a random moment, wait until every survivor knows, repeat while",
            "more than ceil(N/2) survive, then SIGTERM one (LEAVE) and restart. A configuration gives up after 6",
            "cluster starts in a row without a measured kill (live nodes declared dead at start, say), after",
            "--max-starts, or after --config-budget. Exit code 1 if a configuration gave up before its kill count;",
            "false positives are a measured result, not a failure. Durations need their unit: ns, us, ms or s.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0, "--oversubscribe");
        final List<Integer> nodes = new ArrayList<>();
        for (final String n : flags.list("--nodes", "4,8,16"))
        {
            nodes.add(parseNodes(n));
        }
        final List<Long> suspicionTimeouts = new ArrayList<>();
        for (final String t : flags.list(SUSPICION_TIMEOUTS, "10ms,1ms"))
        {
            suspicionTimeouts.add(Args.durationNs(SUSPICION_TIMEOUTS, t));
        }
        final List<String> profiles = lowerCase(flags.list("--profiles", "low-latency,low-noise"));
        for (final String p : profiles)
        {
            if (!"low-latency".equals(p) && !"low-noise".equals(p))
            {
                throw new UsageException("bad value for --profiles: '" + p + "' (expected low-latency or low-noise)");
            }
        }
        final List<TransportMode> transports = new ArrayList<>();
        for (final String t : lowerCase(flags.list("--transports", "ipc,udp")))
        {
            switch (t)
            {
                case "ipc" -> transports.add(TransportMode.IPC);
                case "udp" -> transports.add(TransportMode.UDP);
                default -> throw new UsageException("bad value for --transports: '" + t + "' (expected ipc or udp)");
            }
        }
        final long periodRatio = flags.longValue(HEARTBEAT_PERIOD_RATIO, 10, 2, 1_000_000);
        final int kills = (int)flags.longValue(Args.KILLS, 50, 1, 1_000_000);
        final long seed = flags.longValue("--seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        final long missTimeoutNs = flags.durationNs("--miss-timeout", 5_000_000_000L);
        final long startTimeoutNs = flags.durationNs("--start-timeout", 120_000_000_000L);
        final long graceNs = flags.durationNs(Args.STARTUP_GRACE, 8_000_000_000L);
        final long settleNs = flags.durationNs("--settle", 1_000_000_000L);
        final int maxStarts = (int)flags.longValue("--max-starts", 0, 0, 1_000_000);
        final long budgetNs = flags.isSet("--config-budget") ? flags.durationNs("--config-budget", 0) : 0;
        final int realtimePriority = (int)flags.longValue("--rt-priority", 0, 0, 99);
        final boolean oversubscribe = flags.switchOn("--oversubscribe");
        final Path outDir = Path.of(flags.string("--out", "results"));
        flags.finish();

        final List<DetectionConfig> configs = new ArrayList<>();
        for (final int n : nodes)
        {
            for (final long suspicionTimeoutNs : suspicionTimeouts)
            {
                if (suspicionTimeoutNs / periodRatio <= 0)
                {
                    throw new UsageException("suspicion timeout " + Durations.format(suspicionTimeoutNs) + " / " +
                        HEARTBEAT_PERIOD_RATIO + " " + periodRatio + " leaves no heartbeat period");
                }
                for (final String profile : profiles)
                {
                    for (final TransportMode transport : transports)
                    {
                        configs.add(new DetectionConfig(
                            n, suspicionTimeoutNs, suspicionTimeoutNs / periodRatio, profile, transport));
                    }
                }
            }
        }
        final DetectionSettings settings;
        try
        {
            settings = new DetectionSettings(
                kills, seed, settleNs, missTimeoutNs, startTimeoutNs, graceNs, maxStarts, budgetNs, realtimePriority,
                oversubscribe);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }

        final String commandLine = "java -jar ringwatch-perf.jar detection " + String.join(" ", args);
        final String startedAt = Instant.now().toString();
        final String loadBefore = loadAverage();
        err.printf("detection: %d configurations x %d kills, η = δ/%d, seed %d, %d CPUs, load %s%n",
            configs.size(), kills, periodRatio, seed, Runtime.getRuntime().availableProcessors(), loadBefore);
        Files.createDirectories(outDir);
        final List<ConfigResult> done = new ArrayList<>();
        final DetectionBenchmark benchmark = new DetectionBenchmark(configs, settings, null, err);
        final List<ConfigResult> results = benchmark.run(result ->
        {
            done.add(result);
            out.print(DetectionReport.block(result));
            out.flush();
            write(outDir, done, commandLine, startedAt, loadBefore, periodRatio, settings);
        });

        out.println();
        out.print(DetectionReport.markdown(results));
        out.println("written: " + outDir.resolve("detection.md") + ", " + outDir.resolve("detection.csv") + ", " +
            outDir.resolve("detection-notes.md"));
        return results.stream().allMatch(r -> r.kills() >= kills) ? 0 : 1;
    }

    private static void write(
        final Path outDir,
        final List<ConfigResult> results,
        final String commandLine,
        final String startedAt,
        final String loadBefore,
        final long periodRatio,
        final DetectionSettings settings)
    {
        final StringBuilder md = new StringBuilder();
        md.append("# Detection benchmark\n\n");
        md.append("`").append(commandLine).append("`\n\n");
        md.append(String.format(Locale.ROOT,
            "Started %s, %d of the configurations done at %s. Host: %d CPUs, load average %s at start, %s now.%n" +
            "η = δ/%d; %d kills per configuration, seed %d, miss timeout %s; node JVMs: serial GC, C1 only.%n%n",
            startedAt, results.size(), Instant.now(), Runtime.getRuntime().availableProcessors(), loadBefore,
            loadAverage(), periodRatio, settings.killsPerConfig(), settings.seed(),
            Durations.format(settings.missTimeoutNs())));
        md.append(DetectionReport.markdown(results));
        md.append("\nDetection: SIGKILL to the first survivor's view holding the victim; stabilization: to the last " +
            "survivor's; LEAVE: SIGTERM (shutdown hook sends LEAVE) to the last survivor's. Times are the nodes' own " +
            "`System.nanoTime()` stamps in their view files. False positives: live nodes some survivor declared " +
            "dead (each once per cluster start). Missed: kills not known by every survivor within the miss timeout " +
            "(that cluster is then restarted). \"at start\": live nodes declared dead before the cluster was up " +
            "(that start failed and was retried). A configuration gives up after 6 cluster starts in a row without " +
            "a measured kill, after its start budget, or after --config-budget; its kills column then shows fewer " +
            "than asked for. \"(shared thread)\": low-latency configurations with more agents than spare cores run " +
            "every node in the harness JVM, their agents taking turns on one busy-spinning thread pinned to the last " +
            "core; a kill there is that thread ceasing to run the node (no LEAVE, nothing closed) and a leave is a " +
            "LEAVE request, so those rows time the profile, while SIGKILL of real processes is measured by the " +
            "others.\n");
        final StringBuilder notes = new StringBuilder();
        for (final ConfigResult r : results)
        {
            if (!r.notes().isEmpty() || r.failedStarts() > 0 || r.unexpectedExits() > 0)
            {
                notes.append(String.format(Locale.ROOT, "- %s: %d cluster starts (%d failed), %d unexpected exits",
                    r.label(), r.clusterStarts(), r.failedStarts(), r.unexpectedExits()));
                for (final String note : r.notes())
                {
                    notes.append("; ").append(note);
                }
                notes.append('\n');
            }
        }
        if (notes.length() > 0)
        {
            md.append("\nWhat went wrong (first few per configuration):\n\n").append(notes);
        }
        try
        {
            Files.writeString(outDir.resolve("detection.md"), md.toString(), StandardCharsets.UTF_8);
            Files.writeString(outDir.resolve("detection.csv"), DetectionReport.csv(results), StandardCharsets.UTF_8);
            final StringBuilder log = new StringBuilder("# every note, in order, per configuration\n");
            for (final ConfigResult r : results)
            {
                log.append("\n## ").append(r.label()).append('\n');
                r.log().forEach(line -> log.append("- ").append(line).append('\n'));
            }
            Files.writeString(outDir.resolve("detection-notes.md"), log.toString(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException("cannot write results to " + outDir, ex);
        }
    }

    private static List<String> lowerCase(final List<String> items)
    {
        final List<String> lower = new ArrayList<>(items.size());
        for (final String item : items)
        {
            lower.add(item.toLowerCase(Locale.ROOT));
        }
        return lower;
    }

    private static int parseNodes(final String n) throws UsageException
    {
        try
        {
            final int value = Integer.parseInt(n);
            if (value >= 3 && value <= 64)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below
        }
        throw new UsageException("bad value for --nodes: '" + n + "' (expected integers 3..64)");
    }

    private static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
        catch (final IOException | RuntimeException ex)
        {
            return "unknown";
        }
    }
}
