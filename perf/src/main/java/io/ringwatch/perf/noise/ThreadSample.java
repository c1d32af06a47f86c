package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * One thread's scheduler counters at one moment, as Linux shows them under {@code /proc/PID/task/TID}: CPU time,
 * voluntary context switches (the thread went to sleep: each is one later wake-up) and involuntary ones (it was
 * preempted), the cores it may run on and the one it ran on last.
 *
 * @param tid         thread id.
 * @param name        the thread's name ({@code comm}: the JVM gives native threads the first 15 characters of the
 *                    Java name).
 * @param cpuNs       CPU time used so far, ns: {@code schedstat}'s, else {@code stat}'s utime + stime in clock ticks.
 * @param voluntary   voluntary context switches so far.
 * @param involuntary involuntary context switches so far.
 * @param allowed     {@code Cpus_allowed_list}.
 * @param lastCpu     the core it last ran on ({@code stat} field 39).
 */
public record ThreadSample(
    long tid, String name, long cpuNs, long voluntary, long involuntary, BitSet allowed, int lastCpu)
{
    /** USER_HZ, the unit of {@code stat}'s times: 100 on every Linux architecture Java runs on. */
    static final long NS_PER_CLOCK_TICK = 10_000_000L;

    private static final int UTIME_FIELD = 14;
    private static final int STIME_FIELD = 15;
    private static final int PROCESSOR_FIELD = 39;

    /**
     * @param pid a process.
     * @return every thread of it that could be read; empty once the process is gone.
     */
    public static List<ThreadSample> ofProcess(final long pid)
    {
        final List<ThreadSample> samples = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task")))
        {
            for (final Path task : tasks)
            {
                final ThreadSample sample = read(task);
                if (sample != null)
                {
                    samples.add(sample);
                }
            }
        }
        catch (final IOException ex)
        {
            // the process exited: it has no threads left to count
        }
        return samples;
    }

    /**
     * @param task a {@code /proc/PID/task/TID} directory.
     * @return its sample, or null if the thread exited while being read.
     */
    static ThreadSample read(final Path task)
    {
        try
        {
            final Path schedstat = task.resolve("schedstat");
            return parse(Long.parseLong(task.getFileName().toString()), Files.readString(task.resolve("stat")),
                Files.readString(task.resolve("status")),
                Files.exists(schedstat) ? Files.readString(schedstat) : null);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            // an exiting thread's files can fail to read (ESRCH) rather than vanish
            return null;
        }
    }

    /**
     * @param tid       thread id.
     * @param stat      the text of {@code stat}.
     * @param status    the text of {@code status}.
     * @param schedstat the text of {@code schedstat}, or null where the kernel has none (no CONFIG_SCHED_INFO).
     * @return the sample.
     * @throws IllegalArgumentException if a field is missing or malformed.
     */
    static ThreadSample parse(final long tid, final String stat, final String status, final String schedstat)
    {
        // the name is in parentheses and may itself hold spaces and parentheses: the last ')' ends it
        final int open = stat.indexOf('(');
        final int close = stat.lastIndexOf(')');
        if (open < 0 || close < open)
        {
            throw new IllegalArgumentException("no (comm) in stat: " + stat);
        }
        final String name = stat.substring(open + 1, close);
        // fields after the name start at field 3 (state)
        final String[] rest = stat.substring(close + 1).trim().split("\\s+");
        if (rest.length < PROCESSOR_FIELD - 2)
        {
            throw new IllegalArgumentException("stat has " + (rest.length + 2) + " fields, need " + PROCESSOR_FIELD);
        }
        final long cpuNs = schedstat != null ? Long.parseLong(schedstat.trim().split("\\s+")[0]) :
            (Long.parseLong(rest[UTIME_FIELD - 3]) + Long.parseLong(rest[STIME_FIELD - 3])) * NS_PER_CLOCK_TICK;
        return new ThreadSample(tid, name, cpuNs, Long.parseLong(field(status, "voluntary_ctxt_switches")),
            Long.parseLong(field(status, "nonvoluntary_ctxt_switches")),
            CpuList.parse(field(status, "Cpus_allowed_list")),
            Integer.parseInt(rest[PROCESSOR_FIELD - 3]));
    }

    private static String field(final String status, final String key)
    {
        for (final String line : status.split("\n"))
        {
            if (line.startsWith(key + ":"))
            {
                return line.substring(key.length() + 1).trim();
            }
        }
        throw new IllegalArgumentException("no " + key + " in status");
    }
}
