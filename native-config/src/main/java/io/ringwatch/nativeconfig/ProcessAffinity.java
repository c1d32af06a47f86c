package io.ringwatch.nativeconfig;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * CPU sets for whole processes and single threads through {@code sched_setaffinity(2)} (JNA), for a launcher that
 * places processes it started (a benchmark putting a node JVM, its driver or its load on chosen cores).
 * {@link CpuPinning} binds one thread to one CPU from inside; this works from outside, thread by thread, which is the
 * only way Linux offers: a thread's mask is its own, and threads created later inherit their creator's.
 * <p>
 * Linux only. Never throws for a missing libc, a vanished thread or a refused call: the {@link Result} says why.
 */
public final class ProcessAffinity
{
    /** Words of the {@code cpu_set_t} we pass: 1024 CPUs, glibc's default size. */
    private static final int MASK_LONGS = 16;

    private ProcessAffinity()
    {
    }

    /**
     * Outcome of placing a process.
     *
     * @param threads threads whose mask was set.
     * @param failed  threads whose mask could not be set (they may have exited in between).
     * @param reason  why the last failure happened; empty when none.
     */
    public record Result(int threads, int failed, String reason)
    {
        /**
         * @return true if at least one thread was placed and none failed.
         */
        public boolean applied()
        {
            return threads > 0 && failed == 0;
        }

        public String toString()
        {
            return threads + " thread(s) placed" + (failed == 0 ? "" : ", " + failed + " failed: " + reason);
        }
    }

    /**
     * Restrict one thread.
     *
     * @param tid  kernel thread id; 0 for the calling thread.
     * @param cpus CPUs it may run on; not empty.
     * @return null on success, else why not.
     */
    public static String setThread(final long tid, final BitSet cpus)
    {
        if (cpus.isEmpty())
        {
            throw new IllegalArgumentException("empty CPU set for thread " + tid);
        }
        final LibC libc = Holder.LIBC.library();
        if (libc == null)
        {
            return Holder.LIBC.unavailableReason();
        }
        try
        {
            libc.sched_setaffinity((int)tid, MASK_LONGS * Long.BYTES, toMask(cpus));
            return null;
        }
        catch (final LastErrorException ex)
        {
            return "sched_setaffinity(" + tid + ", " + CpuList.format(cpus) + ") failed with errno " +
                ex.getErrorCode();
        }
    }

    /**
     * @param tid kernel thread id; 0 for the calling thread.
     * @return its CPU set, or null if it cannot be read.
     */
    public static BitSet ofThread(final long tid)
    {
        final LibC libc = Holder.LIBC.library();
        if (libc == null)
        {
            return null;
        }
        final long[] mask = new long[MASK_LONGS];
        try
        {
            libc.sched_getaffinity((int)tid, MASK_LONGS * Long.BYTES, mask);
            return BitSet.valueOf(mask);
        }
        catch (final LastErrorException ex)
        {
            return null;
        }
    }

    /**
     * Restrict every thread of a process that exists now; threads it creates later inherit from their creator, so
     * call this once the process has started its long-lived threads (and again to catch late ones).
     *
     * @param pid  process id.
     * @param cpus CPUs its threads may run on; not empty.
     * @return how many threads were placed.
     */
    public static Result setProcess(final long pid, final BitSet cpus)
    {
        int placed = 0;
        int failed = 0;
        String reason = "";
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir(pid)))
        {
            for (final Path task : tasks)
            {
                final String why = setThread(Long.parseLong(task.getFileName().toString()), cpus);
                if (why == null)
                {
                    placed++;
                }
                else if (Files.exists(task))
                {
                    failed++;
                    reason = why;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return new Result(placed, failed + 1, "cannot list the threads of process " + pid + ": " + ex);
        }
        return new Result(placed, failed, reason);
    }

    /**
     * @param pid  process id.
     * @param cpus the set every thread should be confined to.
     * @return threads of the process allowed on a CPU outside {@code cpus} now, e.g. {@code "1234 (C1 CompilerThre)
     * 0-1"}, or an empty string when there are none (or the process is gone).
     */
    public static String threadsOutside(final long pid, final BitSet cpus)
    {
        final StringBuilder outside = new StringBuilder();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir(pid)))
        {
            for (final Path task : tasks)
            {
                final String status = HostFiles.readOrNull(task.resolve("status"));
                final BitSet allowed = status == null ? null : HostCpus.parseCpusAllowedList(status);
                if (allowed == null)
                {
                    continue;
                }
                final BitSet extra = (BitSet)allowed.clone();
                extra.andNot(cpus);
                if (!extra.isEmpty())
                {
                    outside.append(outside.length() == 0 ? "" : ", ").append(task.getFileName())
                        .append(" (").append(threadName(status)).append(") ").append(CpuList.format(allowed));
                }
            }
        }
        catch (final IOException ex)
        {
            return "";
        }
        return outside.toString();
    }

    private static String threadName(final String status)
    {
        for (final String line : status.split("\n"))
        {
            if (line.startsWith("Name:"))
            {
                return line.substring("Name:".length()).trim();
            }
        }
        return "?";
    }

    private static Path taskDir(final long pid)
    {
        return Path.of("/proc", Long.toString(pid), "task");
    }

    static long[] toMask(final BitSet cpus)
    {
        if (cpus.length() > MASK_LONGS * Long.SIZE)
        {
            throw new IllegalArgumentException("CPU " + (cpus.length() - 1) + " beyond the " + MASK_LONGS * Long.SIZE +
                " a cpu_set_t holds");
        }
        final long[] mask = new long[MASK_LONGS];
        final long[] words = cpus.toLongArray();
        System.arraycopy(words, 0, mask, 0, words.length);
        return mask;
    }

    /**
     * {@code cpu_set_t} is an array of unsigned longs, CPU i at bit i % 64 of word i / 64: what
     * {@link BitSet#toLongArray()} gives.
     */
    interface LibC extends Library
    {
        int sched_setaffinity(int pid, long cpusetsize, long[] mask) throws LastErrorException;

        int sched_getaffinity(int pid, long cpusetsize, long[] mask) throws LastErrorException;
    }

    private static final class Holder
    {
        static final LinuxLibC<LibC> LIBC = LinuxLibC.load(LibC.class, "sched_setaffinity");
    }
}
