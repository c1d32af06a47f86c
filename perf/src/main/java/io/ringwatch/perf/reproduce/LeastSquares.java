package io.ringwatch.perf.reproduce;

import java.util.function.DoubleUnaryOperator;

/**
 * Linear least squares over named basis functions, e.g. y ≈ a + b/n + c·⌊log₂ n⌋, which is how the paper fits
 * its simulation points. Solved by the normal equations with partial pivoting; the systems here are 2–3 wide.
 */
public final class LeastSquares
{
    private LeastSquares()
    {
    }

    /**
     * A fitted model.
     *
     * @param coefficients one per basis function.
     * @param basis        the basis functions.
     * @param terms        their printable names, e.g. "1", "1/n", "⌊log₂ n⌋".
     * @param r2           coefficient of determination on the fitted points.
     */
    public record Fit(double[] coefficients, DoubleUnaryOperator[] basis, String[] terms, double r2)
    {
        /**
         * @param x abscissa.
         * @return the model's value.
         */
        public double at(final double x)
        {
            double y = 0;
            for (int j = 0; j < basis.length; j++)
            {
                y += coefficients[j] * basis[j].applyAsDouble(x);
            }
            return y;
        }

        /**
         * @param unit unit of y, appended to each coefficient.
         * @return e.g. {@code 55.0 s + 1.2e3 s·1/n + 0.9 s·⌊log₂ n⌋}.
         */
        public String describe(final String unit)
        {
            final StringBuilder sb = new StringBuilder();
            for (int j = 0; j < terms.length; j++)
            {
                if (j > 0)
                {
                    sb.append(coefficients[j] < 0 ? " − " : " + ");
                }
                else if (coefficients[j] < 0)
                {
                    sb.append('−');
                }
                sb.append(String.format(java.util.Locale.ROOT, "%.4g", Math.abs(coefficients[j])));
                sb.append(unit.isEmpty() ? "" : " " + unit);
                if (!"1".equals(terms[j]))
                {
                    sb.append("·").append(terms[j]);
                }
            }
            return sb.toString();
        }
    }

    /**
     * @param x     abscissae.
     * @param y     ordinates, same length.
     * @param terms names of the basis functions.
     * @param basis basis functions, at most as many as points.
     * @return the fit.
     */
    public static Fit fit(final double[] x, final double[] y, final String[] terms, final DoubleUnaryOperator... basis)
    {
        final int m = basis.length;
        if (x.length != y.length || x.length < m || terms.length != m)
        {
            throw new IllegalArgumentException("need as many names as functions and at least " + m +
                " points, got " + x.length);
        }
        final double[][] a = new double[m][m + 1];
        for (int i = 0; i < x.length; i++)
        {
            for (int r = 0; r < m; r++)
            {
                final double gr = basis[r].applyAsDouble(x[i]);
                for (int c = 0; c < m; c++)
                {
                    a[r][c] += gr * basis[c].applyAsDouble(x[i]);
                }
                a[r][m] += gr * y[i];
            }
        }
        final double[] coefficients = solve(a, m);
        final Fit provisional = new Fit(coefficients, basis, terms, Double.NaN);
        double mean = 0;
        for (final double v : y)
        {
            mean += v / y.length;
        }
        double ssRes = 0;
        double ssTot = 0;
        for (int i = 0; i < x.length; i++)
        {
            final double e = y[i] - provisional.at(x[i]);
            ssRes += e * e;
            ssTot += (y[i] - mean) * (y[i] - mean);
        }
        final double r2 = ssTot > 0 ? 1 - ssRes / ssTot : 1.0;
        return new Fit(coefficients, basis, terms, r2);
    }

    private static double[] solve(final double[][] a, final int m)
    {
        for (int col = 0; col < m; col++)
        {
            int pivot = col;
            for (int r = col + 1; r < m; r++)
            {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col]))
                {
                    pivot = r;
                }
            }
            final double[] tmp = a[col];
            a[col] = a[pivot];
            a[pivot] = tmp;
            if (Math.abs(a[col][col]) < 1e-300)
            {
                throw new IllegalArgumentException("basis functions are linearly dependent on these points");
            }
            for (int r = 0; r < m; r++)
            {
                if (r != col)
                {
                    final double factor = a[r][col] / a[col][col];
                    for (int c = col; c <= m; c++)
                    {
                        a[r][c] -= factor * a[col][c];
                    }
                }
            }
        }
        final double[] x = new double[m];
        for (int r = 0; r < m; r++)
        {
            x[r] = a[r][m] / a[r][r];
        }
        return x;
    }
}
