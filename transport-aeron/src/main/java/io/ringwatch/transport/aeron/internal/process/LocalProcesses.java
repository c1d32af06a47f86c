package io.ringwatch.transport.aeron.internal.process;

import io.ringwatch.nativeconfig.RealtimePriority;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;

/**
 * The application processes a daemon launched ({@code node --exec CMD --procs K}), and how it learns of their exit.
 * For a child of this JVM the JDK's process reaper thread sits in {@code waitpid} on it and, once the kernel reaps
 * it, stores the status and wakes {@link Process#waitFor()}: one watcher thread per child waits there, records the
 * status and time, and unparks the daemon's agent ({@link #onExit(Runnable)}), whose next duty cycle picks it up
 * ({@link #exitsReported()}). That is SIGCHLD's moment plus one thread wake-up. Not {@link Process#onExit()}: its
 * completion hops to the common fork-join pool, measured at 5 ms p50 under load; not pidfd: the JDK offers none, and
 * the reaper is already blocked on the child.
 * <p>
 * On a loaded host the watcher's wake-up waits for a core like any thread; given a real-time priority (the daemon's
 * agent's, {@code node --rt-priority}) the watchers run {@code SCHED_FIFO} and go first. The JDK's reaper thread,
 * the hop before, stays in the ordinary class.
 */
public final class LocalProcesses implements AutoCloseable
{
    /** Stored in {@link #exitCode(int)} while the process runs. */
    public static final int RUNNING = Integer.MIN_VALUE;

    private final Process[] processes;
    private final AtomicLongArray exitedAtNs;
    private final AtomicLongArray exitCodes;
    private final AtomicInteger exitsReported = new AtomicInteger();
    private volatile Runnable onExit = () -> {};
    private volatile String watcherScheduling = "";

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
        if (watcherPriority != 0)
        {
            RealtimePriority.validate(watcherPriority);
        }
        final LocalProcesses launched = new LocalProcesses(count);
        try
        {
            for (int i = 0; i < count; i++)
            {
                final ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "exec " + command).inheritIO();
                builder.environment().putAll(environment.apply(i));
                final Process process = builder.start();
                launched.processes[i] = process;
                final int index = i;
                final Thread watcher = new Thread(() ->
                {
                    if (watcherPriority > 0)
                    {
                        launched.watcherScheduling = RealtimePriority.raiseCurrentThread(watcherPriority).toString();
                    }
                    launched.watch(index);
                }, "ringwatch-exit-" + i);
                watcher.setDaemon(true);
                watcher.start();
            }
        }
        catch (final IOException ex)
        {
            launched.close();
            throw new UncheckedIOException("cannot launch '" + command + "'", ex);
        }
        return launched;
    }

    private void watch(final int index)
    {
        final Process process = processes[index];
        while (true)
        {
            try
            {
                final int status = process.waitFor();
                exitedAtNs.set(index, System.nanoTime());
                exitCodes.set(index, status);
                exitsReported.incrementAndGet();
                onExit.run();
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
