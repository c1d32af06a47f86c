package io.ringwatch.perf.reproduce;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A periodic progress line with an ETA for one experiment. Work is counted in caller-chosen units (e.g. node·runs)
 * so the ETA stays honest when later points are much larger than earlier ones.
 */
public final class Progress
{
    private static final long PRINT_INTERVAL_NS = 2_000_000_000L;

    private final PrintStream out;
    private final String label;
    private final double totalWork;
    private final long startNs;
    private double doneWork;
    private long lastPrintNs;

    /**
     * @param out       where the lines go (stderr in the CLI).
     * @param label     experiment name.
     * @param totalWork total units of work the experiment will report.
     */
    public Progress(final PrintStream out, final String label, final double totalWork)
    {
        this.out = out;
        this.label = label;
        this.totalWork = Math.max(totalWork, 1e-9);
        this.startNs = System.nanoTime();
        this.lastPrintNs = startNs;
    }

    /**
     * @param work   units just finished.
     * @param detail what is running now, shown on the line.
     */
    public void advance(final double work, final String detail)
    {
        doneWork += work;
        final long nowNs = System.nanoTime();
        if (nowNs - lastPrintNs >= PRINT_INTERVAL_NS)
        {
            lastPrintNs = nowNs;
            print(nowNs, detail);
        }
    }

    /**
     * Print the closing line.
     */
    public void finish()
    {
        final double elapsedS = (System.nanoTime() - startNs) / 1e9;
        out.printf(Locale.ROOT, "[%s] done in %.1f s%n", label, elapsedS);
        out.flush();
    }

    private void print(final long nowNs, final String detail)
    {
        final double elapsedS = (nowNs - startNs) / 1e9;
        final double fraction = Math.min(1.0, doneWork / totalWork);
        final double etaS = fraction > 0 ? elapsedS * (1 - fraction) / fraction : Double.NaN;
        out.printf(Locale.ROOT, "[%s] %5.1f%%  elapsed %6.1f s  ETA %6.1f s  %s%n",
            label, 100 * fraction, elapsedS, etaS, detail);
        out.flush();
    }
}
