package io.ringwatch.perf;

import io.ringwatch.perf.reproduce.Reproduce;

import java.io.PrintStream;

/**
 * {@code reproduce}: the paper-reproduction experiments; the work lives in {@link Reproduce}.
 */
final class ReproduceCommand implements Command
{
    public String name()
    {
        return "reproduce";
    }

    public String summary()
    {
        return "reproduce the papers' analysis and simulations (CSVs, PNG plots, REPORT.md)";
    }

    public String usage()
    {
        return Reproduce.USAGE;
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        return Reproduce.run(args, out, err);
    }
}
