package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What every thread of the detector's processes did during measured windows: wake-ups (voluntary context
 * switches: the thread slept and something woke it), preemptions and CPU time, summed by process and thread name
 * over the windows. A wake-up on the application's core costs the application a context switch each way and the
 * caches the thread touches, whatever the thread does once awake, so their sum there is the figure to drive down.
 */
final class ThreadActivity
{
    /**
     * One thread (or the threads of one name in one process) over the windows.
     */
    static final class Row
    {
        final String process;
        final String thread;
        final BitSet cores = new BitSet();
        long wakeUps;
        long preemptions;
        long cpuNs;

        Row(final String process, final String thread)
        {
            this.process = process;
            this.thread = thread;
        }

        boolean mayRunOn(final BitSet cpus)
        {
            return cores.intersects(cpus);
        }
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();
    private double seconds;

    /**
     * @param pid a process.
     * @return its threads now, by tid: the "before" of {@link #add(String, Map, List)}.
     */
    static Map<Long, ThreadSample> snapshot(final long pid)
    {
        final Map<Long, ThreadSample> byTid = new HashMap<>();
        for (final ThreadSample s : ThreadSample.ofProcess(pid))
        {
            byTid.put(s.tid(), s);
        }
        return byTid;
    }

    /**
     * Add what one process's threads did between two samples; a thread started in between counts from zero, one
     * that exited in between is lost (the detector starts none in steady state).
     *
     * @param process e.g. {@code node 0}, {@code driver}.
     * @param before  {@link #snapshot(long)} at the window's start.
     * @param after   the threads at its end.
     */
    void add(final String process, final Map<Long, ThreadSample> before, final List<ThreadSample> after)
    {
        for (final ThreadSample end : after)
        {
            final ThreadSample start = before.get(end.tid());
            final Row row = rows.computeIfAbsent(process + '\0' + end.name(), k -> new Row(process, end.name()));
            row.cores.or(end.allowed());
            row.wakeUps += end.voluntary() - (start == null ? 0 : start.voluntary());
            row.preemptions += end.involuntary() - (start == null ? 0 : start.involuntary());
            row.cpuNs += end.cpuNs() - (start == null ? 0 : start.cpuNs());
        }
    }

    /**
     * @param s length of the window(s) just added, s.
     */
    void addSeconds(final double s)
    {
        seconds += s;
    }

    /**
     * @param other another window's activity, summed into this one.
     */
    void add(final ThreadActivity other)
    {
        for (final Row r : other.rows.values())
        {
            final Row row = rows.computeIfAbsent(r.process + '\0' + r.thread, k -> new Row(r.process, r.thread));
            row.cores.or(r.cores);
            row.wakeUps += r.wakeUps;
            row.preemptions += r.preemptions;
            row.cpuNs += r.cpuNs;
        }
        seconds += other.seconds;
    }

    /**
     * @return seconds of windows summed.
     */
    double seconds()
    {
        return seconds;
    }

    /**
     * @return rows, most wake-ups first.
     */
    List<Row> rows()
    {
        final List<Row> sorted = new ArrayList<>(rows.values());
        sorted.sort(Comparator.comparingLong((Row r) -> -r.wakeUps).thenComparingLong(r -> -r.cpuNs));
        return sorted;
    }

    /**
     * @param cpus the application's cores.
     * @return wake-ups per second of every thread that may run on one of them.
     */
    double wakeUpsPerSecondOn(final BitSet cpus)
    {
        long sum = 0;
        for (final Row r : rows.values())
        {
            sum += r.mayRunOn(cpus) ? r.wakeUps : 0;
        }
        return seconds > 0 ? sum / seconds : Double.NaN;
    }

    /**
     * @param cpus the application's cores.
     * @return CPU time per second of every thread that may run on one of them, µs/s.
     */
    double cpuMicrosPerSecondOn(final BitSet cpus)
    {
        long sum = 0;
        for (final Row r : rows.values())
        {
            sum += r.mayRunOn(cpus) ? r.cpuNs : 0;
        }
        return seconds > 0 ? sum / 1e3 / seconds : Double.NaN;
    }

    /**
     * "thread · core · wake-ups/s · CPU µs/s": every thread that woke or ran, then one line for the rest, then the
     * sums on the application's cores.
     *
     * @param appCpus the application's cores, marked {@code *}.
     * @return the table, as monospaced text.
     */
    String table(final BitSet appCpus)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "  %-8s %-16s %-6s %12s %12s %12s%n", "process", "thread", "cores",
            "wake-ups/s", "preempt/s", "CPU µs/s"));
        int quiet = 0;
        for (final Row r : rows())
        {
            if (r.wakeUps == 0 && r.preemptions == 0 && r.cpuNs == 0)
            {
                quiet++;
                continue;
            }
            sb.append(String.format(Locale.ROOT, "  %-8s %-16s %-6s %12.1f %12.1f %12.1f%n", r.process, r.thread,
                CpuList.format(r.cores) + (r.mayRunOn(appCpus) ? "*" : ""), r.wakeUps / seconds,
                r.preemptions / seconds, r.cpuNs / 1e3 / seconds));
        }
        sb.append(String.format(Locale.ROOT, "  (%d other thread(s) neither woke nor ran)%n", quiet));
        sb.append(String.format(Locale.ROOT, "  on the application's cores (*): %.1f wake-ups/s, %.1f CPU µs/s " +
            "over %.1f s of B%n", wakeUpsPerSecondOn(appCpus), cpuMicrosPerSecondOn(appCpus), seconds));
        return sb.toString();
    }
}
