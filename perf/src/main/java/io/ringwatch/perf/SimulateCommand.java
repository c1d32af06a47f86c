package io.ringwatch.perf;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.codec.ProcessFailureFlyweight;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.process.JobFile;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.protocol.Theorem1;
import io.ringwatch.core.sim.BootMode;
import io.ringwatch.core.sim.FailurePlacement;
import io.ringwatch.core.sim.Partition;
import io.ringwatch.core.sim.PartitionCheck;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SimResult;
import io.ringwatch.core.sim.Simulation;
import io.ringwatch.core.sim.Wire;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code simulate}: many seeded runs of the discrete-event simulator, a readable summary, and a last line of
 * JSON for scripts. Exits 1 if any run broke a property or the Theorem 1 bound.
 */
final class SimulateCommand implements Command
{
    private static final double NS_PER_YEAR = 365.25 * 24 * 3600 * 1e9;

    public String name()
    {
        return "simulate";
    }

    public String summary()
    {
        return "seeded discrete-event simulation of the detector on a large cluster, with checkers";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar simulate [flags]",
            "  --nodes N              cluster size (default 1024)",
            "  --failures F           crashes per run; the upper limit for exponential (default 1, exponential:",
            "                         floor(log2 N) - 1)",
            "  --placement P          random | contiguous | exponential (default random)",
            "  --heartbeat-period D   η (default 100ms)",
            "  --suspicion-timeout D  δ (default 1s)",
            "  --tau D                maximum message delay; delays are uniform in (0, tau] (default 1ms)",
            "  --window D             random/contiguous crashes all strike within this (default half the suspicion",
            "                         timeout)",
            "  --broadcast B          double-hypercube (default) | binomial-graph",
            "  --one-port             serialize each node's sends and receives (needed for the bound check)",
            "  --replay-guards        each node judges its frames with a replay guard, as live (N <= 1024)",
            "  --run-binding          each node draws a candidate run and binds its frames to a run, as live",
            "  --loss P               probability that a message is lost (default 0)",
            "  --mtbf-years Y         per-node MTBF for exponential arrivals (default 1)",
            "  --pauses K             also pause K random nodes within the crash window (zombies to fence)",
            "  --pause-for D          how long each of those pauses lasts (default twice the suspicion timeout)",
            "  --partition A:B[:C..]  split the network into groups of these sizes (summing to N), then heal",
            "  --partition-placement P  contiguous (segments of the ring, default) | random",
            "  --partition-at D       when the cut starts (default: when failures start)",
            "  --partition-for D      how long it lasts (default 5 suspicion timeouts)",
            "  --one-way              the first group hears nothing from the others, which still hear it",
            "  --flap K               a flapping link: the partition's cut happens K times (default 1)",
            "  --flap-up D            how long the network is whole between two of those cuts (default --partition-for)",
            "  --stall-near-cut D     the nodes on each edge of the cut stall (pause) for D at a random time in it",
            "  --isolate K            instead of --partition: K random nodes each cut off alone",
            "  --policy P             partition policy: majority (default) | none (the paper's: every side goes on)",
            "  --probe-timeout D      probe round timeout (default min(eta, delta/4)); 0 skips the ear check",
            "                         (a broken rule, for negative controls)",
            "  --view-digest-period D how often a node sends its neighbours a digest of its view (default 4 delta);",
            "                         0 turns view repair off (a negative control)",
            "  --procs-per-node K     two levels: K application processes per daemon (default 0: nodes only)",
            "  --job FILE             two levels, any count per daemon: a job file (processes P; node R ranks A-B)",
            "  --process-failures F   crash F random processes within the crash window, mixed with the node",
            "                         failures; checks every surviving daemon learns exactly the dead processes",
            "  --restart-after D      restart every node that stops (crash, leave, exclusion) D later under a new",
            "                         incarnation, through the join protocol (default: no restarts)",
            "  --boot B               members (default: every rank a member from the start) | join (start = join:",
            "                         the seeds start at once, every other rank joins when it starts) |",
            "                         late-members (a broken rule, for negative controls: the others start late",
            "                         as members, without joining)",
            "  --seeds S              the seeds, ranks 0..S-1 (default 3)",
            "  --start-spread D       under --boot join|late-members the others start at random within D (default 0)",
            "  --startup-grace D      every node's startup grace, as ringwatch.startup.grace: nobody is judged before",
            "                         delta after it ends (default 0)",
            "  --boot-stalls K        K random nodes each stall once, starting within --boot-stall-lead before",
            "                         their own grace ends, as JVMs warming up on a loaded host (default 0)",
            "  --boot-stall-min D     shortest boot stall (default 2 delta)",
            "  --boot-stall-max D     longest boot stall (default 8 delta); a stall may run on past the grace",
            "  --boot-stall-lead D    boot stalls start at most this long before the grace ends (default the grace)",
            "  --break RULES          run every node without these rules, comma-separated (negative controls):",
            "                         observer-request, fresh-evidence, grace-arming, quiet-zombie-frames,",
            "                         count-again, reform-unanimity, join-star, join-challenge, stale-count,",
            "                         run-binding, join-settle, joiner-counts-itself, thin-witnesses",
            "                         (see docs/simulator.md)",
            "  --runs R               independent runs (default 1)",
            "  --seed S               batch seed; run i uses a seed derived from (S, i) (default 42)",
            "  --threads T            runs in parallel (default 2)",
            "durations take a unit: ns, us, ms or s (e.g. 10s, 1.5ms).",
            "The last line of output is a JSON object; the exit code is 1 if any violation occurred.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0, "--one-port", "--one-way", "--replay-guards", "--run-binding");
        final int nodes = (int)flags.longValue("--nodes", 1024, 2, ProtocolSettings.MAX_CLUSTER_SIZE);
        final FailurePlacement placement;
        final String placementName = flags.string("--placement", "random");
        try
        {
            placement = FailurePlacement.parse(placementName);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad value for --placement: '" + placementName + "' " +
                "(expected random, contiguous or exponential)");
        }
        final int defaultFailures = placement == FailurePlacement.EXPONENTIAL ?
            Math.max(1, (31 - Integer.numberOfLeadingZeros(nodes)) - 1) : 1;
        final int failures = (int)flags.longValue("--failures", defaultFailures, 0, nodes - 1);
        final long heartbeatPeriodNs = flags.durationNs(Args.HEARTBEAT_PERIOD, 100_000_000L);
        final long suspicionTimeoutNs = flags.durationNs(Args.SUSPICION_TIMEOUT, 1_000_000_000L);
        final long tauNs = flags.durationNs("--tau", 1_000_000L);
        final boolean windowSet = flags.isSet("--window");
        final long windowNs = flags.durationNs("--window", suspicionTimeoutNs / 2);
        final boolean onePort = flags.switchOn("--one-port");
        final boolean replayGuards = flags.switchOn("--replay-guards");
        final boolean runBinding = flags.switchOn("--run-binding");
        if (replayGuards && nodes > Wire.MAX_GUARDED_NODES)
        {
            throw new UsageException("--replay-guards simulates up to " + Wire.MAX_GUARDED_NODES + " nodes");
        }
        final double loss = flags.doubleValue("--loss", 0, 0, 0.999_999);
        final double mtbfYears = flags.doubleValue("--mtbf-years", 1, 1e-12, 1e6);
        final int runs = (int)flags.longValue("--runs", 1, 1, 100_000_000);
        final long seed = flags.longValue("--seed", 42, Long.MIN_VALUE, Long.MAX_VALUE);
        final int threads = (int)flags.longValue("--threads", 2, 1, 256);
        final int pauses = (int)flags.longValue("--pauses", 0, 0, nodes - 1);
        final BroadcastKind broadcast;
        try
        {
            broadcast = BroadcastKind.parse(flags.string("--broadcast", "double-hypercube"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        final long pauseNs = flags.durationNs("--pause-for", 2 * suspicionTimeoutNs);
        final int procsPerNode = (int)flags.longValue(Args.PROCS_PER_NODE, 0, 0, ProcessFailureFlyweight.MAX_PROCESSES);
        final int processFailures = (int)flags.longValue("--process-failures", 0, 0, Integer.MAX_VALUE);
        final String jobFile = flags.string("--job", null);
        if (jobFile != null && procsPerNode > 0)
        {
            throw new UsageException("give --procs-per-node K or --job FILE, not both");
        }
        final JobLayout job;
        try
        {
            job = jobFile == null ? null : JobFile.load(Path.of(jobFile), nodes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad --job: " + ex.getMessage());
        }
        final boolean twoLevels = procsPerNode > 0 || job != null;
        final Partition partition = partition(flags, nodes, suspicionTimeoutNs + heartbeatPeriodNs, suspicionTimeoutNs);
        final PartitionPolicy policy;
        try
        {
            policy = PartitionPolicy.parse(flags.string("--policy", "majority"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        final int flaps = (int)flags.longValue("--flap", 1, 1, 1_000);
        final long flapUpNs = flags.durationNs("--flap-up", partition == null ? 1 : partition.durationNs());
        final long stallNs = flags.durationNs("--stall-near-cut", 0);
        if ((flaps > 1 || stallNs > 0) && partition == null)
        {
            throw new UsageException("--flap and --stall-near-cut need --partition or --isolate");
        }
        final boolean probeTimeoutSet = flags.isSet("--probe-timeout");
        final long probeTimeoutNs = flags.durationNs("--probe-timeout", 0);
        final boolean viewDigestPeriodSet = flags.isSet("--view-digest-period");
        final long viewDigestPeriodNs = flags.durationNs("--view-digest-period", 0);
        final long restartAfterNs = flags.isSet("--restart-after") ? flags.durationNs("--restart-after", 0) : -1;
        final BootMode boot = switch (flags.string("--boot", "members"))
        {
            case "members" -> BootMode.MEMBERS;
            case "join" -> BootMode.JOIN;
            case "late-members" -> BootMode.LATE_MEMBERS;
            default -> throw new UsageException("--boot must be members, join or late-members");
        };
        final int seeds = (int)flags.longValue("--seeds", -1, 1, nodes);
        final long startSpreadNs = flags.durationNs("--start-spread", 0);
        final long graceNs = flags.durationNs(Args.STARTUP_GRACE, 0);
        final int bootStalls = (int)flags.longValue("--boot-stalls", 0, 0, nodes);
        final long bootStallMinNs = flags.isSet("--boot-stall-min") ? flags.durationNs("--boot-stall-min", 0) : -1;
        final long bootStallMaxNs = flags.isSet("--boot-stall-max") ? flags.durationNs("--boot-stall-max", 0) : -1;
        final long bootStallLeadNs = flags.isSet("--boot-stall-lead") ? flags.durationNs("--boot-stall-lead", 0) : -1;
        final int brokenRules;
        try
        {
            brokenRules = BrokenRules.named(flags.string("--break", ""));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--break: " + ex.getMessage());
        }
        flags.finish();
        if (flags.isSet("--restart-after") && restartAfterNs <= 0)
        {
            throw new UsageException("--restart-after must be > 0");
        }

        final SimConfig template = new SimConfig()
            .nodes(nodes)
            .failures(failures)
            .placement(placement)
            .heartbeatPeriodNs(heartbeatPeriodNs)
            .suspicionTimeoutNs(suspicionTimeoutNs)
            .maxDelayNs(tauNs)
            .onePort(onePort)
            .lossProbability(loss)
            .broadcast(broadcast)
            .mtbfNs(Math.max(1, (long)(mtbfYears * NS_PER_YEAR)))
            .partitionPolicy(policy)
            .replayGuards(replayGuards)
            .runBinding(runBinding)
            .seed(seed);
        if (probeTimeoutSet)
        {
            template.probeTimeoutNs(probeTimeoutNs);
        }
        if (viewDigestPeriodSet)
        {
            template.viewDigestPeriodNs(viewDigestPeriodNs);
        }
        if (windowSet)
        {
            template.crashWindowNs(windowNs);
        }
        if (pauses > 0)
        {
            template.randomPauses(pauses, pauseNs);
        }
        if (job != null)
        {
            template.processes(job, processFailures);
        }
        else if (procsPerNode > 0 || processFailures > 0)
        {
            template.processes(procsPerNode, processFailures);
        }
        template.restartAfterNs(restartAfterNs).boot(boot).seeds(seeds).startSpreadNs(startSpreadNs)
            .startupGraceNs(graceNs).brokenRules(brokenRules)
            .bootStalls(bootStalls, bootStallMinNs, bootStallMaxNs, bootStallLeadNs);
        if (partition != null)
        {
            template.partition(partition).flap(flaps, flapUpNs).stallsNearCut(stallNs);
        }
        try
        {
            template.copy().conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }

        if (partition != null)
        {
            out.println("partition: " + partition.describe() + (partition.randomPlacement() ? " scattered" :
                " contiguous") + (partition.oneWay() ? ", one-way" : "") + " at " + human(partition.startNs()) +
                " for " + human(partition.durationNs()) + "; policy: " + policy + "; a side without a majority must " +
                "stop within " + human(PartitionCheck.minorityBoundNs(nodes, suspicionTimeoutNs)));
        }
        out.printf(Locale.ROOT, "simulate: nodes=%d failures=%d placement=%s heartbeat-period=%s " +
            "suspicion-timeout=%s tau=%s broadcast=%s one-port=%s loss=%s runs=%d seed=%d threads=%d%n", nodes,
            failures, placement.name().toLowerCase(Locale.ROOT), human(heartbeatPeriodNs), human(suspicionTimeoutNs),
            human(tauNs), broadcast, onePort ? "on" : "off", loss, runs, seed, threads);
        if (Theorem1.applies(failures, nodes))
        {
            out.printf("Theorem 1 bound for f=%d, n=%d: %s%s%n", failures, nodes,
                human(Theorem1.boundNs(failures, nodes, suspicionTimeoutNs, tauNs)),
                onePort ? "" : " (not checked: --one-port is off)");
        }

        final long startNs = System.nanoTime();
        final ProcessSpread spread = new ProcessSpread();
        final SimResult[] results = SimulationBatch.run(template, runs, threads, err, twoLevels ? spread : null);
        final long wallMs = Math.max(1, (System.nanoTime() - startNs) / 1_000_000);
        final BatchSummary summary = new BatchSummary(results);
        final long heapMb = peakHeapBytes() >> 20;

        printHuman(out, summary, runs, wallMs, heapMb);
        if (twoLevels)
        {
            final long[] ns = spread.sorted();
            out.printf(Locale.ROOT, "processes: %s, %d crashed per run; crash to every daemon knowing it: " +
                "p50 %s, p99 %s, max %s (%d crashes on surviving nodes); process notices per run %.1f%n",
                job != null ? job.processCount() + " from " + jobFile : procsPerNode + " per node", processFailures, human(BatchSummary.percentile(ns, 50)),
                human(BatchSummary.percentile(ns, 99)), human(BatchSummary.max(ns)), ns.length,
                (double)spread.messages() / runs);
        }
        out.println(json(summary, nodes, failures, placement, heartbeatPeriodNs, suspicionTimeoutNs, tauNs, broadcast,
            onePort, loss, seed, threads, wallMs, heapMb, policy));
        return summary.violations > 0 || summary.boundViolations > 0 ? 1 : 0;
    }

    /**
     * Process-level figures gathered from every run of a batch, from the worker threads.
     */
    private static final class ProcessSpread implements Consumer<Simulation>
    {
        private final List<long[]> spreads = new ArrayList<>();
        private long messages;

        public synchronized void accept(final Simulation simulation)
        {
            spreads.add(simulation.processSpreadNs());
            messages += simulation.processNoticeMessages();
        }

        synchronized long[] sorted()
        {
            return spreads.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        }

        synchronized long messages()
        {
            return messages;
        }
    }

    private static Partition partition(
        final Args flags, final int nodes, final long defaultAtNs, final long suspicionTimeoutNs) throws UsageException
    {
        final boolean oneWay = flags.switchOn("--one-way");
        final String sizes = flags.string("--partition", null);
        final int isolate = (int)flags.longValue("--isolate", 0, 0, nodes - 1);
        final String placement = flags.string("--partition-placement", "contiguous");
        final long atNs = flags.durationNs("--partition-at", defaultAtNs);
        final long forNs = flags.durationNs("--partition-for", 5 * suspicionTimeoutNs);
        if (sizes == null && isolate == 0)
        {
            if (oneWay)
            {
                throw new UsageException("--one-way needs --partition");
            }
            return null;
        }
        if (sizes != null && isolate > 0)
        {
            throw new UsageException("give --partition or --isolate, not both");
        }
        if (!"contiguous".equals(placement) && !"random".equals(placement))
        {
            throw new UsageException("bad value for --partition-placement: '" + placement +
                "' (expected contiguous or random)");
        }
        try
        {
            if (isolate > 0)
            {
                return Partition.isolate(isolate, nodes, atNs, forNs);
            }
            final String[] parts = sizes.split(":");
            final int[] groups = new int[parts.length];
            for (int i = 0; i < parts.length; i++)
            {
                groups[i] = Integer.parseInt(parts[i].trim());
            }
            return new Partition(atNs, forNs, groups, "random".equals(placement), oneWay);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("bad partition: " + ex.getMessage());
        }
    }

    private static void printHuman(
        final PrintStream out, final BatchSummary s, final int runs, final long wallMs, final long heapMb)
    {
        out.printf("runs: %d, violations: %d (in %d runs), bound violations: %d (bound checked in %d runs, " +
            "largest bound %s)%n", runs, s.violations, s.runsWithViolations, s.boundViolations, s.boundChecked,
            s.boundChecked > 0 ? human(s.maxBoundNs) : "-");
        for (final String violation : s.shownViolations)
        {
            out.println("  " + violation);
        }
        if (s.violations + s.boundViolations > s.shownViolations.size())
        {
            out.println("  ... (first " + s.shownViolations.size() + " shown)");
        }
        out.printf(Locale.ROOT, "stabilization: mean %s, p50 %s, p99 %s, max %s (%d runs stabilized)%n",
            human(BatchSummary.mean(s.stabilizationNs)), human(BatchSummary.percentile(s.stabilizationNs, 50)),
            human(BatchSummary.percentile(s.stabilizationNs, 99)), human(BatchSummary.max(s.stabilizationNs)),
            s.stabilizationNs.length);
        out.printf(Locale.ROOT, "all survivors know the first failure: mean %s, max %s%n",
            human(BatchSummary.mean(s.firstKnownNs)), human(BatchSummary.max(s.firstKnownNs)));
        out.printf(Locale.ROOT, "failures during stabilization: mean %.2f, max %d; self-exclusions: %d%n",
            s.meanFailuresDuringStabilization, s.maxFailuresDuringStabilization, s.exclusions);
        out.printf(Locale.ROOT, "messages per run: heartbeat %.0f, newObserver %.1f, notice %.1f, leave %.1f, " +
            "lost %.1f%n", (double)s.heartbeats / runs, (double)s.newObservers / runs, (double)s.notices / runs,
            (double)s.leaves / runs, (double)s.lost / runs);
        out.printf(Locale.ROOT, "partitions: split brain in %d runs, majority nodes lost %d, minority stopped after " +
            "p50 %s, max %s (%d runs), probes per run %.1f%n", s.runsWithSplitBrain, s.majorityLost,
            human(BatchSummary.percentile(s.minorityFenceNs, 50)), human(BatchSummary.max(s.minorityFenceNs)),
            s.minorityFenceNs.length, (double)s.probes / runs);
        if (s.boots > 0)
        {
            out.printf(Locale.ROOT, "boot: %d ranks started after the seeds%n", s.boots);
        }
        if (s.graceChecked > 0)
        {
            out.printf(Locale.ROOT, "startup grace checker applied in %d runs (boot stalls all over before anyone may judge)%n", s.graceChecked);
        }
        if (s.restarts > 0)
        {
            out.printf(Locale.ROOT, "restarts: %d, rejoined (admitted by every live node): %d, slowest JOIN spread %s, " +
                "clusters re-formed: %d%n", s.restarts, s.rejoined, human(s.joinSpreadMaxNs), s.reforms);
        }
        out.printf(Locale.ROOT, "events: %d (%.0f per second), wall %d ms, peak heap %d MB%n",
            s.events, s.events * 1000.0 / wallMs, wallMs, heapMb);
    }

    private static String json(
        final BatchSummary s,
        final int nodes,
        final int failures,
        final FailurePlacement placement,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final long tauNs,
        final BroadcastKind broadcast,
        final boolean onePort,
        final double loss,
        final long seed,
        final int threads,
        final long wallMs,
        final long heapMb,
        final PartitionPolicy policy)
    {
        return "{" +
            "\"nodes\":" + nodes +
            ",\"failures\":" + failures +
            ",\"placement\":\"" + placement.name().toLowerCase(Locale.ROOT) + "\"" +
            ",\"heartbeatPeriodMs\":" + BatchSummary.ms(heartbeatPeriodNs) +
            ",\"suspicionTimeoutMs\":" + BatchSummary.ms(suspicionTimeoutNs) +
            ",\"tauMs\":" + BatchSummary.ms(tauNs) +
            ",\"broadcast\":\"" + broadcast + "\"" +
            ",\"onePort\":" + onePort +
            ",\"loss\":" + loss +
            ",\"runs\":" + s.runs +
            ",\"seed\":" + seed +
            ",\"threads\":" + threads +
            ",\"violations\":" + s.violations +
            ",\"runsWithViolations\":" + s.runsWithViolations +
            ",\"boundViolations\":" + s.boundViolations +
            ",\"boundChecked\":" + s.boundChecked +
            ",\"boundMs\":" + (s.boundChecked > 0 ? BatchSummary.ms(s.maxBoundNs) : "null") +
            ",\"stabilizationMs\":{" +
            "\"mean\":" + BatchSummary.ms(BatchSummary.mean(s.stabilizationNs)) +
            ",\"p50\":" + BatchSummary.ms(BatchSummary.percentile(s.stabilizationNs, 50)) +
            ",\"p99\":" + BatchSummary.ms(BatchSummary.percentile(s.stabilizationNs, 99)) +
            ",\"max\":" + BatchSummary.ms(BatchSummary.max(s.stabilizationNs)) +
            ",\"count\":" + s.stabilizationNs.length + "}" +
            ",\"firstKnownMs\":{" +
            "\"mean\":" + BatchSummary.ms(BatchSummary.mean(s.firstKnownNs)) +
            ",\"max\":" + BatchSummary.ms(BatchSummary.max(s.firstKnownNs)) + "}" +
            ",\"firstBroadcastMs\":{" +
            "\"mean\":" + BatchSummary.ms(BatchSummary.mean(s.firstBroadcastNs)) +
            ",\"p99\":" + BatchSummary.ms(BatchSummary.percentile(s.firstBroadcastNs, 99)) +
            ",\"max\":" + BatchSummary.ms(BatchSummary.max(s.firstBroadcastNs)) + "}" +
            ",\"failuresDuringStabilization\":{" +
            "\"mean\":" + String.format(Locale.ROOT, "%.3f", s.meanFailuresDuringStabilization) +
            ",\"max\":" + s.maxFailuresDuringStabilization + "}" +
            ",\"exclusions\":" + s.exclusions +
            ",\"fencesSent\":" + s.fencesSent +
            ",\"splitBrain\":" + s.runsWithSplitBrain +
            ",\"majorityLost\":" + s.majorityLost +
            ",\"minorityFenceMs\":{" +
            "\"p50\":" + BatchSummary.ms(BatchSummary.percentile(s.minorityFenceNs, 50)) +
            ",\"max\":" + BatchSummary.ms(BatchSummary.max(s.minorityFenceNs)) +
            ",\"count\":" + s.minorityFenceNs.length + "}" +
            ",\"policy\":\"" + policy + "\"" +
            ",\"restarts\":" + s.restarts +
            ",\"rejoined\":" + s.rejoined +
            ",\"reforms\":" + s.reforms +
            ",\"boots\":" + s.boots +
            ",\"graceChecked\":" + s.graceChecked +
            ",\"joinSpreadMaxMs\":" + (s.joinSpreadMaxNs >= 0 ? BatchSummary.ms(s.joinSpreadMaxNs) : "null") +
            ",\"messages\":{" +
            "\"heartbeat\":" + s.heartbeats +
            ",\"newObserver\":" + s.newObservers +
            ",\"notice\":" + s.notices +
            ",\"leave\":" + s.leaves +
            ",\"probe\":" + s.probes +
            ",\"lost\":" + s.lost + "}" +
            ",\"events\":" + s.events +
            ",\"eventsPerSec\":" + Math.round(s.events * 1000.0 / wallMs) +
            ",\"wallMs\":" + wallMs +
            ",\"heapMb\":" + heapMb +
            "}";
    }

    private static long peakHeapBytes()
    {
        long bytes = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null)
            {
                bytes += pool.getPeakUsage().getUsed();
            }
        }
        return bytes;
    }

    static String human(final double ns)
    {
        if (Double.isNaN(ns) || ns < 0)
        {
            return "-";
        }
        if (ns >= 1e9)
        {
            return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
        }
        if (ns >= 1e6)
        {
            return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        }
        if (ns >= 1e3)
        {
            return String.format(Locale.ROOT, "%.3f us", ns / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f ns", ns);
    }
}
