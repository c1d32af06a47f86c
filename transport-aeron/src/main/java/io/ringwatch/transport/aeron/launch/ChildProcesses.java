package io.ringwatch.transport.aeron.launch;

import java.util.concurrent.TimeUnit;

/**
 * Ending a JVM this host launched (the cluster's driver, a benchmark's load worker) once it was asked to go.
 */
public final class ChildProcesses
{
    private static final long GRACE_SECONDS = 5;

    private ChildProcesses()
    {
    }

    /**
     * Give a process that was asked to exit (SIGTERM, a quit command) 5 s to do so, then SIGKILL it and wait up to
     * 5 s more. Interrupted: SIGKILL at once and keep the interrupt.
     *
     * @param process the process asked to exit.
     */
    public static void awaitExitOrKill(final Process process)
    {
        try
        {
            if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
