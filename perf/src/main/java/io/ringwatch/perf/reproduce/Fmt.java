package io.ringwatch.perf.reproduce;

import java.util.Locale;

/**
 * Number formatting for the report, always in {@link Locale#ROOT}.
 */
final class Fmt
{
    private Fmt()
    {
    }

    static String f(final String pattern, final Object... args)
    {
        return String.format(Locale.ROOT, pattern, args);
    }

    static String seconds(final double s)
    {
        if (Math.abs(s) >= 100)
        {
            return f("%.0f s", s);
        }
        if (Math.abs(s) >= 1)
        {
            return f("%.2f s", s);
        }
        if (Math.abs(s) >= 1e-3)
        {
            return f("%.2f ms", s * 1e3);
        }
        return f("%.2f µs", s * 1e6);
    }

    static String count(final double v)
    {
        return f("%,.0f", v);
    }
}
