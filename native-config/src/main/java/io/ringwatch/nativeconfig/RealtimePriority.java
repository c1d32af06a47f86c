package io.ringwatch.nativeconfig;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;

/**
 * Moves the calling thread into the kernel's {@code SCHED_FIFO} class through {@code sched_setscheduler(2)} (JNA,
 * which OpenHFT affinity already brings).
 * <p>
 * Why: a sleeping agent that shares cores with busy threads (other JVMs' JIT compilers and collectors, an HPC
 * application) is woken by the scheduler only when the fair class gives it a turn, which on a loaded host takes
 * milliseconds, long enough to look dead at δ ≤ 10 ms. A real-time thread preempts every fair-class thread the
 * moment its timer fires, and timer slack is zero for it, so its heartbeats leave on time. It costs the
 * application nothing but the agent's own few microseconds per wake-up.
 * <p>
 * Never combine with busy-spinning on a core that anything else needs: a spinning {@code SCHED_FIFO} thread owns
 * its core outright (the kernel's real-time throttling leaves others 5 % by default).
 * <p>
 * Linux only; needs root, {@code CAP_SYS_NICE} or an {@code RLIMIT_RTPRIO} ({@code ulimit -r}) at least the
 * priority asked for. Never throws for those reasons: the {@link Result} says why it did not happen.
 */
public final class RealtimePriority
{
    /** Lowest {@code SCHED_FIFO} priority on Linux. */
    public static final int MIN = 1;

    /** Highest {@code SCHED_FIFO} priority on Linux. */
    public static final int MAX = 99;

    private static final int SCHED_OTHER = 0;
    private static final int SCHED_FIFO = 1;
    private static final int EPERM = 1;
    private static final int ESRCH = 3;

    private RealtimePriority()
    {
    }

    /**
     * Outcome of a request.
     *
     * @param applied  true if the thread now runs as {@code SCHED_FIFO} at {@code priority}.
     * @param priority the priority asked for.
     * @param reason   why not; empty when applied.
     */
    public record Result(boolean applied, int priority, String reason)
    {
        public String toString()
        {
            return applied ? "SCHED_FIFO priority " + priority : "not real-time (asked SCHED_FIFO " + priority +
                "): " + reason;
        }
    }

    /**
     * @param priority {@link #MIN}..{@link #MAX}.
     * @throws IllegalArgumentException naming the value when out of range.
     */
    public static void validate(final int priority)
    {
        if (priority < MIN || priority > MAX)
        {
            throw new IllegalArgumentException("SCHED_FIFO priority must be in [" + MIN + ", " + MAX + "]: " +
                priority);
        }
    }

    /**
     * Make the calling thread {@code SCHED_FIFO} at {@code priority}.
     *
     * @param priority {@link #MIN}..{@link #MAX}.
     * @return success, or why not (not Linux, JNA missing, no permission).
     * @throws IllegalArgumentException when the priority is out of range: a configuration error, not a host fact.
     */
    public static Result raiseCurrentThread(final int priority)
    {
        validate(priority);
        return set(0, SCHED_FIFO, priority);
    }

    /**
     * Make another thread of this process {@code SCHED_FIFO} at {@code priority}, so a thread that must keep its
     * deadlines never runs the call itself: the first call through JNA on a cold thread took 5–36 ms on a busy host.
     *
     * @param tid      the thread's kernel id ({@link NativeThreadId#current()} on that thread).
     * @param priority {@link #MIN}..{@link #MAX}.
     * @return success, or why not (not Linux, JNA missing, no permission, no such thread).
     * @throws IllegalArgumentException when the priority is out of range or the tid is not positive.
     */
    public static Result raiseThread(final int tid, final int priority)
    {
        validate(priority);
        if (tid <= 0)
        {
            throw new IllegalArgumentException("thread id must be positive: " + tid);
        }
        return set(tid, SCHED_FIFO, priority);
    }

    /**
     * @param tid a thread's kernel id.
     * @return its policy: {@code "SCHED_FIFO"}, {@code "SCHED_OTHER"}, another name, or {@code null} when it cannot
     * be asked.
     */
    public static String policyOf(final int tid)
    {
        final LibC libc = LibC.instance();
        if (libc == null)
        {
            return null;
        }
        try
        {
            return policyName(libc.sched_getscheduler(tid));
        }
        catch (final LastErrorException ex)
        {
            return null;
        }
    }

    /**
     * Find out whether this process may use SCHED_FIFO, by raising a throwaway thread to {@link #MIN} and back, so
     * the caller's own scheduling is untouched.
     *
     * @return success, or why not.
     */
    public static Result probe()
    {
        final java.util.concurrent.atomic.AtomicReference<Result> result =
            new java.util.concurrent.atomic.AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            final Result raised = raiseCurrentThread(MIN);
            if (raised.applied())
            {
                restoreCurrentThread();
            }
            result.set(raised);
        }, "ringwatch-rt-probe");
        thread.start();
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return new Result(false, MIN, "interrupted while probing");
        }
        return result.get();
    }

    /**
     * Put the calling thread back into the ordinary fair class.
     *
     * @return success ({@code priority} 0), or why not.
     */
    public static Result restoreCurrentThread()
    {
        return set(0, SCHED_OTHER, 0);
    }

    /**
     * @return the calling thread's policy: {@code "SCHED_FIFO"}, {@code "SCHED_OTHER"}, another name, or
     * {@code null} when it cannot be asked.
     */
    public static String currentPolicy()
    {
        return policyOf(0);
    }

    private static String policyName(final int policy)
    {
        return switch (policy)
        {
            case SCHED_OTHER -> "SCHED_OTHER";
            case SCHED_FIFO -> "SCHED_FIFO";
            case 2 -> "SCHED_RR";
            case 3 -> "SCHED_BATCH";
            case 5 -> "SCHED_IDLE";
            default -> "policy " + policy;
        };
    }

    private static Result set(final int tid, final int policy, final int priority)
    {
        final LibC libc = LibC.instance();
        if (libc == null)
        {
            return new Result(false, priority, LibC.unavailableReason());
        }
        try
        {
            // a tid (0: the calling thread) names one thread, not the process: other JVM threads keep their class
            libc.sched_setscheduler(tid, policy, new int[]{priority});
            return new Result(true, priority, "");
        }
        catch (final LastErrorException ex)
        {
            final String why = ex.getErrorCode() == EPERM ?
                "permission denied: run as root, grant CAP_SYS_NICE, or raise RLIMIT_RTPRIO (ulimit -r) to at least " +
                    priority : ex.getErrorCode() == ESRCH ? "no thread " + tid + " (it has ended)" :
                "sched_setscheduler failed with errno " + ex.getErrorCode();
            return new Result(false, priority, why);
        }
    }

    /**
     * The two libc calls, loaded once; {@code sched_param} is a struct of one int, passed as an int array.
     */
    interface LibC extends Library
    {
        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

        int sched_getscheduler(int pid) throws LastErrorException;

        static LibC instance()
        {
            return Holder.LIBC.library();
        }

        static String unavailableReason()
        {
            return Holder.LIBC.unavailableReason();
        }
    }

    private static final class Holder
    {
        static final LinuxLibC<LibC> LIBC = LinuxLibC.load(LibC.class, "SCHED_FIFO through sched_setscheduler");
    }
}
