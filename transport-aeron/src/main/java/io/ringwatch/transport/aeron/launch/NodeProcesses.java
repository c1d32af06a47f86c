package io.ringwatch.transport.aeron.launch;

import io.ringwatch.core.config.Durations;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * One {@code ringwatch.jar node} process per rank, held at the start barrier until all are ready, then stopped by
 * signal: SIGKILL for a crash, SIGTERM for a LEAVE, or any signal by name (STOP, CONT).
 */
public final class NodeProcesses
{
    /** Separates what went wrong in a start failure's message from the process log appended to it. */
    public static final String LOG_MARK = "; log: ";

    private static final long READY_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);

    private final LocalCluster.Options options;
    private final ClusterDirectory directory;
    private final IntFunction<File> aeronDirOf;
    private final IntFunction<List<String>> launcherOf;
    private final Process[] processes;
    private final long[] killedAtNs;

    /**
     * @param options    what to launch.
     * @param directory  the cluster file, key, logs and start barrier.
     * @param aeronDirOf the Aeron directory (the driver) of each rank.
     * @param launcherOf what each rank's JVM command runs under, e.g. {@code ip netns exec NAME}; empty for none.
     */
    NodeProcesses(
        final LocalCluster.Options options,
        final ClusterDirectory directory,
        final IntFunction<File> aeronDirOf,
        final IntFunction<List<String>> launcherOf)
    {
        this.options = options;
        this.directory = directory;
        this.aeronDirOf = aeronDirOf;
        this.launcherOf = launcherOf;
        this.processes = new Process[options.nodes()];
        this.killedAtNs = new long[options.nodes()];
    }

    /**
     * Start every node; each gets ready and waits for {@link ClusterDirectory#startFile()}.
     */
    void launchAll()
    {
        for (int r = 0; r < processes.length; r++)
        {
            processes[r] = launch(r);
        }
    }

    /**
     * Start a stopped node again with the command line it was first started with, as a supervisor (the shipped unit
     * file) does: the node finds its incarnation file and joins the running cluster under a new incarnation, whether it
     * was a seed or not; nobody adds {@code --join}.
     *
     * @param rank a node whose process has exited or been killed.
     * @throws InterruptedException if interrupted while the old process is reaped.
     */
    void relaunch(final int rank) throws InterruptedException
    {
        if (!processes[rank].waitFor(10, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("node " + rank + " still runs; cannot relaunch it");
        }
        ClusterDirectory.append(directory.nodeLog(rank), "--- relaunched (exit " + processes[rank].exitValue() +
            ") at nanoTime " + System.nanoTime() + " ---\n");
        processes[rank] = launch(rank);
    }

    private Process launch(final int rank)
    {
        final List<String> args = new ArrayList<>(List.of(
            "node",
            "--cluster", directory.clusterFile().getAbsolutePath(),
            "--rank", Integer.toString(rank),
            "--transport", options.transport().name().toLowerCase(Locale.ROOT),
            "--driver", "external",
            "--profile", options.profile(),
            "--startup-grace", Durations.format(options.graceNs()),
            // the barrier file exists once the cluster has started: a restart passes it at once
            "--start-after", directory.startFile().getAbsolutePath()));
        if (options.authenticated())
        {
            args.add("--key-file");
            args.add(directory.keyFile().getAbsolutePath());
        }
        else
        {
            args.add("--no-auth");
        }
        if (options.realtimePriority() > 0)
        {
            args.add("--rt-priority");
            args.add(Integer.toString(options.realtimePriority()));
        }
        args.addAll(options.nodeArgs());
        final List<String> cmd = new ArrayList<>(launcherOf.apply(rank));
        cmd.addAll(RingwatchJvm.command(options, options.rankJvmOptions(rank), aeronDirOf.apply(rank), args));
        return RingwatchJvm.start(cmd, directory.nodeLog(rank), "node " + rank, options.inheritOutput(), true);
    }

    /**
     * @param rank a launched node.
     * @throws IllegalStateException if it or any other launched node exits, or it has not created its ready file
     *                               within 120 s.
     * @throws InterruptedException  if interrupted.
     */
    void awaitReady(final int rank) throws InterruptedException
    {
        final long deadline = System.nanoTime() + READY_TIMEOUT_NS;
        while (!directory.readyFile(rank).exists())
        {
            // a node is ready once its peers' subscriptions exist: one that died at start (a port taken, say) holds
            // every other node back, so name it rather than the node that waits for it
            for (int r = 0; r < processes.length; r++)
            {
                requireAlive(r, "during start");
            }
            if (System.nanoTime() - deadline >= 0)
            {
                throw new IllegalStateException("node " + rank + " not ready within 120s" + LOG_MARK + log(rank));
            }
            Thread.sleep(5);
        }
    }

    /**
     * @param rank a launched node.
     * @param when when it was expected to run, for the message.
     * @throws IllegalStateException if it has exited; the message holds its exit code and log.
     */
    void requireAlive(final int rank, final String when)
    {
        if (!processes[rank].isAlive())
        {
            throw new IllegalStateException("node " + rank + " exited with " + processes[rank].exitValue() + " " +
                when + LOG_MARK + log(rank));
        }
    }

    /**
     * @param rank a launched node.
     * @return true while its process runs.
     */
    public boolean isAlive(final int rank)
    {
        return processes[rank].isAlive();
    }

    /**
     * SIGKILL a node.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long kill(final int rank)
    {
        final long nowNs = System.nanoTime();
        processes[rank].destroyForcibly();
        killedAtNs[rank] = nowNs;
        return nowNs;
    }

    /**
     * SIGTERM a node: its shutdown hook sends LEAVE, so the others learn of it without waiting δ.
     *
     * @param rank node.
     * @return {@code System.nanoTime()} just before the signal.
     */
    public long terminate(final int rank)
    {
        final long nowNs = System.nanoTime();
        processes[rank].destroy();
        killedAtNs[rank] = nowNs;
        return nowNs;
    }

    /**
     * Send a signal to a node by pid (e.g. STOP, CONT).
     *
     * @param rank   node.
     * @param signal signal name without SIG.
     * @return {@code System.nanoTime()} just before the signal.
     * @throws IOException          if {@code kill} fails.
     * @throws InterruptedException if interrupted while {@code kill} runs.
     */
    public long signal(final int rank, final String signal) throws IOException, InterruptedException
    {
        final long nowNs = System.nanoTime();
        final long pid = processes[rank].pid();
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0)
        {
            throw new IOException("kill -" + signal + " " + pid + " failed");
        }
        return nowNs;
    }

    /**
     * @param rank node.
     * @return its process.
     */
    public Process process(final int rank)
    {
        return processes[rank];
    }

    /**
     * @param rank node.
     * @return when it was killed by {@link #kill(int)} or terminated by {@link #terminate(int)}, 0 if not.
     */
    public long killedAtNs(final int rank)
    {
        return killedAtNs[rank];
    }

    /**
     * @param rank node.
     * @return the node's output so far.
     */
    public String log(final int rank)
    {
        return ClusterDirectory.read(directory.nodeLog(rank));
    }

    /**
     * SIGKILL every node still running and wait up to 5 s for each to go; nodes never launched are skipped.
     */
    void destroyAll()
    {
        for (final Process p : processes)
        {
            if (p != null && p.isAlive())
            {
                p.destroyForcibly();
            }
        }
        for (final Process p : processes)
        {
            if (p != null)
            {
                try
                {
                    p.waitFor(5, TimeUnit.SECONDS);
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
