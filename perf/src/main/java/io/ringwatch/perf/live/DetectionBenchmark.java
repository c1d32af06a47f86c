package io.ringwatch.perf.live;

import io.ringwatch.core.config.Durations;
import io.ringwatch.transport.aeron.launch.ClusterStart;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.launch.NodeProcesses;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the detection benchmark over a list of configurations: for each, clusters of real node processes are
 * started (one {@link LocalCluster} each, with its own driver process) and put through {@link ClusterSession}'s kill
 * plan until the configuration has its kills or its cluster starts run out. Low-latency configurations with more
 * agents than spare cores run their nodes on one shared spinning thread instead ({@link SharedThreadCluster}),
 * unless {@code --oversubscribe} asks for processes anyway.
 * <p>
 * The driver is not reused across starts: {@code LocalCluster} owns its driver and directory and deletes both on
 * close, which is also what guarantees no process or file outlives a start. Launching the driver takes a fraction
 * of a second; the node JVMs dominate the start cost, and they are kept small (serial GC, C1 only).
 */
public final class DetectionBenchmark
{
    /**
     * A configuration whose clusters keep declaring live nodes dead before anyone is killed (e.g. busy-spinning
     * nodes outnumbering cores) stops after this many cluster starts in a row without a measured kill, instead of
     * burning its whole start budget.
     */
    static final int MAX_STARTS_WITHOUT_KILL = 6;

    private static final String LOW_LATENCY = "low-latency";

    private final List<DetectionConfig> configs;
    private final DetectionSettings settings;
    private final String classpath;
    private final PrintStream progress;
    private final long startNs = System.nanoTime();
    private int killsDone;

    /**
     * @param configs   configurations, run in this order.
     * @param settings  kill counts, timeouts, seed.
     * @param classpath classpath of the node JVMs, or null for {@code LocalCluster}'s default (this JVM's).
     * @param progress  where progress lines go.
     */
    public DetectionBenchmark(
        final List<DetectionConfig> configs,
        final DetectionSettings settings,
        final String classpath,
        final PrintStream progress)
    {
        this.configs = List.copyOf(configs);
        this.settings = settings;
        this.classpath = classpath;
        this.progress = progress;
    }

    /**
     * @param onConfigDone called after each configuration (e.g. to rewrite the result files).
     * @return one result per configuration.
     * @throws InterruptedException if interrupted; every process started so far is destroyed first.
     */
    public List<ConfigResult> run(final Consumer<ConfigResult> onConfigDone) throws InterruptedException
    {
        final List<ConfigResult> results = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++)
        {
            final ConfigResult result = runConfig(i);
            killsDone += settings.killsPerConfig() - result.kills();  // a config that gave up counts as done
            results.add(result);
            onConfigDone.accept(result);
        }
        return results;
    }

    private ConfigResult runConfig(final int index) throws InterruptedException
    {
        final DetectionConfig config = configs.get(index);
        final ConfigResult result = new ConfigResult(config);
        final Random random = new Random(settings.seed() * 0x9E3779B97F4A7C15L + index);
        final long configStartNs = System.nanoTime();
        final int maxStarts = settings.maxStartsFor(config);
        final boolean shared = sharesOneThread(config);
        if (shared && Runtime.getRuntime().availableProcessors() < 2)
        {
            result.recordNotRun("the low-latency profile needs a core to spin on besides the driver's and this one's");
            progress.println("[" + config.label() + "] not run: " + result.notRun());
            return result;
        }
        if (shared)
        {
            result.recordSharedThread();
        }
        while (result.kills() < settings.killsPerConfig() && result.clusterStarts() < maxStarts &&
            (settings.configBudgetNs() == 0 || System.nanoTime() - configStartNs < settings.configBudgetNs()))
        {
            try (LiveCluster cluster = shared ? new SharedThreadCluster(new LocalCluster(options(config, index))) :
                new ProcessCluster(new LocalCluster(options(config, index))))
            {
                final String failure = startAndAwaitUp(cluster);
                result.recordHosting(cluster.hosting());
                result.recordStart(failure == null, failure);
                if (failure != null)
                {
                    result.recordFalsePositivesAtStart(deadAtStart(cluster, config.nodes()));
                }
                if (failure == null)
                {
                    final int before = result.kills();
                    try
                    {
                        new ClusterSession(cluster, config, settings, random, result)
                            .run(settings.killsPerConfig() - result.kills());
                    }
                    catch (final RuntimeException ex)
                    {
                        // the measurement of this start is lost, not the benchmark; close() still cleans up
                        result.recordSessionError("cluster session failed: " + ex);
                    }
                    killsDone += result.kills() - before;
                }
            }
            progress.println(progressLine(index, result));
            if (result.startsWithoutKill() >= MAX_STARTS_WITHOUT_KILL)
            {
                break;
            }
        }
        result.addWallNs(System.nanoTime() - configStartNs);
        if (result.kills() < settings.killsPerConfig())
        {
            progress.println("[" + result.label() + "] gave up after " + result.clusterStarts() + " cluster starts " +
                "(" + result.failedStarts() + " failed) with " + result.kills() + " of " + settings.killsPerConfig() +
                " kills");
        }
        return result;
    }

    /**
     * The low-latency profile promises each agent a core of its own to spin on; with fewer spare cores than agents,
     * processes would measure busy-spinners starving each other, so the agents share one spinning thread pinned to
     * the last core instead (unless --oversubscribe). One core is left to the driver, this harness and the rest.
     */
    private boolean sharesOneThread(final DetectionConfig config)
    {
        final int spareCores = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
        return LOW_LATENCY.equals(config.profile()) && !settings.oversubscribe() && config.nodes() > spareCores;
    }

    private LocalCluster.Options options(final DetectionConfig config, final int index)
    {
        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(config.nodes())
            .transport(config.transport())
            .heartbeatPeriodNs(config.heartbeatPeriodNs())
            .suspicionTimeoutNs(config.suspicionTimeoutNs())
            .graceNs(settings.graceNs())
            .profile(config.profile())
            .realtimePriority(LOW_LATENCY.equals(config.profile()) ? 0 : settings.realtimePriority())
            .clusterId(100 + index);
        if (classpath != null)
        {
            options.classpath(classpath);
        }
        return options;
    }

    /**
     * @return null if the cluster is up; else why not (a node exiting or not getting ready is a failed start, not
     * the end of the benchmark).
     */
    private String startAndAwaitUp(final LiveCluster cluster) throws InterruptedException
    {
        try
        {
            cluster.start();
            if (cluster.awaitAllUp(TimeUnit.NANOSECONDS.toMillis(settings.startTimeoutNs())))
            {
                return null;
            }
            return "cluster not up within " + Durations.format(settings.startTimeoutNs());
        }
        catch (final IllegalStateException ex)
        {
            // LocalCluster appends the node's whole log; the first clause says what happened, and the node's EXCLUDED
            // line why it stopped (or, if it never stopped, its last line: where a node that never got ready stood)
            final String message = String.valueOf(ex.getMessage());
            final int log = message.indexOf(NodeProcesses.LOG_MARK);
            if (log < 0)
            {
                return "start failed: " + message;
            }
            // the report of every node's view after the log is not the failing node's own words
            final int report = message.indexOf(ClusterStart.EVERY_NODE_REPORT, log);
            final String nodeLog = message.substring(
                log + NodeProcesses.LOG_MARK.length(), report < 0 ? message.length() : report);
            return "start failed: " + message.substring(0, log) + " (" + telling(nodeLog) + ")";
        }
    }

    /**
     * @param log a node's log.
     * @return its line that tells most about a failed start.
     */
    private static String telling(final String log)
    {
        final int excluded = log.indexOf("EXCLUDED: ");
        if (excluded >= 0)
        {
            final int end = log.indexOf('\n', excluded);
            return log.substring(excluded, end < 0 ? log.length() : end).trim();
        }
        final String trimmed = log.trim();
        final int lastLine = trimmed.lastIndexOf('\n');
        return "last log line: " + (lastLine < 0 ? trimmed : trimmed.substring(lastLine + 1).trim());
    }

    /**
     * @return ranks some node held dead when the start failed: nobody was killed yet, so each is a false positive.
     */
    private static int deadAtStart(final LiveCluster cluster, final int nodes)
    {
        final boolean[] dead = new boolean[nodes];
        for (int r = 0; r < nodes; r++)
        {
            try
            {
                final ViewSnapshot view = cluster.view(r);
                for (int d = 0; d < nodes; d++)
                {
                    dead[d] |= view.isDead(d);
                }
            }
            catch (final IllegalStateException ex)
            {
                // this node never wrote its view file
            }
        }
        int count = 0;
        for (final boolean d : dead)
        {
            count += d ? 1 : 0;
        }
        return count;
    }

    private String progressLine(final int index, final ConfigResult result)
    {
        final long elapsedNs = System.nanoTime() - startNs;
        final long target = (long)configs.size() * settings.killsPerConfig();
        final long done = Math.min(target, killsDone);
        final String eta = done == 0 ? "?" : formatSeconds((long)(elapsedNs * ((double)(target - done) / done)));
        return String.format("[%d/%d %s] kills %d/%d starts %d (failed %d) fp %d missed %d | elapsed %s ETA %s",
            index + 1, configs.size(), result.label(), result.kills(), settings.killsPerConfig(),
            result.clusterStarts(), result.failedStarts(), result.falsePositives(), result.missed(),
            formatSeconds(elapsedNs), eta);
    }

    private static String formatSeconds(final long ns)
    {
        final long s = TimeUnit.NANOSECONDS.toSeconds(ns);
        return s >= 3600 ? String.format("%dh%02dm", s / 3600, s % 3600 / 60) :
            String.format("%dm%02ds", s / 60, s % 60);
    }
}
