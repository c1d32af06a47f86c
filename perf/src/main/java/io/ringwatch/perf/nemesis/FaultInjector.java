package io.ringwatch.perf.nemesis;

import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.launch.NetnsHosts;
import io.ringwatch.transport.aeron.launch.ShellSpan;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The seeded nemesis: deals faults from the kinds it was given ({@link FaultDeck}), one after another with a random gap, and with
 * overlaps allowed starts the next one while others still run (one network fault at a time: the switch has one
 * state). Every fault is logged with its times on the host's monotonic clock, as the nodes' journals stamp theirs;
 * the durations of pauses and cuts are measured by the one shell that does both edges, so process start-up on a
 * loaded host does not stretch them.
 */
final class FaultInjector
{
    static final String SPIN = "while :; do :; done";

    private final LaunchedCluster cluster;
    /** The hosts, for network and driver faults; null on one host, which takes node faults only. */
    private final NetnsCluster netns;
    private final List<FaultKind> kinds;
    private final boolean overlaps;
    private final long deltaNs;
    private final Random random;
    private final FaultDeck deck;
    private final PrintStream err;
    private final List<Fault> faults = Collections.synchronizedList(new ArrayList<>());
    private final List<Process> hogs = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> stopped = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService pool = Executors.newCachedThreadPool(r ->
    {
        final Thread t = new Thread(r, "nemesis-fault");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean networkBusy;
    private int nextId = 1;

    FaultInjector(final LaunchedCluster cluster, final NetnsCluster netns, final List<FaultKind> kinds,
        final boolean overlaps, final long deltaNs, final long seed, final PrintStream err)
    {
        this.cluster = cluster;
        this.netns = netns;
        this.kinds = kinds;
        this.overlaps = overlaps;
        this.deltaNs = deltaNs;
        this.random = new Random(seed);
        this.deck = new FaultDeck(kinds, random);
        this.err = err;
    }

    /**
     * Inject faults until {@code untilNs}, then wait for those still running, undo every network fault and resume
     * every paused node.
     *
     * @param untilNs when to stop starting faults.
     * @return when the last fault was undone.
     * @throws InterruptedException if interrupted.
     */
    long run(final long untilNs) throws InterruptedException
    {
        final List<Future<?>> running = new ArrayList<>();
        while (!kinds.isEmpty() && System.nanoTime() < untilNs)
        {
            final FaultKind kind = deck.deal(networkBusy);
            if (kind == null)
            {
                Thread.sleep(10);
                continue;
            }
            final int id = nextId++;
            final long seed = random.nextLong();
            if (kind.scope() == FaultKind.Scope.NETWORK)
            {
                networkBusy = true;
            }
            final Future<?> future = pool.submit(() -> inject(id, kind, new Random(seed)));
            running.add(future);
            if (!overlaps || random.nextInt(3) != 0)
            {
                await(future);
            }
            // a gap of 1 to 4 δ, at least 200 ms: time for a rejoin to start before the next blow
            Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(deltaNs) * (1 + random.nextInt(4))));
        }
        for (final Future<?> f : running)
        {
            await(f);
        }
        pool.shutdown();
        if (netns != null)
        {
            netns.hosts().heal();
        }
        for (final Long pid : List.copyOf(stopped))
        {
            signal(pid, "CONT");
        }
        hogs.forEach(Process::destroyForcibly);
        return faults.stream().mapToLong(Fault::endNs).max().orElse(System.nanoTime());
    }

    private static void await(final Future<?> future) throws InterruptedException
    {
        try
        {
            future.get();
        }
        catch (final ExecutionException ex)
        {
            throw new IllegalStateException("a fault failed: " + ex.getCause(), ex.getCause());
        }
    }

    /**
     * @return the faults injected so far.
     */
    List<Fault> faults()
    {
        synchronized (faults)
        {
            return new ArrayList<>(faults);
        }
    }

    private void inject(final int id, final FaultKind kind, final Random random)
    {
        try
        {
            final Fault fault = switch (kind)
            {
                case KILL -> kill(id, kind, random, 1);
                case RESTART_STORM -> kill(id, kind, random, 2 + random.nextInt(2));
                case PAUSE_SHORT -> pause(id, kind, random, deltaNs / 4);
                case PAUSE_LONG -> pause(id, kind, random, deltaNs * (3 + random.nextInt(4)));
                case CUT_SHORT -> cut(id, kind, random, deltaNs / 4);
                case CUT_LONG -> cut(id, kind, random, longFaultNs(random));
                case SPLIT_EVEN -> split(id, kind, random, true);
                case SPLIT_UNEVEN -> split(id, kind, random, false);
                case DEAF -> deaf(id, random);
                case KILL_DRIVER -> killDriver(id, random);
                case CPU_HOG -> hog(id, random);
            };
            if (fault != null)
            {
                faults.add(fault);
                err.println("nemesis: " + fault);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            if (kind.scope() == FaultKind.Scope.NETWORK)
            {
                networkBusy = false;
            }
        }
    }

    /**
     * 4 to 12 δ: far past a declaration (δ, then a probe of 2δ) and the fence, and short enough for every kind to be
     * drawn 100 times in 30 minutes with one network fault at a time.
     */
    private long longFaultNs(final Random random)
    {
        return deltaNs * (4 + random.nextInt(9));
    }

    private List<Integer> runningRanks()
    {
        final List<Integer> ranks = new ArrayList<>();
        for (int r = 0; r < cluster.size(); r++)
        {
            if (cluster.process(r).isAlive())
            {
                ranks.add(r);
            }
        }
        return ranks;
    }

    private Fault kill(final int id, final FaultKind kind, final Random random, final int count)
    {
        final List<Integer> ranks = runningRanks();
        Collections.shuffle(ranks, random);
        final List<Integer> victims = ranks.subList(0, Math.min(count, ranks.size()));
        if (victims.isEmpty())
        {
            return null;
        }
        long startNs = Long.MAX_VALUE;
        for (final int r : victims)
        {
            startNs = Math.min(startNs, cluster.kill(r));
        }
        return new Fault(id, kind, startNs, System.nanoTime(), new int[0],
            victims.stream().mapToInt(Integer::intValue).toArray(), "");
    }

    private Fault pause(final int id, final FaultKind kind, final Random random, final long forNs)
        throws IOException, InterruptedException
    {
        final List<Integer> ranks = runningRanks();
        if (ranks.isEmpty())
        {
            return null;
        }
        final int rank = ranks.get(random.nextInt(ranks.size()));
        final long pid = cluster.process(rank).pid();
        stopped.add(pid);
        // both edges from one shell: builtin kill and the shell's own clock, no process start between them. A node
        // gone before the pause (another fault, or its own stop) is not paused; one gone during it was paused until
        // then (a 30-minute run once failed here on "kill: No such process" from an overlap)
        final ShellSpan times = timed(List.of("bash", "-c", "kill -STOP " + pid + " 2>/dev/null || exit 0; " +
            "t0=$EPOCHREALTIME; sleep " + seconds(forNs) + "; kill -CONT " + pid + " 2>/dev/null; " +
            "t1=$EPOCHREALTIME; echo \"$t0 $t1\""));
        stopped.remove(pid);
        if (times == null)
        {
            return null;
        }
        return new Fault(id, kind, times.startNs(), times.endNs(), new int[0], new int[]{rank}, "pid " + pid);
    }

    private Fault cut(final int id, final FaultKind kind, final Random random, final long forNs)
    {
        final NetnsHosts hosts = netns.hosts();
        final int host = random.nextInt(cluster.hostCount());
        final ShellSpan span = hosts.isolateFor(host, TimeUnit.NANOSECONDS.toMillis(forNs));
        return new Fault(id, kind, span.startNs(), span.endNs(), new int[]{host}, new int[0], "");
    }

    private Fault split(final int id, final FaultKind kind, final Random random, final boolean even)
    {
        final List<Integer> order = new ArrayList<>();
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            order.add(h);
        }
        Collections.shuffle(order, random);
        final int smaller = even ? order.size() / 2 : 1 + random.nextInt(Math.max(1, (order.size() - 1) / 2));
        final List<Integer> sideA = order.subList(0, smaller);
        final List<Integer> sideB = order.subList(smaller, order.size());
        final long forNs = longFaultNs(random);
        final ShellSpan span = netns.hosts().partitionFor(TimeUnit.NANOSECONDS.toMillis(forNs),
            sideA.stream().mapToInt(Integer::intValue).toArray(), sideB.stream().mapToInt(Integer::intValue).toArray());
        return new Fault(id, kind, span.startNs(), span.endNs(),
            sideA.stream().mapToInt(Integer::intValue).toArray(), new int[0], "sides " + sideA + " | " + sideB);
    }

    private Fault deaf(final int id, final Random random) throws InterruptedException
    {
        final NetnsHosts hosts = netns.hosts();
        final int host = random.nextInt(cluster.hostCount());
        final long startNs = hosts.deafen(host);
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(longFaultNs(random)));
        hosts.undeafen(host);
        return new Fault(id, FaultKind.DEAF, startNs, System.nanoTime(), new int[]{host}, new int[0], "");
    }

    private Fault killDriver(final int id, final Random random)
    {
        if (netns == null)
        {
            return null;
        }
        // a host whose driver runs (a driver still down from the last kill would make this fault a no-op)
        final List<Integer> up = new ArrayList<>();
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            if (netns.driverProcess(h).isAlive())
            {
                up.add(h);
            }
        }
        if (up.isEmpty())
        {
            return null;
        }
        final int host = up.get(random.nextInt(up.size()));
        final long startNs = netns.killDriver(host);
        return new Fault(id, FaultKind.KILL_DRIVER, startNs, startNs, new int[]{host}, new int[0], "");
    }

    private Fault hog(final int id, final Random random) throws IOException, InterruptedException
    {
        final int host = random.nextInt(cluster.hostCount());
        final int cpu = random.nextInt(Runtime.getRuntime().availableProcessors());
        final List<String> cmd = new ArrayList<>(cluster.launcher(host));
        cmd.addAll(List.of("taskset", "-c", Integer.toString(cpu), "bash", "-c", SPIN));
        final Process hog = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        hogs.add(hog);
        final long startNs = System.nanoTime();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(longFaultNs(random)));
        hog.destroyForcibly();
        hog.waitFor();
        hogs.remove(hog);
        return new Fault(id, FaultKind.CPU_HOG, startNs, System.nanoTime(), new int[]{host}, new int[0],
            "spinning on cpu " + cpu);
    }

    private static ShellSpan timed(final List<String> cmd) throws IOException, InterruptedException
    {
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // EPOCHREALTIME with a decimal point
        pb.environment().put("LC_ALL", "C");
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        if (out.isEmpty() && p.exitValue() == 0)
        {
            // the command found nothing to do (its target had gone)
            return null;
        }
        final String[] t = out.split("\\s+");
        if (t.length != 2)
        {
            throw new IOException("timed command failed: " + cmd + ": " + out);
        }
        return ShellSpan.of(t[0], t[1]);
    }

    private static void signal(final long pid, final String signal)
    {
        try
        {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor();
        }
        catch (final IOException | InterruptedException ex)
        {
            // the process is gone, or we are being stopped: nothing to resume
        }
    }

    private static String seconds(final long ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e9);
    }
}
