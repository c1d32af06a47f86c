package io.ringwatch.perf.reproduce;

import io.ringwatch.core.sim.DelayModel;
import io.ringwatch.core.sim.FailurePlacement;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SimResult;
import io.ringwatch.core.sim.Simulation;
import io.ringwatch.perf.swim.SwimConfig;
import io.ringwatch.perf.swim.SwimResult;
import io.ringwatch.perf.swim.SwimSimulation;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;


/**
 * Experiment 5: the ring and a SWIM model side by side on the same simulated network (same event engine, same
 * delay model): detection times, message rates, and false positives under heavy-tailed delays.
 */
public final class SwimExperiment implements Experiment
{
    private static final long TAU_NS = RingScenario.TAU_NS;
    /** 5% of messages take a Pareto(α = 1) delay from τ up, capped at 10 s: infinite mean in the tail. */
    static final DelayModel HEAVY_TAIL = DelayModel.heavyTail(TAU_NS, 0.05, 1.0, 10_000_000_000L);

    public String id()
    {
        return "swim";
    }

    public double expectedSeconds(final boolean quick)
    {
        return quick ? 6 : 150;
    }

    public ReportSection run(final ReproduceOptions options, final PrintStream progressOut) throws Exception
    {
        final boolean quick = options.quick();
        final int[] sizes = options.simulatedSizes(quick ? new int[]{300, 1_000} : new int[]{1_000, 10_000, 100_000});
        final int[] fpSizes = options.simulatedSizes(quick ? new int[]{300} : new int[]{1_000, 10_000});
        final long seed = options.seedFor(id());
        final SwimConfig[] presets = {SwimConfig.memberlistLan(), SwimConfig.scaledToLowLat()};

        double work = 0;
        for (final int n : sizes)
        {
            work += 3.0 * n * runsFor(n, quick);
        }
        for (final int n : fpSizes)
        {
            work += 3.0 * n;
        }
        final Progress progress = new Progress(progressOut, id(), work);
        final CsvTable csv = new CsvTable(options.seed(), options.commandLine(),
            "case", "detector", "n", "runs", "delays", "first_suspect_s", "first_dead_s", "all_know_s",
            "messages_per_node_per_s", "false_suspicions", "false_deaths", "refutations", "simulated_s");
        csv.comment("experiment_seed", seed + " (derived from the root seed and the experiment id)");
        csv.comment("network", "shared core.sim EventQueue and DelayModel; uniform (0;1ms] or heavy tail (5% Pareto " +
            "alpha=1 from 1ms capped at 10s); no port contention in this comparison");
        csv.comment("ring", "LowLat eta=100ms delta=1s; first node to detect is not recorded separately (it " +
            "precedes all_know by the broadcast time)");

        final List<String> violations = new ArrayList<>();
        final String[] names = {"ring LowLat", presets[0].name(), presets[1].name()};
        final double[][] allKnow = new double[3][sizes.length];
        final double[][] firstDead = new double[3][sizes.length];
        final double[][] rate = new double[3][sizes.length];
        final double[] steadyRate = new double[3];
        final long[] falsePositives = new long[3];
        final long[] falseSuspicions = new long[3];
        try (RunPool pool = new RunPool(RunPool.defaultThreads()))
        {
            for (int i = 0; i < sizes.length; i++)
            {
                final int n = sizes[i];
                final int runs = runsFor(n, quick);
                final int point = i;
                final List<Future<SimResult>> ringRuns = new ArrayList<>();
                for (int r = 0; r < runs; r++)
                {
                    final long runSeed = SeedMix.forRun(seed, point, r);
                    ringRuns.add(pool.submit(() ->
                        Simulation.run(ringConfig(n, DelayModel.uniform(TAU_NS), 1, runSeed))));
                }
                final List<List<Future<SwimResult>>> swimRuns = new ArrayList<>();
                for (int p = 0; p < presets.length; p++)
                {
                    final SwimConfig preset = presets[p];
                    final int salt = 1_000 * (p + 1) + i;
                    final List<Future<SwimResult>> futures = new ArrayList<>();
                    for (int r = 0; r < runs; r++)
                    {
                        final long runSeed = SeedMix.forRun(seed, salt, r);
                        futures.add(pool.submit(() -> swimRun(preset, n, DelayModel.uniform(TAU_NS), 1, runSeed)));
                    }
                    swimRuns.add(futures);
                }
                final List<SimResult> ring = new ArrayList<>();
                for (final Future<SimResult> f : ringRuns)
                {
                    ring.add(RunPool.await(f, "ring n=" + n));
                    progress.advance(n, "ring n=" + n);
                }
                double known = 0;
                double msgs = 0;
                for (final SimResult r : ring)
                {
                    violations.addAll(r.violations());
                    known += r.firstKnownNs() / 1e9 / runs;
                    msgs += (r.heartbeatMessages() + r.newObserverMessages() + r.noticeMessages()) /
                        (n * (r.endTimeNs() / 1e9)) / runs;
                }
                allKnow[0][i] = known;
                firstDead[0][i] = Double.NaN;
                rate[0][i] = msgs;
                csv.row("one-crash", names[0], n, runs, "uniform", "", "", known, msgs, 0, 0, 0,
                    ring.get(0).endTimeNs() / 1e9);
                for (int p = 0; p < presets.length; p++)
                {
                    final SwimConfig preset = presets[p];
                    final List<SwimResult> swim = new ArrayList<>();
                    for (final Future<SwimResult> f : swimRuns.get(p))
                    {
                        swim.add(RunPool.await(f, preset.name() + " n=" + n));
                        progress.advance(n, preset.name() + " n=" + n);
                    }
                    final double[] m = means(swim);
                    allKnow[p + 1][i] = m[2];
                    firstDead[p + 1][i] = m[1];
                    rate[p + 1][i] = m[3];
                    csv.row("one-crash", preset.name(), n, runs, "uniform", m[0], m[1], m[2], m[3], (long)m[4],
                        (long)m[5], (long)m[6], m[7]);
                    if (m[2] < 0)
                    {
                        violations.add(preset.name() + " n=" + n + ": some run never reached all-know before the cap");
                    }
                }
            }

            for (int i = 0; i < fpSizes.length; i++)
            {
                final int n = fpSizes[i];
                final int point = 500 + i;
                final SimResult ring = Simulation.run(ringConfig(n, HEAVY_TAIL, 0, SeedMix.forRun(seed, point, 0)));
                progress.advance(n, "ring heavy tail n=" + n);
                steadyRate[0] = (ring.heartbeatMessages() + ring.newObserverMessages() + ring.noticeMessages()) /
                    (n * (ring.endTimeNs() / 1e9));
                falsePositives[0] = ring.exclusions();
                csv.row("no-crash-heavy-tail", names[0], n, 1, "heavy tail", "", "", "", steadyRate[0], "",
                    ring.exclusions(), 0, ring.endTimeNs() / 1e9);
                for (int p = 0; p < presets.length; p++)
                {
                    final SwimConfig preset = presets[p];
                    final long durationNs = 300 * preset.probeIntervalNs();
                    final SwimResult r = new SwimSimulation(preset, n, HEAVY_TAIL, 0, 0, 0, durationNs,
                        SeedMix.forRun(seed, point + 100 * (p + 1), 0)).run();
                    progress.advance(n, preset.name() + " heavy tail n=" + n);
                    steadyRate[p + 1] = r.messagesPerNodePerSecond();
                    falsePositives[p + 1] = r.falseDeaths();
                    falseSuspicions[p + 1] = r.falseSuspicions();
                    csv.row("no-crash-heavy-tail", preset.name(), n, 1, "heavy tail", "", "", "",
                        r.messagesPerNodePerSecond(), r.falseSuspicions(), r.falseDeaths(), r.refutations(),
                        r.endTimeNs() / 1e9);
                }
            }
        }
        csv.write(options.outDir().resolve("swim.csv"));

        final double[] xs = RiskExperiment.toDoubles(sizes);
        final Chart times = new Chart("Ring vs SWIM: one crash, time until every live node knows",
            "n (nodes, log scale)", "seconds after the crash (log scale)").logX().logY();
        final Chart messages = new Chart("Ring vs SWIM: messages per node per second (whole run)",
            "n (nodes, log scale)", "messages / node / s (log scale)").logX().logY();
        for (int d = 0; d < 3; d++)
        {
            times.pointsAndLine(names[d], xs, allKnow[d]);
            messages.pointsAndLine(names[d], xs, rate[d]);
        }
        times.save(options.outDir(), "swim_detection.png");
        messages.save(options.outDir(), "swim_messages.png");
        progress.finish();

        final ReportSection section = section(sizes, names, allKnow, firstDead, rate, presets, quick);
        final int fpN = fpSizes[fpSizes.length - 1];
        section.compare("messages per node per second, steady state (no failure)",
            "SWIM sends twice the ring's messages per period (journal §5.4)",
            Fmt.f("ring %.2f, SWIM LAN %.2f, SWIM scaled %.2f (n = %,d)", steadyRate[0], steadyRate[1],
                steadyRate[2], fpN),
            Fmt.f("Agrees: at the same period (100 ms) SWIM's ping + ack is %.1f× the ring's one heartbeat. " +
                "memberlist's default 1 s period sends fewer messages than the ring's LowLat 100 ms heartbeat.",
                steadyRate[2] / steadyRate[0]));
        section.compare("false positives under heavy-tailed delays (no failure)", "journal §5.4: SWIM false " +
                "positives below 100 ms periods (UDP loss); ring none",
            Fmt.f("n = %,d: ring %d exclusions; SWIM LAN %d false suspicions, %d false deaths; SWIM scaled %d " +
                "false suspicions, %d false deaths", fpN, falsePositives[0], falseSuspicions[1], falsePositives[1],
                falseSuspicions[2], falsePositives[2]),
            "5% of messages get a Pareto(α = 1) delay from 1 ms up, capped at 10 s. With independent per-message " +
                "delays neither detector is easily fooled: the ring needs every heartbeat of a whole δ delayed, " +
                "SWIM the direct probe and all three indirect probes; SWIM's suspicions, if any, are refuted by " +
                "incarnation. The journal's false positives came from correlated loss under contention, which this " +
                "network model does not have.");
        section.compare("checker violations (ring runs)", "—", Integer.toString(violations.size()),
            violations.isEmpty() ? "None." : String.join("; ", violations.subList(0, Math.min(5, violations.size()))));
        if (!violations.isEmpty())
        {
            throw new SimulationCheckFailed(violations.size() + " violation(s), first: " + violations.get(0), section);
        }
        return section;
    }

    static int runsFor(final int n, final boolean quick)
    {
        if (quick)
        {
            return 1;
        }
        return n <= 1_000 ? 4 : n <= 10_000 ? 2 : 1;
    }

    private static String runsPerSize(final int[] sizes, final boolean quick)
    {
        final StringBuilder sb = new StringBuilder();
        for (final int n : sizes)
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(runsFor(n, quick)).append(" at ").append(Fmt.count(n));
        }
        return sb.toString();
    }

    static SimConfig ringConfig(final int n, final DelayModel delays, final int failures, final long seed)
    {
        final RingScenario s = RingScenario.LOW_LAT;
        return new SimConfig()
            .nodes(n)
            .heartbeatPeriodNs(s.heartbeatPeriodNs())
            .suspicionTimeoutNs(s.suspicionTimeoutNs())
            .maxDelayNs(TAU_NS)
            .delayModel(delays)
            .placement(FailurePlacement.RANDOM)
            .failures(failures)
            .firstFailureNs(2 * s.heartbeatPeriodNs())
            .quietMarginNs(failures == 0 ? 30 * s.suspicionTimeoutNs() : s.suspicionTimeoutNs())
            .seed(seed);
    }

    static SwimResult swimRun(final SwimConfig preset, final int n, final DelayModel delays, final int crashes,
        final long seed)
    {
        final long capNs = 2 * preset.probeIntervalNs() + 2 * preset.suspicionMaxNs(n) + 200 * preset.probeIntervalNs();
        return new SwimSimulation(preset, n, delays, crashes, 2 * preset.probeIntervalNs(), 0, capNs, seed).run();
    }

    /**
     * @return {first suspect s, first dead s, all know s, msgs/node/s, false suspicions, false deaths,
     * refutations, simulated s}; times −1 if any run missed them.
     */
    private static double[] means(final List<SwimResult> results)
    {
        final double[] m = new double[8];
        final int runs = results.size();
        for (final SwimResult r : results)
        {
            m[0] = accumulate(m[0], r.firstSuspectNs(), runs);
            m[1] = accumulate(m[1], r.firstDeadNs(), runs);
            m[2] = accumulate(m[2], r.allDeadNs(), runs);
            m[3] += r.messagesPerNodePerSecond() / runs;
            m[4] += r.falseSuspicions();
            m[5] += r.falseDeaths();
            m[6] += r.refutations();
            m[7] = Math.max(m[7], r.endTimeNs() / 1e9);
        }
        return m;
    }

    private static double accumulate(final double sum, final long ns, final int runs)
    {
        if (sum < 0 || ns < 0)
        {
            return -1;
        }
        return sum + ns / 1e9 / runs;
    }

    private static ReportSection section(
        final int[] sizes,
        final String[] names,
        final double[][] allKnow,
        final double[][] firstDead,
        final double[][] rate,
        final SwimConfig[] presets,
        final boolean quick)
    {
        final int last = sizes.length - 1;
        final int n = sizes[last];
        final ReportSection s = new ReportSection("5. Ring vs SWIM on the same simulated network")
            .setup("Both detectors run on the simulator's event queue and delay model (one engine; the SWIM model " +
                "lives in `io.ringwatch.perf.swim`). Network: delays uniform in (0, 1 ms], no port contention. " +
                "Ring: LowLat (η = 100 ms, δ = 1 s). SWIM presets: memberlist `DefaultLANConfig` (ProbeInterval " +
                "1 s, ProbeTimeout 500 ms, IndirectChecks 3, SuspicionMult 4, SuspicionMaxTimeoutMult 6, " +
                "RetransmitMult 4, GossipInterval 200 ms, GossipNodes 3 — checked against hashicorp/memberlist " +
                "config.go) and the same preset with every time ×0.1 so its probe period equals the ring's η. " +
                "One node crashes at a random rank; runs per n: " + runsPerSize(sizes, quick) + ".")
            .setup("SWIM model: shuffled round-robin probe order (a fresh random affine permutation of the ranks per " +
                "pass, memberlist walks a shuffled list), direct ping, ping-req to 3 random members after the probe " +
                "timeout, suspicion at the end of the period, Lifeguard suspicion timeout from 6× down to " +
                "SuspicionMult·max(1, log₁₀ n)·ProbeInterval with SuspicionMult − 2 confirmations, incarnation " +
                "refutation, piggybacking and gossip with RetransmitMult·⌈log₁₀(n+1)⌉ transmissions. Not modelled: " +
                "TCP fallback pings, push-pull sync, Lifeguard's local-health back-off, nacks.");
        final MarkdownTable table = new MarkdownTable("n", "detector", "first node declares dead",
            "all live nodes know", "messages / node / s");
        for (int i = 0; i < sizes.length; i++)
        {
            for (int d = 0; d < 3; d++)
            {
                table.row(Fmt.count(sizes[i]), names[d], Double.isNaN(firstDead[d][i]) ? "≈ all-know − broadcast" :
                    seconds(firstDead[d][i]), seconds(allKnow[d][i]), Fmt.f("%.2f", rate[d][i]));
            }
        }
        s.table(table.toString());
        s.compare("SWIM (memberlist LAN) stabilization vs the ring", "journal §5.4 (real memberlist on 256 " +
                "processes): SWIM 1.4 s → > 2 s as n grows, ring ≈ 100 ms",
            Fmt.f("n = %,d: SWIM LAN %s, ring LowLat %s", n, seconds(allKnow[1][last]), seconds(allKnow[0][last])),
            "Not comparable one to one: the journal tuned memberlist's intervals down to the smallest safe value, " +
                "we use its defaults. With defaults the suspicion floor alone is 4·log₁₀ n seconds, which dominates; " +
                "the ring needs δ − η/2 plus an O(log n) broadcast.");
        s.compare("SWIM scaled ×0.1 vs the ring at the same period", "—",
            Fmt.f("n = %,d: SWIM %s, ring %s", n, seconds(allKnow[2][last]), seconds(allKnow[0][last])),
            (allKnow[2][last] > allKnow[0][last] ? "With the same 100 ms period SWIM is still slower" :
                "With the same 100 ms period SWIM is as fast or faster here") + ": its suspicion timeout grows " +
                "with log n by design (to let a suspect refute), while the ring's δ is fixed because it trusts " +
                "its bound τ.");
        s.compare("messages per node per second, one-crash runs (whole run)", "—",
            Fmt.f("ring %.1f, SWIM LAN %.1f, SWIM scaled %.1f (n = %,d)", rate[0][last], rate[1][last],
                rate[2][last], n), "The ring's short runs (≈ 2 s) are dominated by its failure broadcast: the " +
                "double-hypercube flood sends each node a notice copy per cube edge, O(log n) per failure, against " +
                "SWIM's O(log n) piggybacked retransmissions spread over a much longer run.");
        s.note("Not measured: correlated faults (a paused node, loss bursts). A node paused longer than δ is " +
            "excluded by the ring (fail-stop by design), while SWIM lets it refute; the simulator supports pauses " +
            "for the ring but the SWIM model does not yet.");
        s.image("swim_detection.png", "ring vs swim detection").image("swim_messages.png", "ring vs swim messages");
        s.file("swim.csv");
        return s;
    }

    private static String seconds(final double s)
    {
        return s < 0 ? "not reached" : Fmt.seconds(s);
    }
}
