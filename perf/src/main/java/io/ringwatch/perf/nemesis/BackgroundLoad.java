package io.ringwatch.perf.nemesis;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Processes spinning at normal priority for a whole run, free to run on any core: the load an application puts
 * beside the detector, for the soak under load.
 */
final class BackgroundLoad implements AutoCloseable
{
    private final int count;
    private final List<Process> spinners = new ArrayList<>();

    /**
     * @param count spinning processes to start, 0 for none.
     */
    BackgroundLoad(final int count)
    {
        this.count = count;
    }

    /**
     * Starts the spinners.
     *
     * @throws IOException if a process cannot be started (those started are killed on {@link #close()}).
     */
    void start() throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            spinners.add(new ProcessBuilder("bash", "-c", FaultInjector.SPIN)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start());
        }
    }

    /**
     * Kills the spinners and waits for them.
     */
    public void close() throws InterruptedException
    {
        spinners.forEach(Process::destroyForcibly);
        for (final Process p : spinners)
        {
            p.waitFor();
        }
        spinners.clear();
    }
}
