package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code demo}: start a driver and N node processes, SIGKILL some at random moments (one adjacent pair when at
 * least two), and report who detected what and when from the survivors' view files. Exit 0 only if every survivor
 * learned exactly the killed set.
 */
final class DemoCommand
{
    /** Default η when the agents can run SCHED_FIFO: see the README's note on the demo's defaults. */
    static final long HEARTBEAT_PERIOD_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Default δ when the agents can run SCHED_FIFO. */
    static final long SUSPICION_TIMEOUT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Default η when they cannot, and wait for the fair scheduler. */
    static final long HEARTBEAT_PERIOD_FAIR_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Default δ when they cannot. */
    static final long SUSPICION_TIMEOUT_FAIR_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(400);
    /** SCHED_FIFO priority given to the agents when permitted and not set. */
    static final int REALTIME_PRIORITY_DEFAULT = 10;

    /**
     * The agents' real-time priority: as requested, else {@link #REALTIME_PRIORITY_DEFAULT} when this host lets us (a
     * throwaway thread is raised and put back), else none; the choice and its reason are printed.
     *
     * @param requested {@code --rt-priority}, or null if not given.
     */
    static int realtimePriority(final Integer requested)
    {
        if (requested != null)
        {
            System.out.println("real-time: " + (requested > 0 ? "SCHED_FIFO " + requested : "off") + " (as requested)");
            return requested;
        }
        final RealtimePriority.Result probe = RealtimePriority.probe();
        if (probe.applied())
        {
            System.out.println("real-time: agents run SCHED_FIFO " + REALTIME_PRIORITY_DEFAULT + " (permitted " +
                "here), so a sleeping agent wakes on time whatever else runs; defaults " +
                settings(HEARTBEAT_PERIOD_DEFAULT_NS, SUSPICION_TIMEOUT_DEFAULT_NS));
            return REALTIME_PRIORITY_DEFAULT;
        }
        System.out.println("real-time: unavailable (" + probe.reason() + "); agents wait for the ordinary " +
            "scheduler, so the defaults are the conservative " +
            settings(HEARTBEAT_PERIOD_FAIR_DEFAULT_NS, SUSPICION_TIMEOUT_FAIR_DEFAULT_NS));
        return 0;
    }

    private static String settings(final long heartbeatPeriodNs, final long suspicionTimeoutNs)
    {
        return "heartbeat-period=" + Durations.format(heartbeatPeriodNs) + " suspicion-timeout=" +
            Durations.format(suspicionTimeoutNs);
    }

    private DemoCommand()
    {
    }

    static int run(final String[] argv) throws Exception
    {
        if (Arrays.asList(argv).contains(Args.PROCS_PER_NODE) || Arrays.asList(argv).contains("--procs"))
        {
            return TwoLevelDemo.run(argv);
        }
        final Args args = new Args(argv, 1, "--restart");
        final boolean restart = args.switchOn("--restart");
        final int nodes = args.intValue("--nodes", 8, 2, ProtocolSettings.MAX_CLUSTER_SIZE);
        final int kill = args.intValue(Args.KILLS, 2, 1, Integer.MAX_VALUE);
        final long seed = args.longValue("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
        final TransportMode transport = TransportMode.parse(args.string("--transport", "ipc"));
        final long heartbeatPeriodArgNs = args.durationNs(Args.HEARTBEAT_PERIOD, -1);
        final long suspicionTimeoutArgNs = args.durationNs(Args.SUSPICION_TIMEOUT, -1);
        final String profileName = args.string("--profile", null);
        final long graceNs = args.durationNs(Args.STARTUP_GRACE, -1);
        final int seeds = args.intValue("--seeds", -1, 1, Integer.MAX_VALUE);
        final Integer requestedPriority = args.isSet("--rt-priority") ?
            args.intValue("--rt-priority", 0, Integer.MIN_VALUE, Integer.MAX_VALUE) : null;
        args.finish();
        if (kill >= nodes)
        {
            throw new UsageException("--kills must be in [1, nodes): " + kill);
        }
        if (2 * kill >= nodes)
        {
            // the kills land within one settle period, so under the default majority rule the survivors cannot tell
            // them from being cut off and stop themselves (exactly half goes on only if it holds rank 0)
            throw new UsageException("--kills " + kill + " of " + nodes + " nodes leaves no strict majority alive: " +
                "under the majority partition rule the survivors would stop themselves; kill fewer than half");
        }

        final int realtimePriority = realtimePriority(requestedPriority);
        final boolean realtime = realtimePriority > 0;
        final long heartbeatPeriodNs = heartbeatPeriodArgNs >= 0 ? heartbeatPeriodArgNs :
            realtime ? HEARTBEAT_PERIOD_DEFAULT_NS : HEARTBEAT_PERIOD_FAIR_DEFAULT_NS;
        final long suspicionTimeoutNs = suspicionTimeoutArgNs >= 0 ? suspicionTimeoutArgNs :
            realtime ? SUSPICION_TIMEOUT_DEFAULT_NS : SUSPICION_TIMEOUT_FAIR_DEFAULT_NS;
        // every node would refuse these after its JVM started; the protocol's own check says why before any starts
        ProtocolSettings.of(nodes, heartbeatPeriodNs, suspicionTimeoutNs);

        final int freeCores = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
        final TuningProfile profile;
        if (profileName != null)
        {
            profile = TuningProfile.fromName(profileName);
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
            transport.name().toLowerCase(Locale.ROOT) + " " + settings(heartbeatPeriodNs, suspicionTimeoutNs) +
            " seed=" + seed);

        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(nodes).transport(transport).heartbeatPeriodNs(heartbeatPeriodNs)
            .suspicionTimeoutNs(suspicionTimeoutNs).profile(profile.cliName());
        if (graceNs >= 0)
        {
            options.graceNs(graceNs);
        }
        if (seeds > 0)
        {
            options.nodeArgs(List.of("--seeds", Integer.toString(seeds)));
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

            // SplittableRandom mixes its seed: java.util.Random gives nearly the same first draws for neighbouring seeds
            final SplittableRandom random = new SplittableRandom(seed);
            final List<Integer> victims = chooseVictims(random, nodes, kill);
            final Set<Integer> killed = new LinkedHashSet<>();
            for (final int victim : victims)
            {
                Thread.sleep(random.nextInt((int)Math.max(1, TimeUnit.NANOSECONDS.toMillis(2 * suspicionTimeoutNs))));
                cluster.kill(victim);
                killed.add(victim);
                System.out.println("SIGKILL rank " + victim + " (pid " + cluster.process(victim).pid() + ")");
            }

            final long budgetMs = 10_000 + TimeUnit.NANOSECONDS.toMillis(kill * (kill + 1) * 2 * suspicionTimeoutNs);
            final boolean agreed = cluster.awaitViews(killed, budgetMs);
            // keep watching a little longer so a late false suspicion is caught too
            Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(4 * suspicionTimeoutNs)));
            final Outcome outcome = report(cluster, killed, agreed, nodes, transport, profile);
            boolean ok = outcome.ok();
            final StringBuilder json = new StringBuilder(outcome.json());
            if (restart)
            {
                final Rejoin rejoin = ok ? rejoin(cluster, killed, nodes, suspicionTimeoutNs) : new Rejoin(0, -1);
                ok &= rejoin.rejoined() == killed.size();
                json.append(",\"rejoined\":").append(rejoin.rejoined())
                    .append(",\"rejoinMs\":").append(rejoin.maxNs() < 0 ? "null" : fmtMs(rejoin.maxNs()));
            }
            System.out.println(json.append('}'));
            return ok ? 0 : 1;
        }
    }

    private record Outcome(boolean ok, String json)
    {
    }

    private record Rejoin(int rejoined, long maxNs)
    {
    }

    /**
     * Start every killed rank again as a new process joining under a new incarnation, as a supervisor would, and check
     * every survivor readmits each under the incarnation the joiner reports in its own view.
     *
     * @return how many rejoined everywhere, and the longest time from relaunch to the last survivor's admission (the
     * joiner's JVM start included).
     */
    private static Rejoin rejoin(
        final LocalCluster cluster, final Set<Integer> killed, final int nodes, final long suspicionTimeoutNs)
        throws InterruptedException
    {
        System.out.println();
        final long[] restartedAtNs = new long[nodes];
        for (final int victim : killed)
        {
            restartedAtNs[victim] = cluster.restart(victim);
            System.out.println("restart rank " + victim + " with its first command line (pid " + cluster.process(victim).pid() +
                ", " + fmtMs(restartedAtNs[victim] - cluster.killedAtNs(victim)) + " ms after its SIGKILL)");
        }
        final boolean whole = cluster.awaitViews(Set.of(),
            60_000 + TimeUnit.NANOSECONDS.toMillis(killed.size() * 4 * suspicionTimeoutNs));
        Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(4 * suspicionTimeoutNs)));

        int rejoined = 0;
        long maxNs = -1;
        for (final int victim : killed)
        {
            final ViewSnapshot own = cluster.tryView(victim, new ViewSnapshot());
            final long incarnation = own == null ? 0 : own.incarnation(victim);
            final boolean up = own != null && own.state() == NodeState.ACTIVE && cluster.process(victim).isAlive();
            boolean everywhere = up && incarnation > 0;
            long lastNs = Long.MIN_VALUE;
            final StringBuilder learned = new StringBuilder();
            for (int r = 0; r < nodes; r++)
            {
                if (killed.contains(r))
                {
                    continue;
                }
                final ViewSnapshot v = cluster.view(r);
                if (v.isDead(victim) || v.cause(victim) != ViewLayout.CAUSE_JOINED || v.incarnation(victim) != incarnation)
                {
                    everywhere = false;
                    learned.append(" ").append(r).append("=MISSED(").append(v).append(")");
                    continue;
                }
                lastNs = Math.max(lastNs, v.detectedAtNs(victim));
                learned.append(" ").append(r).append("=").append(fmtMs(v.detectedAtNs(victim) - restartedAtNs[victim]));
            }
            if (everywhere)
            {
                rejoined++;
                maxNs = Math.max(maxNs, lastNs - restartedAtNs[victim]);
            }
            System.out.println("  rank " + victim + (up ? " up as incarnation " + incarnation : " NOT UP") +
                portWait(cluster.log(victim)) + "; readmitted (ms after relaunch, its JVM start included):" + learned);
            if (!everywhere)
            {
                System.out.println("  rank " + victim + " log:\n" + cluster.log(victim));
            }
        }
        System.out.println(whole && rejoined == killed.size() ?
            "OK: every survivor saw each death and then each rejoin " + killed :
            "FAILED: not every restarted rank was readmitted everywhere " + killed);
        return new Rejoin(rejoined, maxNs);
    }

    /**
     * @param log a restarted node's log.
     * @return over UDP, how long it waited for the driver to free its control port (see RingwatchNode), else "".
     */
    private static String portWait(final String log)
    {
        final String mark = ": control port ";
        return log.lines()
            .filter(line -> line.contains(mark) && line.contains(" free after "))
            .map(line -> " (its control port " + line.substring(line.indexOf(mark) + mark.length()) + ")")
            .findFirst()
            .orElse("");
    }

    static List<Integer> chooseVictims(final SplittableRandom random, final int nodes, final int kill)
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

    private static Outcome report(
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
            if (v.state() != NodeState.ACTIVE || !cluster.process(s).isAlive())
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
        return new Outcome(ok, String.format(Locale.ROOT,
            "{\"nodes\":%d,\"killed\":%d,\"falsePositives\":%d,\"missed\":%d," +
            "\"detectionMs\":{\"p50\":%s,\"max\":%s},\"stabilizationMs\":{\"p50\":%s,\"max\":%s}," +
            "\"transport\":\"%s\",\"profile\":\"%s\"",
            nodes, killed.size(), falselyDead.size(), missed,
            usToMs(detection.getValueAtPercentile(50)), usToMs(detection.getMaxValue()),
            usToMs(stabilization.getValueAtPercentile(50)), usToMs(stabilization.getMaxValue()),
            transport.name().toLowerCase(Locale.ROOT), profile.cliName()));
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
