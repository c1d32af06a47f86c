package io.ringwatch.perf.reproduce;

import io.ringwatch.core.sim.FailurePlacement;
import io.ringwatch.core.sim.SimConfig;
import io.ringwatch.core.sim.SimResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.DoubleUnaryOperator;


/**
 * Experiment 3, paper 002 §4.2 and Figure 5: failures arrive as a Poisson process with a pessimistic μ_ind = 1 year
 * (platform MTBF n/μ_ind), scenario LowNoise; mean number of failures during stabilization and the two times.
 */
public final class OverlappingExperiment implements Experiment
{
    static final long MU_IND_NS = (long)(RiskModel.YEAR_S * 1e9);
    /** Generous cap on generated crashes per run; the mean is a little above 1 even at 256k. */
    static final int MAX_CRASHES = 64;

    public String id()
    {
        return "overlapping";
    }

    public double expectedSeconds(final boolean quick)
    {
        return quick ? 4 : 90;
    }

    public ReportSection run(final ReproduceOptions options, final PrintStream progressOut) throws Exception
    {
        final boolean quick = options.quick();
        final int[] sizes = options.simulatedSizes(RingBatch.sizes(quick));
        final RingScenario scenario = RingScenario.LOW_NOISE;
        final long seed = options.seedFor(id());
        final CsvTable csv = new CsvTable(options.seed(), options.commandLine(),
            "n", "runs", "platform_mtbf_s", "failures_mean", "failures_expected_first_order",
            "first_known_mean_s", "stabilization_mean_s", "stabilization_max_s", "violations");
        csv.comment("experiment_seed", seed + " (derived from the root seed and the experiment id)");
        csv.comment("model", "LowNoise eta=10s delta=60s tau=1ms one-port; first crash at 2*eta then Poisson " +
            "arrivals of rate n/mu_ind (mu_ind=1 year) until stable; every heartbeat simulated");

        final List<RingRuns> points = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        final Progress progress;
        try (RunPool pool = new RunPool(RunPool.defaultThreads()))
        {
            final List<List<Future<SimResult>>> pending = new ArrayList<>();
            double totalWork = 0;
            for (int i = 0; i < sizes.length; i++)
            {
                final int n = sizes[i];
                // about one or two crashes per run: weigh like a single failure
                final int runs = RingBatch.runsFor(n, 2, quick);
                final int point = i;
                totalWork += runs * RingBatch.weight(n, 2);
                pending.add(RingBatch.submit(pool, runs, (runSeed) -> config(scenario, n, runSeed),
                    (run) -> SeedMix.forRun(seed, point, run)));
            }
            progress = new Progress(progressOut, id(), totalWork);
            for (int i = 0; i < sizes.length; i++)
            {
                final int n = sizes[i];
                final RingRuns r = RingBatch.collect(n, pending.get(i), RingBatch.weight(n, 2), progress, "n=" + n);
                points.add(r);
                violations.addAll(r.violations);
                final double mtbfS = MU_IND_NS / 1e9 / n;
                csv.row(n, r.runs, mtbfS, r.meanFailures, expectedFailures(scenario, n), r.meanFirstKnownS,
                    r.meanStabilizationS, r.maxStabilizationS, r.violations.size());
            }
        }
        csv.write(options.outDir().resolve("overlapping.csv"));
        progress.finish();

        final ReportSection section = section(scenario, points, options, quick);
        section.compare("checker violations", "—", Integer.toString(violations.size()),
            violations.isEmpty() ? "None." : "VIOLATIONS: " +
                String.join("; ", violations.subList(0, Math.min(5, violations.size()))));
        if (!violations.isEmpty())
        {
            throw new SimulationCheckFailed(violations.size() + " violation(s), first: " + violations.get(0),
                section);
        }
        return section;
    }

    /**
     * First-order estimate: the first failure plus those arriving while it is being detected (≈ δ − η/2), each
     * of which extends the window by its own detection time; a geometric series in λ(δ − η/2).
     */
    static double expectedFailures(final RingScenario scenario, final int n)
    {
        final double rho = n / (MU_IND_NS / 1e9) * (scenario.suspicionTimeoutS() - scenario.heartbeatPeriodS() / 2);
        return rho < 1 ? 1 / (1 - rho) : Double.POSITIVE_INFINITY;
    }

    static SimConfig config(final RingScenario scenario, final int n, final long seed)
    {
        return new SimConfig()
            .nodes(n)
            .heartbeatPeriodNs(scenario.heartbeatPeriodNs())
            .suspicionTimeoutNs(scenario.suspicionTimeoutNs())
            .maxDelayNs(RingScenario.TAU_NS)
            .onePort(true)
            .placement(FailurePlacement.EXPONENTIAL)
            .mtbfNs(MU_IND_NS)
            .failures(Math.min(MAX_CRASHES, n / 2))
            .firstFailureNs(2 * scenario.heartbeatPeriodNs())
            .quietMarginNs(scenario.suspicionTimeoutNs())
            .seed(seed);
    }

    private static ReportSection section(
        final RingScenario scenario,
        final List<RingRuns> points,
        final ReproduceOptions options,
        final boolean quick) throws java.io.IOException
    {
        final double[] xs = RingBatch.column(points, (p) -> p.n);
        final double[] failures = RingBatch.column(points, (p) -> p.meanFailures);
        final double[] first = RingBatch.column(points, (p) -> p.meanFirstKnownS);
        final double[] stab = RingBatch.column(points, (p) -> p.meanStabilizationS);
        final double[] expected = new double[xs.length];
        for (int i = 0; i < xs.length; i++)
        {
            expected[i] = expectedFailures(scenario, points.get(i).n);
        }
        final DoubleUnaryOperator one = (n) -> 1;
        final DoubleUnaryOperator linear = (n) -> n;
        final double[] dense = RingBatch.dense(xs[0], xs[xs.length - 1]);
        String stabFit = "not fitted";
        String failFit = "not fitted";
        final Chart times = new Chart("Fig. 5: stabilization with random failures, LowNoise, μ_ind = 1 year",
            "n (nodes, log scale)", "mean time after the first failure (s)")
            .logX()
            .points("all know the first failure", xs, first)
            .points("stable (all know all failures)", xs, stab);
        final Chart count = new Chart("Fig. 5: failures during stabilization, LowNoise, μ_ind = 1 year",
            "n (nodes, log scale)", "mean number of failures (first included)")
            .logX()
            .points("simulated", xs, failures)
            .line("first order 1/(1 − λ(δ − η/2))", xs, expected, true);
        if (xs.length >= 3)
        {
            final LeastSquares.Fit fFirst = LeastSquares.fit(xs, first, new String[]{"1"}, one);
            final LeastSquares.Fit fStab = LeastSquares.fit(xs, stab, new String[]{"1", "n"}, one, linear);
            final LeastSquares.Fit fFail = LeastSquares.fit(xs, failures, new String[]{"1", "n"}, one, linear);
            times.line("fit O(1): " + fFirst.describe("s"), dense, RingBatch.eval(fFirst, dense), false);
            times.line("fit O(n): " + fStab.describe("s"), dense, RingBatch.eval(fStab, dense), false);
            count.line("fit O(n): " + fFail.describe(""), dense, RingBatch.eval(fFail, dense), false);
            stabFit = fStab.describe("s") + Fmt.f(" (R² = %.2f)", fStab.r2());
            failFit = fFail.describe("") + Fmt.f(" (R² = %.2f)", fFail.r2());
        }
        times.save(options.outDir(), "overlapping_times.png");
        count.save(options.outDir(), "overlapping_failures.png");

        final int last = xs.length - 1;
        final int lastN = points.get(last).n;
        final ReportSection s = new ReportSection("3. Random overlapping failures (paper 002 §4.2, Fig. 5)")
            .setup("LowNoise (η = 10 s, δ = 60 s, τ = 1 ms, one-port). The first crash strikes at 2η; afterwards " +
                "crashes arrive as a Poisson process of rate λ = n/μ_ind with μ_ind = 1 year (a platform MTBF of " +
                Fmt.seconds(RiskModel.YEAR_S / 256_000) + " at 256,000 nodes) until the configuration is stable. " +
                "Runs per n follow the same work budget as experiment 2, counting two failures per run (" +
                (quick ? "quick mode" : "1–" + RingBatch.MAX_RUNS + " runs; the paper used 10,000") + ").");
        s.compare("mean failures during stabilization", "grows linearly with n (O(n) fit), ≈ 1 at small n",
            Fmt.f("%.2f at n = %,d … %.2f at n = %,d; fit %s", failures[0], points.get(0).n, failures[last], lastN,
                failFit),
            Fmt.f("Consistent with the first-order estimate 1/(1 − λ(δ − η/2)) = %.2f at n = %,d. With one or two " +
                "runs at the largest n the mean is noisy (it is a count of rare events).", expected[last], lastN));
        final double firstKnownS = scenario.suspicionTimeoutS() - scenario.heartbeatPeriodS() / 2;
        s.compare("mean time for all to know the first failure", "O(1), ≈ δ − η/2 = " +
            Fmt.seconds(firstKnownS), Fmt.f("%s … %s", Fmt.seconds(first[0]),
            Fmt.seconds(first[last])), Math.abs(first[last] - firstKnownS) < 5 ?
            "Agrees: close to δ − η/2 at every size; a later failure of the first failure's observer would add δ " +
                "but is rare." : "Differs at some sizes: with one or two runs per point a single run whose first " +
                "failure's observer also failed adds δ to the mean.");
        s.compare("mean time to stabilize", "O(n); at 256,000 nodes later failures delay completion by ≈ δ/2",
            Fmt.f("%s … %s; fit %s", Fmt.seconds(stab[0]), Fmt.seconds(stab[last]), stabFit),
            "Each extra failure adds roughly its arrival time plus δ − η/2 to stabilization.");
        s.image("overlapping_times.png", "overlapping times").image("overlapping_failures.png", "failure count");
        s.file("overlapping.csv");
        return s;
    }
}
