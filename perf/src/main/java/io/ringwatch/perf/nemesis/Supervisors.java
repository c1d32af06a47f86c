package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import io.ringwatch.transport.aeron.launch.NetnsCluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One supervisor loop per node and per driver, as the shipped systemd units run them: a process that exits is
 * started again {@link #RESTART_DELAY_MS} later with the same command line, unless its exit code is one the unit
 * does not restart ({@code RestartPreventExitStatus}, {@code SuccessExitStatus}, a clean exit). A node waits for its
 * host's driver ({@code Requires=}); a driver is started again once its nodes have stopped, after the nemesis has
 * copied their journals (the driver deletes its directory when it starts). Every process, how it ended and the
 * exceptions in its log are recorded as {@link Life}s; each log is kept under {@code logs/}.
 */
final class Supervisors implements AutoCloseable
{
    /** {@code RestartSec=1s} of the units. */
    static final long RESTART_DELAY_MS = 1000;

    /** Exit codes the node unit does not restart: 0 and 143 succeed, 5 and 78 are {@code RestartPreventExitStatus}. */
    static final Set<Integer> NOT_RESTARTED = Set.of(0, 143, 5, 78);

    /** What no node or driver should print: an exception or error class, or a stack frame. */
    private static final Pattern PROBLEM = Pattern.compile(
        "(?m)^.*(\\b[\\w.$]+(Exception|Error)\\b|^\\s+at [\\w.$]+\\().*$");

    private final LaunchedCluster cluster;
    /** The hosts' drivers, supervised too; null on one host, whose driver is not restarted. */
    private final NetnsCluster netns;
    private final JournalCollector journals;
    private final Path logDir;
    private final PrintStream err;
    private final List<Life> lives = new ArrayList<>();
    private final List<Life> drivers = new ArrayList<>();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> threads = new ArrayList<>();
    private final long[] lifeStartNs;
    private final long[] driverStartNs;
    // how much of each rank's and host's log earlier lives wrote: a relaunched process appends to the same file
    private final int[] nodeLogSeen;
    private final int[] driverLogSeen;
    private final boolean[] driverUp;
    private volatile boolean stopping;

    Supervisors(final LaunchedCluster cluster, final NetnsCluster netns, final JournalCollector journals,
        final Path logDir, final PrintStream err, final long startNs)
    {
        this.cluster = cluster;
        this.netns = netns;
        this.journals = journals;
        this.logDir = logDir;
        this.err = err;
        this.lifeStartNs = new long[cluster.size()];
        this.driverStartNs = new long[cluster.hostCount()];
        this.nodeLogSeen = new int[cluster.size()];
        this.driverLogSeen = new int[cluster.hostCount()];
        this.driverUp = new boolean[cluster.hostCount()];
        Arrays.fill(lifeStartNs, startNs);
        Arrays.fill(driverStartNs, startNs);
        Arrays.fill(driverUp, true);
    }

    /**
     * Watch every node and driver from now on.
     */
    void start()
    {
        for (int r = 0; r < cluster.size(); r++)
        {
            final int rank = r;
            threads.add(daemon("supervisor of rank " + r, () -> superviseNode(rank)));
        }
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            final int host = h;
            if (netns != null)
            {
                threads.add(daemon("supervisor of the driver of host " + h, () -> superviseDriver(host)));
            }
        }
    }

    private interface Loop
    {
        void run() throws InterruptedException;
    }

    private Thread daemon(final String name, final Loop loop)
    {
        final Thread t = new Thread(() ->
        {
            try
            {
                loop.run();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final RuntimeException ex)
            {
                if (!stopping)
                {
                    err.println("nemesis: " + name + " failed: " + ex);
                    failures.add("harness: the " + name + " failed, so the run is not a valid test: " + ex);
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void superviseNode(final int rank) throws InterruptedException
    {
        while (!stopping)
        {
            final Process process = cluster.process(rank);
            final int exit = process.waitFor();
            final long endNs = System.nanoTime();
            final String problems = keepLog("node-" + rank + "-pid" + process.pid() + ".log",
                ownPart(nodeLogSeen, rank, cluster.log(rank)));
            record(lives, new Life(rank, process.pid(), lifeStartNs[rank], endNs, exit, problems));
            if (stopping)
            {
                return;
            }
            if (NOT_RESTARTED.contains(exit))
            {
                err.printf("nemesis: rank %d exited %d: not restarted (as its unit would not)%n", rank, exit);
                return;
            }
            Thread.sleep(RESTART_DELAY_MS);
            final int host = cluster.hostOf(rank);
            while (!stopping && !driverRunning(host))
            {
                Thread.sleep(50);
            }
            if (stopping)
            {
                return;
            }
            lifeStartNs[rank] = cluster.restart(rank);
        }
    }

    private synchronized boolean driverRunning(final int host)
    {
        return driverUp[host] && (netns == null || netns.driverProcess(host).isAlive());
    }

    private void superviseDriver(final int host) throws InterruptedException
    {
        while (!stopping)
        {
            final Process process = netns.driverProcess(host);
            final int exit = process.waitFor();
            final long endNs = System.nanoTime();
            if (stopping)
            {
                return;
            }
            synchronized (this)
            {
                driverUp[host] = false;
            }
            recordDriverLife(host, process, endNs, exit);
            // its nodes stop on the loss; their journals go when the new driver clears the directory
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!stopping && nodesOfHostRunning(host) && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(50);
            }
            journals.harvest(host);
            Thread.sleep(RESTART_DELAY_MS);
            if (stopping)
            {
                return;
            }
            if (!startDriver(host))
            {
                return;
            }
            synchronized (this)
            {
                driverUp[host] = true;
            }
        }
    }

    /**
     * Start the host's driver again, as often as it takes: the nemesis may kill a driver while it starts, and a unit
     * restarts a driver that failed its start. A supervisor that gave up here left a host without a driver for the
     * rest of a 30-minute run (2026-11-28, third run): its nodes never came back.
     *
     * @return false if the run is stopping.
     */
    private boolean startDriver(final int host) throws InterruptedException
    {
        while (!stopping)
        {
            driverStartNs[host] = System.nanoTime();
            try
            {
                netns.restartDriver(host);
                return true;
            }
            catch (final IllegalStateException ex)
            {
                final Process failed = netns.driverProcess(host);
                failed.destroyForcibly();
                final int exit = failed.waitFor();
                recordDriverLife(host, failed, System.nanoTime(), exit);
                err.printf("nemesis: the driver of host %d did not start (exit %d): starting it again%n", host, exit);
                Thread.sleep(RESTART_DELAY_MS);
            }
        }
        return false;
    }

    /** One life of a host's driver, with its part of the driver's log kept beside it. */
    private void recordDriverLife(final int host, final Process driver, final long endNs, final int exit)
    {
        record(drivers, new Life(host, driver.pid(), driverStartNs[host], endNs, exit,
            keepLog("driver-h" + host + "-pid" + driver.pid() + ".log", ownPart(driverLogSeen, host,
            netns.driverLog(host)))));
    }

    private boolean nodesOfHostRunning(final int host)
    {
        for (int r = 0; r < cluster.size(); r++)
        {
            if (cluster.hostOf(r) == host && cluster.process(r).isAlive())
            {
                return true;
            }
        }
        return false;
    }

    private void record(final List<Life> into, final Life life)
    {
        synchronized (into)
        {
            into.add(life);
        }
    }

    /**
     * @return what the process that just ended wrote: the log after what earlier lives of the same rank or host wrote
     * (the whole log if it was started afresh); each line is judged with the life that wrote it.
     */
    private static String ownPart(final int[] seen, final int index, final String log)
    {
        synchronized (seen)
        {
            final int from = log.length() >= seen[index] ? seen[index] : 0;
            seen[index] = log.length();
            return log.substring(from);
        }
    }

    private String keepLog(final String name, final String log)
    {
        try
        {
            Files.writeString(logDir.resolve(name), log, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            err.println("nemesis: cannot keep " + name + ": " + ex.getMessage());
        }
        return problems(log);
    }

    /**
     * @param log a process's output.
     * @return its lines that name an exception or error or are stack frames, at most three, or "".
     */
    static String problems(final String log)
    {
        final Matcher m = PROBLEM.matcher(log);
        final List<String> lines = new ArrayList<>();
        while (m.find() && lines.size() < 3)
        {
            lines.add(m.group().trim());
        }
        return String.join(" | ", lines);
    }

    /**
     * Stop restarting anything; record every process still running as running at the end, with its log's problems.
     *
     * @return the node lives, ended and running.
     */
    List<Life> stop()
    {
        stopping = true;
        threads.forEach(Thread::interrupt);
        for (int r = 0; r < cluster.size(); r++)
        {
            final Process p = cluster.process(r);
            if (p.isAlive())
            {
                record(lives, new Life(r, p.pid(), lifeStartNs[r], Long.MAX_VALUE, -1,
                    keepLog("node-" + r + "-pid" + p.pid() + ".log",
                    ownPart(nodeLogSeen, r, cluster.log(r)))));
            }
        }
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            final Process d = netns == null ? null : netns.driverProcess(h);
            if (d != null && d.isAlive())
            {
                recordDriverLife(h, d, Long.MAX_VALUE, -1);
            }
        }
        synchronized (lives)
        {
            return new ArrayList<>(lives);
        }
    }

    /**
     * @return a line for every supervisor that failed: the run is then not a valid test.
     */
    List<String> failures()
    {
        synchronized (failures)
        {
            return new ArrayList<>(failures);
        }
    }

    /**
     * @return the driver lives.
     */
    List<Life> drivers()
    {
        synchronized (drivers)
        {
            return new ArrayList<>(drivers);
        }
    }

    public void close()
    {
        stopping = true;
        threads.forEach(Thread::interrupt);
    }
}
