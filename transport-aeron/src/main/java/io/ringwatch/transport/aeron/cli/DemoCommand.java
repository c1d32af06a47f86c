package io.ringwatch.transport.aeron.cli;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code demo}: start a driver and N node processes, SIGKILL some at random moments (one adjacent pair when at
 * least two), and report who detected what and when from the survivors' view files. Exit 0 only if every survivor
 * learned exactly the killed set.
 */
final class DemoCommand
{
    /** Default η when the agents can run SCHED_FIFO: see the README's note on the demo's defaults. */
    static final String HEARTBEAT_DEFAULT = "5ms";
    /** Default δ when the agents can run SCHED_FIFO. */
    static final String TIMEOUT_DEFAULT = "50ms";
    /** Default η when they cannot, and wait for the fair scheduler. */
    static final String HEARTBEAT_FAIR_DEFAULT = "10ms";
    /** Default δ when they cannot. */
    static final String TIMEOUT_FAIR_DEFAULT = "400ms";
    /** SCHED_FIFO priority given to the agents when permitted and not set. */
    static final int REALTIME_PRIORITY_DEFAULT = 10;

    /**
     * The agents' real-time priority: as given, else {@link #REALTIME_PRIORITY_DEFAULT} when this host lets us (a
     * throwaway thread is raised and put back), else none; the choice and its reason are printed.
     */
    private static int realtimePriority(final Args args)
    {
        if (args.has("rt-priority"))
        {
            final int priority = args.getInt("rt-priority", 0);
            System.out.println("real-time: " + (priority > 0 ? "SCHED_FIFO " + priority : "off") + " (as requested)");
            return priority;
        }
        final RealtimePriority.Result probe = RealtimePriority.probe();
        if (probe.applied())
        {
            System.out.println("real-time: agents run SCHED_FIFO " + REALTIME_PRIORITY_DEFAULT + " (permitted " +
                "here), so a sleeping agent wakes on time whatever else runs; defaults η=" + HEARTBEAT_DEFAULT +
                " δ=" + TIMEOUT_DEFAULT);
            return REALTIME_PRIORITY_DEFAULT;
        }
        System.out.println("real-time: unavailable (" + probe.reason() + "); agents wait for the ordinary " +
            "scheduler, so the defaults are the conservative η=" + HEARTBEAT_FAIR_DEFAULT + " δ=" +
            TIMEOUT_FAIR_DEFAULT);
        return 0;
    }

    private static final Set<String> OPTIONS =
        Set.of("nodes", "kill", "transport", "heartbeat", "timeout", "seed", "profile", "grace",
            "rt-priority");

    private DemoCommand()
    {
    }

    static int run(final String[] argv) throws Exception
    {
        final Args args = new Args("demo", argv, 1, OPTIONS);
        final int nodes = args.getInt("nodes", 8);
        final int kill = args.getInt("kill", 2);
        final long seed = args.getLong("seed", System.nanoTime());
        final TransportMode transport = TransportMode.parse(args.get("transport", "ipc"));
        final int realtimePriority = realtimePriority(args);
        final boolean realtime = realtimePriority > 0;
        final long heartbeatNs = args.getDurationNs("heartbeat", org.agrona.SystemUtil.parseDuration("heartbeat",
            realtime ? HEARTBEAT_DEFAULT : HEARTBEAT_FAIR_DEFAULT));
        final long timeoutNs = args.getDurationNs("timeout", org.agrona.SystemUtil.parseDuration("timeout",
            realtime ? TIMEOUT_DEFAULT : TIMEOUT_FAIR_DEFAULT));
        if (nodes < 2)
        {
            throw new IllegalArgumentException("demo: --nodes must be >= 2: " + nodes);
        }
        if (kill < 1 || kill >= nodes)
        {
            throw new IllegalArgumentException("demo: --kill must be in [1, nodes): " + kill);
        }

        final int freeCores = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
        final TuningProfile profile;
        if (args.has("profile"))
        {
            profile = TuningProfile.fromName(args.get("profile", null));
            System.out.println("profile: " + profile.cliName() + " (as requested)");
        }
        else
        {
            final TuningProfile.Recommendation rec = TuningProfile.recommend(nodes, freeCores);
            profile = rec.profile();
            System.out.println("profile: " + profile.cliName() + " chosen automatically: " + rec.reason() +
                " (free cores = " + Runtime.getRuntime().availableProcessors() + " minus one for the media driver)");
        }
        System.out.println("demo: nodes=" + nodes + " kill=" + kill + " transport=" +
            transport.name().toLowerCase(Locale.ROOT) + " heartbeat=" + fmtMs(heartbeatNs) + "ms timeout=" +
            fmtMs(timeoutNs) + "ms seed=" + seed);

        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(nodes).transport(transport).heartbeatNs(heartbeatNs).timeoutNs(timeoutNs)
            .profile(profile.cliName());
        if (args.has("grace"))
        {
            options.graceNs(args.getDurationNs("grace", 0));
        }
        if (profile == TuningProfile.LOW_NOISE)
        {
            options.realtimePriority(realtimePriority);
        }

        try (LocalCluster cluster = new LocalCluster(options))
        {
            final long startNs = System.nanoTime();
            try
            {
                cluster.start();
                if (!cluster.awaitAllUp(60_000))
                {
                    System.out.println("nodes did not come up within 60s; node 0 log:\n" + cluster.log(0));
                    return 1;
                }
            }
            catch (final IllegalStateException ex)
            {
                // a node fenced or crashed while starting: the check failed, the configuration was fine
                System.out.println("FAILED during start: " + ex.getMessage());
                return 1;
            }
            System.out.println("all " + nodes + " nodes up, heartbeats flowing, after " +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + "ms; aeron.dir=" + cluster.aeronDir());
            // awaitAllUp returned after the startup grace; a short settle lets the last compilations finish
            Thread.sleep(500);

            final Random random = new Random(seed);
            final List<Integer> victims = chooseVictims(random, nodes, kill);
            final Set<Integer> killed = new LinkedHashSet<>();
            for (final int victim : victims)
            {
                Thread.sleep(random.nextInt((int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(2 * timeoutNs))));
                cluster.kill(victim);
                killed.add(victim);
                System.out.println("SIGKILL rank " + victim + " (pid " + cluster.process(victim).pid() + ")");
            }

            final long budgetMs = 10_000 + TimeUnit.NANOSECONDS.toMillis(kill * (kill + 1) * 2 * timeoutNs);
            final boolean agreed = cluster.awaitViews(killed, budgetMs);
            // keep watching a little longer so a late false suspicion is caught too
            Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(4 * timeoutNs)));
            return report(cluster, killed, agreed, nodes, transport, profile);
        }
    }

    static List<Integer> chooseVictims(final Random random, final int nodes, final int kill)
    {
        final LinkedHashSet<Integer> victims = new LinkedHashSet<>();
        final int first = random.nextInt(nodes);
        victims.add(first);
        if (kill >= 2)
        {
            victims.add((first + 1) % nodes);
        }
        while (victims.size() < kill)
        {
            victims.add(random.nextInt(nodes));
        }
        return new ArrayList<>(victims);
    }

    private static int report(
        final LocalCluster cluster,
        final Set<Integer> killed,
        final boolean agreed,
        final int nodes,
        final TransportMode transport,
        final TuningProfile profile)
    {
        final ViewSnapshot[] views = new ViewSnapshot[nodes];
        final List<Integer> survivors = new ArrayList<>();
        for (int r = 0; r < nodes; r++)
        {
            views[r] = cluster.view(r);
            if (!killed.contains(r))
            {
                survivors.add(r);
            }
        }

        final Histogram detection = new Histogram(3);
        final Histogram stabilization = new Histogram(3);
        int missed = 0;
        System.out.println();
        System.out.println("timeline (ms after SIGKILL; one monotonic clock on this host):");
        for (final int victim : killed)
        {
            final long killNs = cluster.killedAtNs(victim);
            long firstNs = Long.MAX_VALUE;
            long lastNs = Long.MIN_VALUE;
            int firstReporter = -1;
            final StringBuilder detectors = new StringBuilder();
            final StringBuilder learned = new StringBuilder();
            for (final int s : survivors)
            {
                final ViewSnapshot v = views[s];
                if (!v.isDead(victim))
                {
                    missed++;
                    learned.append(" ").append(s).append("=MISSED");
                    continue;
                }
                final long at = v.detectedAtNs(victim);
                if (at < firstNs)
                {
                    firstNs = at;
                    firstReporter = v.reporter(victim);
                }
                lastNs = Math.max(lastNs, at);
                if (v.cause(victim) == ViewLayout.CAUSE_DETECTED)
                {
                    detectors.append(detectors.length() == 0 ? "" : ",").append(s);
                }
                learned.append(" ").append(s).append("=").append(fmtMs(at - killNs));
            }
            if (firstNs != Long.MAX_VALUE)
            {
                detection.recordValue(Math.max(0, firstNs - killNs) / 1000);
                stabilization.recordValue(Math.max(0, lastNs - killNs) / 1000);
                System.out.println("  rank " + victim + ": detected by " +
                    (detectors.length() == 0 ? firstReporter + " (a victim itself, its notice got out)" : detectors) +
                    " after " + fmtMs(firstNs - killNs) +
                    "ms; last survivor knew after " + fmtMs(lastNs - killNs) + "ms; learned:" + learned);
            }
            else
            {
                System.out.println("  rank " + victim + ": NOT DETECTED by any survivor");
            }
        }

        final Set<Integer> falselyDead = new LinkedHashSet<>();
        int troubled = 0;
        for (final int s : survivors)
        {
            final ViewSnapshot v = views[s];
            for (int r = 0; r < nodes; r++)
            {
                if (v.isDead(r) && !killed.contains(r))
                {
                    falselyDead.add(r);
                    System.out.println("  FALSE POSITIVE: rank " + s + " holds rank " + r + " dead (" +
                        ViewLayout.causeName(v.cause(r)) + " by " + v.reporter(r) + ")");
                }
            }
            if (v.state() != DetectorNode.ACTIVE || !cluster.process(s).isAlive())
            {
                troubled++;
                System.out.println("  survivor " + s + " is " + v.stateName() +
                    (cluster.process(s).isAlive() ? "" : " and exited with " + cluster.process(s).exitValue()));
            }
        }

        System.out.println();
        System.out.println("detection delay (kill -> first survivor knows), ms:");
        printHistogram(detection);
        System.out.println("stabilization (kill -> last survivor knows), ms:");
        printHistogram(stabilization);

        final boolean ok = agreed && missed == 0 && falselyDead.isEmpty() && troubled == 0;
        System.out.println(ok ? "OK: every survivor learned exactly the killed set " + killed :
            "FAILED: survivors do not agree on exactly the killed set " + killed);
        System.out.println(String.format(Locale.ROOT,
            "{\"nodes\":%d,\"killed\":%d,\"falsePositives\":%d,\"missed\":%d," +
            "\"detectionMs\":{\"p50\":%s,\"max\":%s},\"stabilizationMs\":{\"p50\":%s,\"max\":%s}," +
            "\"transport\":\"%s\",\"profile\":\"%s\"}",
            nodes, killed.size(), falselyDead.size(), missed,
            usToMs(detection.getValueAtPercentile(50)), usToMs(detection.getMaxValue()),
            usToMs(stabilization.getValueAtPercentile(50)), usToMs(stabilization.getMaxValue()),
            transport.name().toLowerCase(Locale.ROOT), profile.cliName()));
        return ok ? 0 : 1;
    }

    private static void printHistogram(final Histogram h)
    {
        if (h.getTotalCount() == 0)
        {
            System.out.println("  (no samples)");
            return;
        }
        System.out.println(String.format(Locale.ROOT, "  count=%d min=%s p50=%s p90=%s max=%s mean=%.3f",
            h.getTotalCount(), usToMs(h.getMinValue()), usToMs(h.getValueAtPercentile(50)),
            usToMs(h.getValueAtPercentile(90)), usToMs(h.getMaxValue()), h.getMean() / 1000.0));
    }

    private static String usToMs(final long us)
    {
        return String.format(Locale.ROOT, "%.3f", us / 1000.0);
    }

    private static String fmtMs(final long ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1_000_000.0);
    }
}
