package io.ringwatch.transport.aeron.internal.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The executable's one shutdown hook. A JVM stopped by SIGTERM or SIGINT exits 143 or 130 whatever its threads do;
 * an orderly stop on request is a success, so once the commands' shutdown actions have run (a node's LEAVE, its
 * processes' end) the hook ends the JVM with the code the command reported ({@link #report(int)}, 0 unless told).
 * A shutdown the command started itself ({@link #exiting()} before {@code System.exit}) keeps the command's code.
 */
final class CliShutdown
{
    private static final List<Runnable> ACTIONS = new CopyOnWriteArrayList<>();
    private static final CountDownLatch REPORTED = new CountDownLatch(1);
    private static volatile boolean armed;
    private static volatile boolean exiting;
    private static volatile boolean signalled;
    private static volatile int signalExitCode;
    private static Thread hook;

    private CliShutdown()
    {
    }

    /**
     * @param action what to do at shutdown, after the actions added before it.
     */
    static synchronized void add(final Runnable action)
    {
        if (hook == null)
        {
            hook = new Thread(CliShutdown::run, "ringwatch-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        ACTIONS.add(action);
    }

    /**
     * The executable's main runs: the hook may end the JVM. Elsewhere (a test calling a command) it never does.
     */
    static void arm()
    {
        armed = true;
    }

    /**
     * The command returns its exit code: the shutdown that follows is its own, not a signal's.
     */
    static void exiting()
    {
        exiting = true;
    }

    /**
     * @return true once a signal (SIGTERM, SIGINT, SIGHUP) started the JVM's shutdown.
     */
    static boolean signalled()
    {
        return signalled;
    }

    /**
     * The command has logged how it stopped on the signal.
     *
     * @param exitCode the code to exit with.
     */
    static void report(final int exitCode)
    {
        signalExitCode = exitCode;
        REPORTED.countDown();
    }

    /**
     * @param timeoutMs how long to wait for the command's {@link #report(int)}.
     * @return true if it reported.
     * @throws InterruptedException if interrupted.
     */
    static boolean awaitReport(final long timeoutMs) throws InterruptedException
    {
        return REPORTED.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private static void run()
    {
        signalled = !exiting;
        for (final Runnable action : ACTIONS)
        {
            try
            {
                action.run();
            }
            catch (final RuntimeException ex)
            {
                System.getLogger(CliLogging.ROOT).log(System.Logger.Level.ERROR, "at shutdown", ex);
            }
        }
        if (signalled && armed)
        {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(signalExitCode);
        }
    }
}
