package io.ringwatch.perf.live;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.nativeconfig.CpuPinning;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.RingwatchNode;
import io.ringwatch.transport.aeron.ThreadingMode;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.launch.ClusterStart;
import io.ringwatch.transport.aeron.launch.ClusterViews;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.CloseHelper;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The low-latency profile on a host without a spare core per agent: every node in this JVM, their agents taking
 * turns on one busy-spinning thread pinned to the last CPU, talking through the same media driver process and files
 * as {@link ProcessCluster}'s nodes.
 * <p>
 * A crash is that thread no longer running the node's agent: no LEAVE, nothing closed, so its heartbeats stop just
 * as a SIGKILLed process's do while its Aeron client lingers until the driver times it out. It is not a SIGKILL of a
 * process (the low-noise rows measure that); it measures what the profile promises, detection timed by an agent
 * that never sleeps.
 */
public final class SharedThreadCluster implements LiveCluster
{
    private static final int RUN = 0;
    private static final int CRASH = 1;
    private static final int LEAVE = 2;
    private static final int STOPPED = 3;

    /** A leaving node keeps running this long after its LEAVE so the frames leave too. */
    private static final long LEAVE_DRAIN_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final LocalCluster host;
    private final int n;
    private final long graceNs;
    private final int cpu;
    private final boolean jitterFiles;
    private final RingwatchNode[] nodes;
    private final AtomicIntegerArray commands;
    private final String[] stoppedHow;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long startedAtNs;
    private volatile String pinResult = "not started";

    /**
     * @param host driver process, directory and cluster file; its own {@code start()} is never called.
     */
    public SharedThreadCluster(final LocalCluster host)
    {
        this(host, false, Runtime.getRuntime().availableProcessors() - 1);
    }

    /**
     * @param host        driver process, directory and cluster file; its own {@code start()} is never called.
     * @param jitterFiles true to give every node a jitter file (emission error, duty cycles) beside its view file.
     * @param cpu         the core the spinning thread is pinned to.
     */
    public SharedThreadCluster(final LocalCluster host, final boolean jitterFiles, final int cpu)
    {
        this.host = host;
        this.jitterFiles = jitterFiles;
        this.n = host.options().nodes();
        this.graceNs = host.options().graceNs();
        this.cpu = cpu;
        this.nodes = new RingwatchNode[n];
        this.commands = new AtomicIntegerArray(n);
        this.stoppedHow = new String[n];
        this.thread = new Thread(this::spin, "ringwatch-shared-agents");
        thread.setDaemon(true);
    }

    public String hosting()
    {
        return "all agents on one busy-spinning thread in the harness JVM, " + pinResult;
    }

    public void start()
    {
        for (int r = 0; r < n; r++)
        {
            final RingwatchContext ctx = new RingwatchContext()
                .threadingMode(ThreadingMode.UNSTARTED)
                .clusterFile(host.clusterFile().toPath())
                .rank(r)
                .transport(host.options().transport())
                .embeddedDriver(false)
                .aeronDirectoryName(host.aeronDir().getAbsolutePath())
                .startupGraceNs(graceNs)
                // every node boots here, in this process, for the first time: nothing to ask its peers
                .listenFirst(false)
                .jitterFile(jitterFiles);
            if (host.options().authenticated())
            {
                // signed frames, as the node processes of the other rows and a deployment run them
                ctx.authKeyFile(host.keyFile().toPath());
            }
            else
            {
                ctx.authMode(AuthMode.OFF); // as the node processes of an unauthenticated row run (--no-auth)
            }
            nodes[r] = RingwatchNode.launch(ctx);
        }
        thread.start();
    }

    private void spin()
    {
        pinResult = CpuPinning.forThisHost().pinCurrentThread(cpu).toString();
        for (final RingwatchNode node : nodes)
        {
            node.dutyCycleAgent().onStart();  // every grace starts now
        }
        startedAtNs = System.nanoTime();
        final long[] leftAtNs = new long[n];
        while (running)
        {
            for (int r = 0; r < n; r++)
            {
                final int command = commands.get(r);
                if (command == RUN || command == LEAVE)
                {
                    runOnce(r, command, leftAtNs);
                }
            }
            Thread.onSpinWait();
        }
    }

    private void runOnce(final int r, final int command, final long[] leftAtNs)
    {
        final RingwatchNode node = nodes[r];
        try
        {
            if (command == LEAVE && node.state() == NodeState.ACTIVE)
            {
                node.requestLeave();
            }
            node.dutyCycleAgent().doWork();
        }
        catch (final Throwable ex)
        {
            stop(r, "stopped by its agent throwing " + ex);
            return;
        }
        final NodeState state = node.state();
        if (state == NodeState.EXCLUDED)
        {
            stop(r, "fenced itself after being declared dead");
        }
        else if (state == NodeState.LEFT)
        {
            final long now = System.nanoTime();
            if (leftAtNs[r] == 0)
            {
                leftAtNs[r] = now;
            }
            else if (now - leftAtNs[r] > LEAVE_DRAIN_NS)
            {
                stop(r, "left");
            }
        }
    }

    private void stop(final int r, final String how)
    {
        stoppedHow[r] = how;
        commands.set(r, STOPPED);
    }

    public boolean awaitAllUp(final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final ViewSnapshot snapshot = new ViewSnapshot();
        // booted through joins, M holds every rank only once the view has settled (see ClusterStart)
        final long settleNs = ClusterStart.settleAfterJoinsNs(n, host.options().suspicionTimeoutNs());
        long allUpSinceNs = 0;
        while (System.nanoTime() - deadline < 0)
        {
            int up = 0;
            for (int r = 0; r < n; r++)
            {
                final String how = stopped(r);
                if (how != null)
                {
                    throw new IllegalStateException("node " + r + " " + how + " during start");
                }
                if (ClusterViews.isUp(host.tryView(r, snapshot)))
                {
                    up++;
                }
            }
            final long started = startedAtNs;
            final long nowNs = System.nanoTime();
            allUpSinceNs = up < n ? 0 : allUpSinceNs == 0 ? nowNs : allUpSinceNs;
            if (up == n && started != 0 && nowNs - allUpSinceNs >= settleNs &&
                nowNs - (started + graceNs + LocalCluster.ARM_MARGIN_NS) >= 0)
            {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    public long kill(final int rank)
    {
        final long now = System.nanoTime();
        commands.set(rank, CRASH);
        return now;
    }

    public long terminate(final int rank)
    {
        final long now = System.nanoTime();
        commands.set(rank, LEAVE);
        return now;
    }

    public ViewSnapshot view(final int rank)
    {
        return host.view(rank);
    }

    public String stopped(final int rank)
    {
        final int command = commands.get(rank);
        if (command == CRASH)
        {
            return "crashed";
        }
        return command == STOPPED ? stoppedHow[rank] : null;
    }

    public void close()
    {
        running = false;
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        CloseHelper.quietCloseAll(nodes);
        host.close();
    }
}
