package io.ringwatch.perf.reproduce;

import java.util.SplittableRandom;

/**
 * Paper 002 §3.4.2 and §4.3: randomized probing, where in each round every node pings one uniformly random other
 * node. Closed forms and a Monte Carlo of the rounds needed to ping every node and of the per-round maximum load.
 */
public final class ProbingModel
{
    private ProbingModel()
    {
    }

    /**
     * @param n nodes.
     * @return p(N) = ((N−1)/N)^(N−1), the chance a given node is pinged by nobody in one round.
     */
    public static double notPingedProbability(final int n)
    {
        return Math.exp((n - 1) * Math.log1p(-1.0 / n));
    }

    /**
     * @param n    nodes.
     * @param risk accepted probability that a given node is still unpinged.
     * @return x with p(N)^x = risk (the paper's 20.7 at N = 100,000 and risk 10⁻⁹).
     */
    public static double roundsForNode(final int n, final double risk)
    {
        return Math.log(risk) / Math.log(notPingedProbability(n));
    }

    /**
     * @param n    nodes.
     * @param risk accepted probability that some node is still unpinged (union bound over N nodes).
     * @return x with N·p(N)^x = risk.
     */
    public static double roundsForAll(final int n, final double risk)
    {
        return Math.log(risk / n) / Math.log(notPingedProbability(n));
    }

    /**
     * Expected rounds until every node has been pinged, from P(all pinged by r) ≈ exp(−N p^r) (nodes nearly
     * independent): E = Σ_{r≥0} (1 − exp(−N p^r)).
     *
     * @param n nodes.
     * @return the approximate mean.
     */
    public static double expectedRoundsToCoverAll(final int n)
    {
        final double p = notPingedProbability(n);
        double sum = 0;
        for (int r = 0; r < 10_000; r++)
        {
            final double term = -Math.expm1(-n * Math.pow(p, r));
            sum += term;
            if (term < 1e-15)
            {
                break;
            }
        }
        return sum;
    }

    /**
     * Rounds r such that the largest of {@code runs} independent cover times is r or more with probability ½:
     * the typical "worst over the runs" a finite experiment reports.
     *
     * @param n    nodes.
     * @param runs independent runs.
     * @return the median of the maximum cover time.
     */
    public static int medianWorstRounds(final int n, final int runs)
    {
        final double p = notPingedProbability(n);
        for (int r = 1; r < 10_000; r++)
        {
            // P(max over runs <= r) = P(one run <= r)^runs, one run <= r with probability exp(-N p^r)
            final double logAllBelow = runs * (-n * Math.pow(p, r));
            if (logAllBelow >= Math.log(0.5))
            {
                return r;
            }
        }
        return -1;
    }

    /**
     * @param n nodes.
     * @return ln N / ln ln N, the balls-into-bins order of the maximum load.
     */
    public static double loadOrder(final int n)
    {
        return Math.log(n) / Math.log(Math.log(n));
    }

    /**
     * Outcome of one simulated run: rounds until all pinged, and per-round maxima of pings on one node.
     *
     * @param rounds      rounds until every node had been pinged at least once.
     * @param maxLoadSum  sum over those rounds of the round's largest pings-on-one-node.
     * @param maxLoadMax  largest pings-on-one-node in any round.
     * @param firstRoundMaxLoad the largest load in the first round (one sample of L(N)).
     */
    public record Run(int rounds, long maxLoadSum, int maxLoadMax, int firstRoundMaxLoad)
    {
    }

    /**
     * Reusable buffers for runs at one N.
     */
    public static final class Simulator
    {
        private final int n;
        private final int[] load;
        private final int[] loadStamp;
        private final int[] pingedStamp;
        // stamps instead of clearing the arrays: a run and a round each cost O(N), never O(N) more
        private int runCounter;
        private int roundCounter;

        /**
         * @param n nodes, ≥ 2.
         */
        public Simulator(final int n)
        {
            if (n < 2)
            {
                throw new IllegalArgumentException("need at least 2 nodes: " + n);
            }
            this.n = n;
            load = new int[n];
            loadStamp = new int[n];
            pingedStamp = new int[n];
        }

        /**
         * @param random the run's generator.
         * @return the run.
         */
        public Run run(final SplittableRandom random)
        {
            final int runStamp = ++runCounter;
            int unpinged = n;
            int rounds = 0;
            long maxLoadSum = 0;
            int maxLoadMax = 0;
            int firstRoundMax = 0;
            while (unpinged > 0)
            {
                rounds++;
                final int roundStamp = ++roundCounter;
                int roundMax = 0;
                for (int from = 0; from < n; from++)
                {
                    int to = random.nextInt(n - 1);
                    if (to >= from)
                    {
                        to++;
                    }
                    final int l = loadStamp[to] == roundStamp ? load[to] + 1 : 1;
                    loadStamp[to] = roundStamp;
                    load[to] = l;
                    if (l > roundMax)
                    {
                        roundMax = l;
                    }
                    if (pingedStamp[to] != runStamp)
                    {
                        pingedStamp[to] = runStamp;
                        unpinged--;
                    }
                }
                maxLoadSum += roundMax;
                maxLoadMax = Math.max(maxLoadMax, roundMax);
                if (rounds == 1)
                {
                    firstRoundMax = roundMax;
                }
            }
            return new Run(rounds, maxLoadSum, maxLoadMax, firstRoundMax);
        }
    }
}
