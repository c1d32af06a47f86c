package io.ringwatch.perf.reproduce;

import io.ringwatch.core.protocol.Theorem1;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RiskModelTest
{
    @Test
    void shouldMatchTheNaiveTailWhereItDoesNotCancel()
    {
        for (final double mean : new double[]{0.5, 2, 7.5})
        {
            for (int f = 0; f < 6; f++)
            {
                final double naive = RiskModel.naiveTail(mean, f);
                assertEquals(naive, Math.exp(RiskModel.logPoissonTail(mean, f)), 1e-12 + 1e-9 * naive,
                    "mean=" + mean + " f=" + f);
            }
        }
    }

    @Test
    void shouldResolveTailsFarBelowDoublePrecisionOfOneMinusSum()
    {
        // P(X > 2) for mean 1e-6 is about mean^3/6
        final double tail = Math.exp(RiskModel.logPoissonTail(1e-6, 2));
        assertEquals(1e-18 / 6, tail, 1e-22);
        assertEquals(0.0, RiskModel.naiveTail(1e-6, 2), 1e-15);
    }

    @Test
    void shouldFindTheLargestDeltaThatMeetsTheTarget()
    {
        final int n = 256_000;
        final double mu = 20 * RiskModel.YEAR_S;
        final double delta = RiskModel.maxDeltaS(n, mu, 1e-6, 1e-9);
        final int m = Theorem1.maxTolerated(n);
        final double below = RiskModel.logPoissonTail(n / mu * Theorem1.bound(m, n, delta, 1e-6), m);
        final double above = RiskModel.logPoissonTail(
            n / mu * Theorem1.bound(m, n, delta * 1.001, 1e-6), m);
        assertTrue(below < Math.log(1e-9) && above > Math.log(1e-9), "delta=" + delta);
        assertEquals(22, delta, 0.5, "the paper's 22 s at n = 256,000, mu = 20 years");
    }

    @Test
    void shouldUseFloorLogTwoMinusOneForTheToleratedFailures()
    {
        assertEquals(8, Theorem1.maxTolerated(1_000));
        assertEquals(9, Theorem1.maxTolerated(1_024));
        assertEquals(16, Theorem1.maxTolerated(256_000));
    }
}
