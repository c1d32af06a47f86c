package io.ringwatch.perf.reproduce;

import io.ringwatch.core.protocol.Theorem1;

/**
 * Paper 002 §3.3: how large the suspicion timeout δ may be while the chance that more than M = ⌊log₂ n⌋ − 1
 * failures strike within the Theorem 1 stabilization bound T(M) stays below a target.
 * <p>
 * The Poisson tail P(X > f) is summed directly in log space: the paper's form 1 − Σ_{k≤f} … cancels to zero in
 * double precision long before 10⁻⁹ is reached.
 */
public final class RiskModel
{
    /** Seconds in a (Julian) year, the unit of μ_ind. */
    public static final double YEAR_S = 365.25 * 86_400;

    private RiskModel()
    {
    }

    /**
     * natural log of P(X > f) for X ~ Poisson(mean).
     *
     * @param mean λT, > 0.
     * @param f    threshold, ≥ 0.
     * @return ln P(X > f), summing the tail terms from k = f+1 until they no longer matter.
     */
    public static double logPoissonTail(final double mean, final int f)
    {
        if (mean <= 0)
        {
            return Double.NEGATIVE_INFINITY;
        }
        if (mean > f + 1 + 40 * Math.sqrt(mean) + 40)
        {
            // the bulk of the distribution is above f: the complement is negligible and the tail is ~1
            return Math.log1p(-Math.exp(logPoissonHead(mean, f)));
        }
        final double logMean = Math.log(mean);
        int k = f + 1;
        double term = -mean + k * logMean - logFactorial(k);
        final double first = term;
        double sum = 1.0; // terms relative to the first
        while (true)
        {
            k++;
            term += logMean - Math.log(k);
            final double rel = Math.exp(term - first);
            sum += rel;
            if (k > mean && rel < 1e-17 * sum)
            {
                break;
            }
        }
        return first + Math.log(sum);
    }

    private static double logPoissonHead(final double mean, final int f)
    {
        final double logMean = Math.log(mean);
        double best = Double.NEGATIVE_INFINITY;
        final double[] logs = new double[f + 1];
        for (int k = 0; k <= f; k++)
        {
            logs[k] = -mean + k * logMean - logFactorial(k);
            best = Math.max(best, logs[k]);
        }
        double sum = 0;
        for (final double l : logs)
        {
            sum += Math.exp(l - best);
        }
        return best + Math.log(sum);
    }

    /**
     * The paper's P_T(f) = 1 − Σ_{k=0..f} (λT)^k/k! e^{−λT}, evaluated literally, to show the cancellation.
     *
     * @param mean λT.
     * @param f    threshold.
     * @return the naive value, often exactly 0 for small λT.
     */
    public static double naiveTail(final double mean, final int f)
    {
        double sum = 0;
        double term = Math.exp(-mean);
        for (int k = 0; k <= f; k++)
        {
            sum += term;
            term *= mean / (k + 1);
        }
        return 1 - sum;
    }

    /**
     * The largest δ with P_{T(M)}(M) below the target, by bisection (the tail grows with T, T with δ).
     *
     * @param n        nodes.
     * @param muIndS   MTBF of one node in seconds.
     * @param tauS     τ in seconds.
     * @param target   risk, e.g. 1e-9.
     * @return δ in seconds; 0 if even δ = 0 misses the target.
     */
    public static double maxDeltaS(final int n, final double muIndS, final double tauS, final double target)
    {
        final int m = Theorem1.maxTolerated(n);
        final double lambda = n / muIndS;
        final double logTarget = Math.log(target);
        if (logPoissonTail(lambda * Theorem1.bound(m, n, 0, tauS), m) >= logTarget)
        {
            return 0;
        }
        double lo = 0;
        double hi = 1;
        while (logPoissonTail(lambda * Theorem1.bound(m, n, hi, tauS), m) < logTarget)
        {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 100 && hi - lo > 1e-9 * hi; i++)
        {
            final double mid = 0.5 * (lo + hi);
            if (logPoissonTail(lambda * Theorem1.bound(m, n, mid, tauS), m) < logTarget)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * @param n nodes.
     * @return log₂ n.
     */
    public static double log2(final double n)
    {
        return Math.log(n) / Math.log(2);
    }

    private static double logFactorial(final int k)
    {
        double s = 0;
        for (int i = 2; i <= k; i++)
        {
            s += Math.log(i);
        }
        return s;
    }
}
