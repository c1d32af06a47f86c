package io.ringwatch.transport.aeron.internal.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;

/**
 * The application processes a daemon launched ({@code node --exec CMD --procs K}), and how it learns of their exit:
 * {@link ProcessHandle#onExit()}. For a child of this JVM the JDK's process reaper thread sits in {@code waitpid} on
 * it, so the completion runs as soon as the kernel reaps the child, the same moment a SIGCHLD handler would see it;
 * the callback only stores the status and time, and the daemon's duty cycle picks them up
 * ({@link #exitsReported()}). No pidfd: the JDK offers none, and the reaper is already blocked on the child.
 */
public final class LocalProcesses implements AutoCloseable
{
    /** Stored in {@link #exitCode(int)} while the process runs. */
    public static final int RUNNING = Integer.MIN_VALUE;

    private final Process[] processes;
    private final AtomicLongArray exitedAtNs;
    private final AtomicLongArray exitCodes;
    private final AtomicInteger exitsReported = new AtomicInteger();

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
                process.onExit().thenAccept(p ->
                {
                    final long atNs = System.nanoTime();
                    launched.exitedAtNs.set(index, atNs);
                    launched.exitCodes.set(index, p.exitValue());
                    launched.exitsReported.incrementAndGet();
                });
            }
        }
        catch (final IOException ex)
        {
            launched.close();
            throw new UncheckedIOException("cannot launch '" + command + "'", ex);
        }
        return launched;
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
