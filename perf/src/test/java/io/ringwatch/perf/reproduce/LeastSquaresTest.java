package io.ringwatch.perf.reproduce;

import org.junit.jupiter.api.Test;

import java.util.function.DoubleUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LeastSquaresTest
{
    @Test
    void shouldRecoverTheCoefficientsOfAnExactModel()
    {
        final double[] xs = {1_000, 2_000, 4_000, 8_000, 16_000};
        final double[] ys = new double[xs.length];
        for (int i = 0; i < xs.length; i++)
        {
            ys[i] = 55 + 3_000 / xs[i] + 0.5 * Math.floor(Math.log(xs[i]) / Math.log(2));
        }
        final LeastSquares.Fit fit = LeastSquares.fit(xs, ys, new String[]{"1", "1/n", "log"},
            (DoubleUnaryOperator)(n) -> 1, (n) -> 1 / n, (n) -> Math.floor(Math.log(n) / Math.log(2)));
        assertEquals(55, fit.coefficients()[0], 1e-6);
        assertEquals(3_000, fit.coefficients()[1], 1e-3);
        assertEquals(0.5, fit.coefficients()[2], 1e-7);
        assertEquals(1.0, fit.r2(), 1e-12);
    }
}
