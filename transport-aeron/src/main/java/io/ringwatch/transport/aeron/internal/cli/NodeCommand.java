package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.codec.ProcessFailureFlyweight;
import io.ringwatch.core.config.Durations;
import io.ringwatch.core.protocol.BootPlan;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.RingwatchNode;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.internal.HelloExchange;
import io.ringwatch.transport.aeron.internal.JitWarmup;
import io.ringwatch.transport.aeron.internal.MetricsEndpoint;
import io.ringwatch.transport.aeron.internal.NodeCounters;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.StartBarrier;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code node}: run one node until it is declared dead (exit {@value RingwatchConfiguration#EXIT_FENCED}) or told
 * to stop (SIGTERM/SIGINT: graceful LEAVE, exit 0). Membership events are logged from the view file by the main
 * thread, so the agent thread never formats or prints; everything goes through {@link System.Logger}
 * {@value #LOGGER}.
 */
final class NodeCommand
{
    static final String LOGGER = "io.ringwatch.node";
    private static final System.Logger LOG = System.getLogger(LOGGER);
    // The main thread logs membership changes from the view file; a stop wakes it at once (the agent unparks it), so
    // the poll only bounds how late a death is logged and a key rotation is seen. At 50 ms it was 20 of the wake-ups
    // the noise benchmark counted on the application's core at η = 100 ms (49 in all); at 250 ms it is 4.
    private static final long LOG_POLL_NS = TimeUnit.MILLISECONDS.toNanos(250);
    // how long a signal's shutdown waits for the main thread to log the stop: several polls
    private static final long REPORT_TIMEOUT_MS = 2000;

    private NodeCommand()
    {
    }

    static int run(final String[] argv) throws InterruptedException
    {
        final Args args = new Args(argv, 1, "--join", "--no-auth");
        if (!args.isSet("--cluster") || !args.isSet("--rank"))
        {
            throw new UsageException("--cluster FILE and --rank R are required");
        }
        final Path clusterFile = Path.of(args.string("--cluster", null));
        final RingwatchContext ctx = new RingwatchContext()
            .clusterFile(clusterFile)
            .rank(args.intValue("--rank", -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
        if (args.isSet("--transport"))
        {
            ctx.transport(TransportMode.parse(args.string("--transport", null)));
        }
        if (args.isSet("--key-file"))
        {
            ctx.authKeyFile(Path.of(args.string("--key-file", null)));
        }
        if (args.isSet("--driver"))
        {
            final String driver = args.string("--driver", null);
            if (!"embedded".equals(driver) && !"external".equals(driver))
            {
                throw new UsageException("--driver must be embedded or external: " + driver);
            }
            ctx.embeddedDriver("embedded".equals(driver));
        }
        if (args.isSet("--aeron-dir"))
        {
            ctx.aeronDirectoryName(args.string("--aeron-dir", null));
        }
        if (args.isSet("--cpu"))
        {
            ctx.cpu(args.intValue("--cpu", -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
        }
        ctx.heartbeatPeriodNs(args.durationNs(Args.HEARTBEAT_PERIOD, -1));
        ctx.suspicionTimeoutNs(args.durationNs(Args.SUSPICION_TIMEOUT, -1));
        if (args.isSet(Args.STARTUP_GRACE))
        {
            ctx.startupGraceNs(args.durationNs(Args.STARTUP_GRACE, 0));
        }
        if (args.isSet("--seeds"))
        {
            ctx.seeds(args.intValue("--seeds", -1, 1, Integer.MAX_VALUE));
        }
        if (args.isSet("--rt-priority"))
        {
            ctx.realtimePriority(args.intValue("--rt-priority", 0, Integer.MIN_VALUE, Integer.MAX_VALUE));
        }
        final String profileName = args.string("--profile", "low-noise");
        final Path startAfter = args.isSet("--start-after") ? Path.of(args.string("--start-after", null)) : null;
        final boolean join = args.switchOn("--join");
        final boolean noAuth = args.switchOn("--no-auth");
        final int procs = args.intValue(Args.PROCS_PER_NODE, 0, 0, ProcessFailureFlyweight.MAX_PROCESSES);
        final String jobFile = args.string("--job", null);
        final String exec = args.string("--exec", null);
        final long processTimeoutNs = args.durationNs("--process-timeout", ProcessLevels.PROCESS_TIMEOUT_DEFAULT_NS);
        final int metricsPort = args.intValue("--metrics-port", -1, 0, 65535);
        final String metricsBind = args.string("--metrics-bind", "127.0.0.1");
        if (procs > 0 && jobFile != null)
        {
            throw new UsageException("give --procs-per-node K (K processes on every node) or --job FILE, not both");
        }
        if (exec != null && procs == 0 && jobFile == null)
        {
            throw new UsageException("--exec needs --procs-per-node K or --job FILE");
        }
        args.finish();
        final boolean processLevel = procs > 0 || jobFile != null;
        if (processLevel)
        {
            ctx.jobLayout(ProcessLevels.layout(clusterFile, procs, jobFile));
        }
        ctx.join(join);
        // fail closed: a node without a key runs only when told to run without authentication
        final String authProperty = RingwatchConfiguration.auth();
        ctx.authMode(AuthMode.resolveExplicit(
            noAuth ? AuthMode.OFF : authProperty == null ? null : AuthMode.parse(authProperty), ctx.authKeyFile()));
        final TuningProfile profile = TuningProfile.fromName(profileName);
        ctx.profile(profile);
        final Path go = startAfter;
        ctx.startGate(built ->
        {
            // from here on SIGTERM leaves (if it can) and closes the node, also while it waits at the barrier
            CliShutdown.add(shutdownAction(built));
            if (processLevel)
            {
                // before the barrier: launching K JVMs is the noisiest thing a host does, so it happens before anyone
                // is judged, and this node says it is ready only once its processes have attached
                ProcessLevels.awaitAttached(built, ProcessLevels.attach(built, exec, processTimeoutNs),
                    TimeUnit.MINUTES.toMillis(2));
            }
            if (go != null)
            {
                // the wait at the barrier is free time: compile the hot paths now, not once judging starts (on a
                // thread of its own, as the Aeron client must still be serviced meanwhile)
                final JitWarmup warmup = JitWarmup.start(built.context().protocolSettings());
                LOG.log(Level.INFO, built.holdUntil(warmup::done, TimeUnit.MINUTES.toMillis(2)) ?
                    "warm-up " + TimeUnit.NANOSECONDS.toMillis(warmup.tookNs()) + " ms" :
                    "warm-up not over within 2 minutes; going on without it");
                // a launcher holds joiners too: their JVMs then start before the seeds watch each other
                holdAtBarrier(built, built.context().rank(), go);
            }
        });

        final RingwatchNode node = RingwatchNode.launch(ctx);
        // opt-in, on a thread of its own that reads the CnC file: the agent never serves a scrape
        final MetricsEndpoint metrics = metricsPort < 0 ? null : MetricsEndpoint.start(
            new InetSocketAddress(metricsBind, metricsPort), ctx.aeronDirectoryName(), ctx.cluster().clusterId(),
            ctx.rank());
        if (metrics != null)
        {
            LOG.log(Level.INFO, "metrics: http://" + metrics.address().getHostString() + ":" +
                metrics.address().getPort() + "/metrics");
        }

        LOG.log(Level.INFO, "node rank=" + ctx.rank() + " cluster=" + ctx.cluster().clusterId() + " n=" +
            ctx.cluster().size() + " transport=" + ctx.transport().name().toLowerCase() + " profile=" +
            profile.cliName() + " heartbeat-period=" + Durations.format(ctx.protocolSettings().heartbeatPeriodNs()) +
            " suspicion-timeout=" + Durations.format(ctx.protocolSettings().suspicionTimeoutNs()) + " aeron.dir=" +
            ctx.aeronDirectoryName() + " pid=" + ProcessHandle.current().pid() + " incarnation=" + ctx.incarnation() +
            (ctx.join() ? " joining" : ctx.bootPlan() == BootPlan.SEED ? " seed" : ""));
        if (ctx.liveClusterHeardFrom() >= 0)
        {
            LOG.log(Level.INFO, "joining, not booting as a seed: this rank has no incarnation file here, and rank " +
                ctx.liveClusterHeardFrom() + " answered its hello as a member past its startup grace, so the " +
                "cluster is up and this is a restart (a wiped aeron.dir, a new host)");
        }
        else if (ctx.listensFirst())
        {
            LOG.log(Level.INFO, "no incarnation file here and no peer answered as a running member: a first boot");
        }

        try
        {
            return logUntilStopped(node, ctx);
        }
        finally
        {
            CloseHelper.quietClose(metrics);
        }
    }

    private static Runnable shutdownAction(final RingwatchNode node)
    {
        return () ->
        {
            try
            {
                if (CliShutdown.signalled())
                {
                    if (NodeInternals.agent(node).stopped().getCount() > 0 && node.driverLost() == null &&
                        NodeInternals.agent(node).localFault() == null)
                    {
                        node.leave(1000);
                    }
                    // the main thread sees the node stopped and logs how; the exit code is what it reports
                    CliShutdown.awaitReport(REPORT_TIMEOUT_MS);
                }
            }
            catch (final InterruptedException ignore)
            {
                Thread.currentThread().interrupt();
            }
            node.close();
        };
    }

    /**
     * A launcher starting many nodes on one host passes {@code --start-after FILE}: the node gets ready (JVM up, classes
     * loaded, driver connected, publications to its usual peers connected), says so by creating {@code FILE.<rank>.ready}, and starts
     * watching only once FILE exists, so no node is judged while its neighbours' JVMs are still launching.
     */
    private static void holdAtBarrier(final RingwatchNode node, final int rank, final Path go) throws InterruptedException
    {
        final Path ready = StartBarrier.readyFile(go, rank);
        if (Files.exists(go))
        {
            // the cluster started long ago and this is a supervised restart under the same command line: it joins,
            // and a peer whose host is down (its driver restarting, say) must not hold it back for minutes
            LOG.log(Level.INFO, "start barrier " + go + " already open: a restart, not waiting for every peer");
            return;
        }
        // ready means connected: the peers' subscriptions exist once their nodes are built, so this also waits
        // for the others to come up, and the setup exchanges are over before anyone is judged
        if (!node.holdUntil(node::peersConnected, TimeUnit.MINUTES.toMillis(2)))
        {
            if (node.driverLost() != null)
            {
                return;
            }
            LOG.log(Level.WARNING, "not every peer connected within 2 minutes; declaring ready anyway");
        }
        try
        {
            Files.writeString(ready, Long.toString(ProcessHandle.current().pid()));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot create " + ready + " for the start barrier: " + ex.getMessage(), ex);
        }
        LOG.log(Level.INFO, "ready; waiting for " + go);
        if (!node.holdUntil(() -> Files.exists(go), TimeUnit.MINUTES.toMillis(10)) && node.driverLost() == null)
        {
            throw new IllegalStateException("start barrier " + go + " was not created within 10 minutes");
        }
    }

    private static int logUntilStopped(final RingwatchNode node, final RingwatchContext ctx)
    {
        try (MainThreadPoll poll = new MainThreadPoll(node, ctx))
        {
            while (true)
            {
                final boolean stopped = NodeInternals.agent(node).awaitStopped(LOG_POLL_NS);
                final int exitCode = poll.poll(stopped);
                if (exitCode >= 0)
                {
                    CliShutdown.report(exitCode);
                    return exitCode;
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * What the main thread does each time it wakes: read the view file, log what changed, reload a changed key file,
     * and tell whether the node stopped. Allocates nothing while nothing changes, nor does the wait between polls:
     * node JVMs run C1 only (no escape analysis) and may go hours without a collection, so garbage made four times a
     * second showed as resident memory growing for as long as the node ran (issue 31).
     */
    static final class MainThreadPoll implements AutoCloseable
    {
        private final RingwatchNode node;
        private final RingwatchContext ctx;
        private final ViewSnapshot snapshot = new ViewSnapshot();
        private final MembershipLog membership;
        private final ViewReader reader;
        private final Path keyFile;
        private final KeyFileWatch keyFileWatch;
        private boolean pinLogged;
        private long reforms;
        private String transportError = "";

        /**
         * @param node a launched node.
         * @param ctx  its context.
         */
        MainThreadPoll(final RingwatchNode node, final RingwatchContext ctx)
        {
            this.node = node;
            this.ctx = ctx;
            membership = new MembershipLog(ctx.cluster().size(), ctx.rank(), LOG);
            keyFile = ctx.authMode() == AuthMode.REQUIRED ? ctx.authKeyFile() : null;
            keyFileWatch = keyFile == null ? null : new KeyFileWatch(keyFile);
            reader = new ViewReader(ViewLayout.fileFor(ctx.aeronDirectoryName(), ctx.cluster().clusterId(), ctx.rank()));
        }

        /**
         * @param stopped whether the agent said it stopped.
         * @return the exit code once the node stopped (its stop logged), else -1.
         */
        int poll(final boolean stopped)
        {
            reader.read(snapshot);
            if (!pinLogged && node.pinResult() != null)
            {
                pinLogged = true;
                LOG.log(Level.INFO, "agent thread: " + node.pinResult());
            }
            membership.log(snapshot);
            final long reformed = NodeInternals.agent(node).counters().get(NodeCounter.REFORMS);
            if (reformed != reforms)
            {
                reforms = reformed;
                LOG.log(Level.INFO, "membership: cluster RE-FORMED after a stop of every node (re-forms " +
                    "counted here: " + reformed + "), view epoch " + snapshot.viewEpoch());
            }
            if (keyFileWatch != null && keyFileWatch.changed())
            {
                // a rotation step: the file was replaced or rewritten; a bad file leaves the keys as they were
                try
                {
                    System.out.println("keyring reloaded from " + keyFile + ": " + node.reloadKeys() +
                        " (primary first)");
                }
                catch (final RuntimeException ex)
                {
                    System.out.println("keyring NOT reloaded, keeping the current keys: " + ex.getMessage());
                }
            }
            final String error = NodeInternals.agent(node).heartbeatTransport().lastError();
            if (!error.equals(transportError))
            {
                transportError = error;
                LOG.log(Level.WARNING, "rdma: " + error);
            }
            return stopCode(node, ctx, snapshot, stopped);
        }

        /**
         * Unmap the view file.
         */
        public void close()
        {
            reader.close();
        }
    }

    /**
     * Log why the node stopped, if it did, with what to do about it.
     *
     * @return the exit code, or -1 while the node runs.
     */
    private static int stopCode(
        final RingwatchNode node, final RingwatchContext ctx, final ViewSnapshot snapshot, final boolean stopped)
    {
        final String restart = "; a supervisor restarts it (Restart=on-failure) and it rejoins under a new incarnation";
        if (CliShutdown.signalled() && (stopped || node.driverLost() != null || NodeInternals.agent(node).localFault() != null))
        {
            // an operator's stop, whatever else happened on the way: a success
            LOG.log(Level.INFO, snapshot.state() == NodeState.LEFT ?
                "LEFT on SIGTERM/SIGINT: told its observer, which reports it as left; exit 0" :
                "stopped on SIGTERM/SIGINT without leaving: it was " + snapshot.stateName() + " already (" +
                stopReason(ctx, snapshot) + "); exit 0");
            return 0;
        }
        if (NodeInternals.agent(node).localFault() != null)
        {
            // the view file says EXCLUDED (TRANSPORT_FAULT); exit 4 as for any loss of the node's own transport
            LOG.log(Level.WARNING, "TRANSPORT_FAULT: " + NodeInternals.agent(node).localFault() + "; it stopped without " +
                "reporting anyone, exit " + RingwatchConfiguration.EXIT_DRIVER_LOST + ": bring the port up (ibstat), " +
                "then restart the node");
            return RingwatchConfiguration.EXIT_DRIVER_LOST;
        }
        if (node.driverLost() != null || NodeInternals.agent(node).driverLost() != null ||
            stopped && snapshot.exclusionCause() == ExclusionCause.DRIVER_LOST)
        {
            final String why = node.driverLost() != null ? "lost the media driver (" + driverLossDetail(node.driverLost()) + ")" :
                String.valueOf(NodeInternals.agent(node).driverLost());
            LOG.log(Level.WARNING, "DRIVER_LOST: " + why + "; it stopped without reporting " +
                "anyone, exit " + RingwatchConfiguration.EXIT_DRIVER_LOST + ": restart the media driver " +
                "(ringwatch.jar driver; its unit restarts the nodes that require it), then the node");
            return RingwatchConfiguration.EXIT_DRIVER_LOST;
        }
        if (!stopped)
        {
            return oddOneOutCode(node);
        }
        if (snapshot.state() == NodeState.EXCLUDED && snapshot.exclusionCause() == ExclusionCause.ISOLATED &&
            NodeInternals.agent(node).counters().get(NodeCounter.SLOT_PROGRESS_SEEN) == 0)
        {
            // never heard the cluster: if peers told why, it is no cut a restart could heal
            if (node.keyMismatch() != null)
            {
                LOG.log(Level.ERROR, "KEY_MISMATCH: this node heard nobody, and " + node.keyMismatch() + "; exit " +
                    RingwatchConfiguration.EXIT_KEY_MISMATCH + ", not restarted: give this node the cluster's key " +
                    "file (--key-file), then start it again");
                return RingwatchConfiguration.EXIT_KEY_MISMATCH;
            }
            if (node.configMismatch() != null)
            {
                LOG.log(Level.ERROR, "CONFIG_MISMATCH: this node heard nobody, and " + node.configMismatch() +
                    "; exit " + RingwatchConfiguration.EXIT_CONFIG_INVALID + ", not restarted: run it from the " +
                    "cluster's cluster file and flags, then start it again");
                return RingwatchConfiguration.EXIT_CONFIG_INVALID;
            }
        }
        if (snapshot.state() == NodeState.EXCLUDED)
        {
            LOG.log(Level.WARNING, "EXCLUDED: " + stopReason(ctx, snapshot) + "; fencing, exit " +
                RingwatchConfiguration.EXIT_FENCED + restart);
            LOG.log(Level.INFO, ownTiming(node));
            return RingwatchConfiguration.EXIT_FENCED;
        }
        if (snapshot.state() != NodeState.LEFT)
        {
            LOG.log(Level.WARNING, "STOPPED: the node's agent ended while it was " + snapshot.stateName() +
                "; exit " + RingwatchConfiguration.EXIT_FENCED + restart);
            return RingwatchConfiguration.EXIT_FENCED;
        }
        LOG.log(Level.INFO, "LEFT: it left the cluster; exit 0");
        return 0;
    }

    /**
     * Over IPC heartbeats are shared-memory stores that no key guards, so a node with another key or setting is heard
     * and never stops as ISOLATED: the hellos decide, once its grace is over, whether it is the one that differs.
     *
     * @return the do-not-restart code if this running node is the odd one out, else -1.
     */
    private static int oddOneOutCode(final RingwatchNode node)
    {
        final HelloExchange hello = NodeInternals.agent(node).helloExchange();
        final String odd = hello == null ? null : hello.oddOneOut();
        if (odd == null)
        {
            return -1;
        }
        final boolean key = hello.keyMismatch() != null;
        LOG.log(Level.ERROR, (key ? "KEY_MISMATCH" : "CONFIG_MISMATCH") + ": no peer that answered this node's " +
            "hello agrees with it, and " + odd + "; it stops, exit " + (key ? RingwatchConfiguration.EXIT_KEY_MISMATCH +
            ", not restarted: give this node the cluster's key file (--key-file), then start it again" :
            RingwatchConfiguration.EXIT_CONFIG_INVALID + ", not restarted: run it from the cluster's cluster file " +
            "and flags, then start it again"));
        return key ? RingwatchConfiguration.EXIT_KEY_MISMATCH : RingwatchConfiguration.EXIT_CONFIG_INVALID;
    }

    private static String stopReason(final RingwatchContext ctx, final ViewSnapshot snapshot)
    {
        final ExclusionCause cause = snapshot.exclusionCause();
        if (cause == null)
        {
            return "it was running";
        }
        switch (cause)
        {
            case FENCED:
                return "fenced by rank " + snapshot.excludedBy() + ", which holds this node dead (it came back " +
                    "from a pause or a cut)";
            case MINORITY:
                return "this node's side of a partition holds no majority of the cluster (" +
                    (snapshot.excludedBy() == ctx.rank() ? "its own count" :
                    "checking a minority notice from rank " + snapshot.excludedBy()) + ")";
            case ISOLATED:
                return "this node heard nobody for longer than the suspicion timeout: cut off (check the network " +
                    "and the firewall for the cluster file's ports), deaf, or alone at the cluster's first boot " +
                    "(no peer told of another key or configuration; over rdma the peers' logs and " +
                    "ringwatch.jar stat --counters say whether they refused its frames)";
            case LEFT:
                return "it left";
            case DRIVER_LOST:
            case TRANSPORT_FAULT:
                return "it lost its own transport (" + cause + ")";
            default:
                return "declared dead by the cluster (reported by rank " + snapshot.excludedBy() + ")";
        }
    }

    /**
     * Whether an excluded node was itself silent: its own largest heartbeat gap and late cycles tell a stalled emitter
     * from an observer that could not hear it.
     */
    private static String ownTiming(final RingwatchNode node)
    {
        final NodeCounters counters = NodeInternals.agent(node).counters();
        return "own timing: largest heartbeat gap " + micros(counters.get(NodeCounter.MAX_HEARTBEAT_GAP_NS)) +
            " us, heartbeat deadlines missed " + counters.get(NodeCounter.HEARTBEAT_DEADLINES_MISSED) +
            ", longest duty cycle " + micros(counters.get(NodeCounter.DUTY_CYCLE_MAX_NS)) + " us, pauses detected " +
            counters.get(NodeCounter.PAUSES_DETECTED) + ", heartbeats sent " +
            counters.get(NodeCounter.HEARTBEATS_SENT) + ", heartbeats dropped " +
            counters.get(NodeCounter.HEARTBEATS_DROPPED) + ", scheduling " + node.pinResult();
    }

    private static long micros(final long ns)
    {
        return TimeUnit.NANOSECONDS.toMicros(ns);
    }

    // the client's message names the driver and its silence; the exception's class name would read as a crash in logs
    private static String driverLossDetail(final Throwable loss)
    {
        return loss.getMessage() != null ? loss.getMessage() : "no detail";
    }
}
