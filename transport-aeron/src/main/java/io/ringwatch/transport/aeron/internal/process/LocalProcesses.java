package io.ringwatch.transport.aeron.internal.process;

import io.ringwatch.nativeconfig.PidFd;
import io.ringwatch.nativeconfig.RealtimePriority;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;

/**
 * The application processes a daemon launched ({@code node --exec CMD --procs-per-node K}), and how it learns of their exit.
 * Where Linux pidfds work ({@link PidFd}), one watcher thread blocks in {@code poll(2)} on the children's pidfds: the
 * kernel wakes it the moment one exits, it reads the status with {@code waitid(WNOWAIT)} (leaving the reaping to the
 * JDK), records status and time, and unparks the daemon's agent ({@link #onExit(Runnable)}), whose next duty cycle
 * picks it up ({@link #exitsReported()}). The JDK's reaper thread is woken by the same exit, and when it runs first
 * it reaps the child and the status is only the JDK's: the watcher then takes it from {@link Process#waitFor()}. On
 * an idle host the reaper always wins that race; what the pidfd buys is the loaded host, where the reaper waits for
 * a core and a real-time watcher does not: so pidfds are used by default only for real-time watchers
 * ({@link #PIDFD_PROP_NAME}). Elsewhere, one watcher thread per child waits in {@link Process#waitFor()},
 * which the JDK's reaper thread wakes after its {@code waitpid}: one thread wake-up more, and the one that made the
 * tail under load. Not {@link Process#onExit()}: its completion hops to the common fork-join pool, measured at 5 ms
 * p50 under load.
 * <p>
 * Given a real-time priority (the daemon's agent's, {@code node --rt-priority}) the watchers run {@code SCHED_FIFO},
 * so on a loaded host their wake-up does not wait for a core.
 */
public final class LocalProcesses implements AutoCloseable
{
    /**
     * {@code -Dringwatch.process.pidfd=true|false}: learn exits from pidfds where they work, or through
     * {@link Process#waitFor()}. Unset: pidfds only for real-time watchers, the one case where they measured faster
     * (an ordinary watcher mostly loses the race to the JDK's reaper and then waits for it anyway).
     */
    public static final String PIDFD_PROP_NAME = "ringwatch.process.pidfd";

    /** Stored in {@link #exitCode(int)} while the process runs. */
    public static final int RUNNING = Integer.MIN_VALUE;

    private final Process[] processes;
    private final AtomicLongArray exitedAtNs;
    private final AtomicLongArray exitCodes;
    private final AtomicInteger exitsReported = new AtomicInteger();
    private volatile Runnable onExit = () -> {};
    private volatile String watcherScheduling = "";
    private volatile boolean closed;

    private String mechanism = "Process.waitFor";
    private volatile long statusesFromPidFd;

    private LocalProcesses(final int count)
    {
        processes = new Process[count];
        exitedAtNs = new AtomicLongArray(count);
        exitCodes = new AtomicLongArray(count);
        for (int i = 0; i < count; i++)
        {
            exitCodes.set(i, RUNNING);
        }
    }

    /**
     * Launch {@code count} copies of {@code command} through {@code /bin/sh -c "exec ..."}, so the shell's quoting
     * applies and the pid watched is the program's own.
     *
     * @param command      the command line.
     * @param count        K.
     * @param environment  per local index, variables to add (who the process is, where its daemon is).
     * @return the launched processes, watched.
     */
    public static LocalProcesses launch(
        final String command, final int count, final IntFunction<Map<String, String>> environment)
    {
        return launch(command, count, environment, 0);
    }

    /**
     * Launch {@code count} copies of {@code command} through {@code /bin/sh -c "exec ..."}, so the shell's quoting
     * applies and the pid watched is the program's own.
     *
     * @param command          the command line.
     * @param count            K.
     * @param environment      per local index, variables to add (who the process is, where its daemon is).
     * @param watcherPriority  {@code SCHED_FIFO} priority of the exit watchers, 0 for the ordinary scheduler; where
     *                         the host refuses it they stay ordinary ({@link #watcherScheduling()} says why).
     * @return the launched processes, watched.
     */
    public static LocalProcesses launch(
        final String command,
        final int count,
        final IntFunction<Map<String, String>> environment,
        final int watcherPriority)
    {
        final String pidfd = System.getProperty(PIDFD_PROP_NAME);
        return launch(command, count, environment, watcherPriority,
            pidfd == null ? watcherPriority > 0 : Boolean.parseBoolean(pidfd));
    }

    /**
     * @param command          the command line.
     * @param count            K.
     * @param environment      per local index, variables to add.
     * @param watcherPriority  {@code SCHED_FIFO} priority of the exit watchers, 0 for the ordinary scheduler.
     * @param usePidFd         learn exits from pidfds where they work; false for {@link Process#waitFor()} threads.
     * @return the launched processes, watched.
     */
    public static LocalProcesses launch(
        final String command,
        final int count,
        final IntFunction<Map<String, String>> environment,
        final int watcherPriority,
        final boolean usePidFd)
    {
        if (watcherPriority != 0)
        {
            RealtimePriority.validate(watcherPriority);
        }
        final LocalProcesses launched = new LocalProcesses(count);
        try
        {
            final int[] pidfds = new int[count];
            for (int i = 0; i < count; i++)
            {
                final ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "exec " + command).inheritIO();
                builder.environment().putAll(environment.apply(i));
                final Process process = builder.start();
                launched.processes[i] = process;
                pidfds[i] = usePidFd ? PidFd.open(process.pid()) : -1;
                if (pidfds[i] < 0)
                {
                    // no pidfd (none here, or the child is gone already): the JDK's reaper tells its watcher
                    final int index = i;
                    launched.startWatcher(() -> launched.watch(index), "ringwatch-exit-" + i, watcherPriority);
                }
            }
            if (Arrays.stream(pidfds).anyMatch(fd -> fd >= 0))
            {
                launched.mechanism = "pidfd";
                launched.startWatcher(() -> launched.watchPidFds(pidfds), "ringwatch-exits", watcherPriority);
            }
        }
        catch (final IOException ex)
        {
            launched.close();
            throw new UncheckedIOException("cannot launch '" + command + "'", ex);
        }
        return launched;
    }

    private void startWatcher(final Runnable body, final String name, final int priority)
    {
        final Thread watcher = new Thread(() ->
        {
            if (priority > 0)
            {
                watcherScheduling = RealtimePriority.raiseCurrentThread(priority).toString();
            }
            body.run();
        }, name);
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watchPidFds(final int[] pidfds)
    {
        final PidFd.PollSet set = new PidFd.PollSet(pidfds);
        int watching = 0;
        for (final int fd : pidfds)
        {
            watching += fd >= 0 ? 1 : 0;
        }
        try
        {
            while (watching > 0 && !closed)
            {
                if (set.await(100) <= 0)
                {
                    continue;
                }
                for (int i = 0; i < pidfds.length; i++)
                {
                    if (pidfds[i] >= 0 && set.exited(i))
                    {
                        set.remove(i);
                        watching--;
                        int status = PidFd.exitStatus(pidfds[i]);
                        if (status != PidFd.UNKNOWN)
                        {
                            statusesFromPidFd++;
                        }
                        else
                        {
                            // the JDK's reaper reaped it first: the status is the JDK's, stored once its thread runs
                            status = waitForUninterruptibly(processes[i]);
                        }
                        // stamped once the status is known, when the daemon can act on it
                        record(i, status, System.nanoTime());
                    }
                }
            }
        }
        finally
        {
            for (final int fd : pidfds)
            {
                PidFd.close(fd);
            }
        }
    }

    private static int waitForUninterruptibly(final Process process)
    {
        while (true)
        {
            try
            {
                return process.waitFor();
            }
            catch (final InterruptedException ignore)
            {
                // only an exit ends the watch
            }
        }
    }

    private void record(final int index, final int status, final long atNs)
    {
        exitedAtNs.set(index, atNs);
        exitCodes.set(index, status);
        exitsReported.incrementAndGet();
        onExit.run();
    }

    private void watch(final int index)
    {
        final Process process = processes[index];
        while (true)
        {
            try
            {
                final int status = process.waitFor();
                record(index, status, System.nanoTime());
                return;
            }
            catch (final InterruptedException ignore)
            {
                // only an exit ends the watch
            }
        }
    }

    /**
     * @param action run on the watcher thread after each exit is recorded, e.g. to wake the daemon's agent.
     * @return this.
     */
    public LocalProcesses onExit(final Runnable action)
    {
        this.onExit = action;
        return this;
    }

    /**
     * @return how exits are learned: "pidfd" or "Process.waitFor".
     */
    public String mechanism()
    {
        return mechanism;
    }

    /**
     * @return exits whose status the pidfd watcher read itself, before the JDK's reaper reaped the child; the others
     * waited for the reaper's thread.
     */
    public long statusesFromPidFd()
    {
        return statusesFromPidFd;
    }

    /**
     * @return how the last watcher started was scheduled ("" for the ordinary scheduler as asked).
     */
    public String watcherScheduling()
    {
        return watcherScheduling;
    }

    /**
     * @return how many exits have been reported so far: the duty cycle rescans the slots when it changes.
     */
    public int exitsReported()
    {
        return exitsReported.get();
    }

    /**
     * @param index local index.
     * @return exit status, or {@link #RUNNING}.
     */
    public int exitCode(final int index)
    {
        return (int)exitCodes.get(index);
    }

    /**
     * @param index local index.
     * @return {@code System.nanoTime()} when the exit was reported, 0 while running.
     */
    public long exitedAtNs(final int index)
    {
        return exitedAtNs.get(index);
    }

    /**
     * @param index local index.
     * @return the process's pid.
     */
    public long pid(final int index)
    {
        return processes[index].pid();
    }

    /**
     * @return K.
     */
    public int count()
    {
        return processes.length;
    }

    /**
     * Kill what still runs (the daemon is going away, and a node's processes do not outlive it).
     */
    public void close()
    {
        closed = true;
        for (final Process process : processes)
        {
            if (process != null)
            {
                process.destroyForcibly();
            }
        }
        for (final Process process : processes)
        {
            if (process != null)
            {
                try
                {
                    process.waitFor(1, TimeUnit.SECONDS);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
