package io.ringwatch.transport.aeron.internal;

import io.aeron.driver.Configuration;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringwatch.nativeconfig.RealtimePriority;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import org.agrona.SystemUtil;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Media driver settings for ringwatch: a conductor thread and one network thread (sender and receiver), both
 * paced ({@link PacedIdleStrategy}), and 64 KiB terms instead of Aeron's 16 MiB/64 MiB defaults (a cluster of n nodes
 * has n IPC streams per host, which would otherwise cost gigabytes of /dev/shm).
 * <p>
 * The conductor and the network thread are kept apart because they want opposite places in the scheduler: notices,
 * probes and their answers cross the network thread, so it must run before the agents waiting for them, while
 * the conductor sets up publications in bursts (file creation, mapping) when notices fan out and must never hold a
 * core an agent is waiting for.
 */
public final class Drivers
{
    /** Line {@code ringwatch.jar driver} prints once it accepts clients; launchers wait for it. */
    public static final String READY_LINE = "driver ready";

    /** Most a notice or probe frame waits in the driver's sender or receiver, by default. */
    public static final long NETWORK_PERIOD_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /** Longest pacing {@link #lowNoiseNetworkPeriodNs(long)} gives a network thread that carries UDP frames. */
    public static final long MAX_LOW_NOISE_NETWORK_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Pacing of the network thread of a driver that carries only shared-memory (IPC) streams: nothing crosses it, so
     * it need not wake 10,000 times a second (measured by {@code perf noise}: about a third of a shared core), nor
     * 100 (the per-thread table of {@code perf noise}); what is left is how long closing the driver waits for it.
     */
    public static final long IPC_NETWORK_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /** Most a client command (add publication, keepalive) waits for the driver's conductor. */
    public static final long CONDUCTOR_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * How often the driver's conductor runs its timers, which is when it stamps its heartbeat into the CnC file: the
     * nodes look at the driver's process once it is a few beats late and take it for lost when it stands still for
     * their driver timeout (10δ, at least 1 s), so it must beat well within both. Aeron's default (1 s) is for
     * clients that wait seconds.
     */
    public static final long TIMER_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * How long the driver keeps a silent client, unless {@code -Daeron.client.liveness.timeout} says otherwise (a
     * harness that freezes every process of a cluster with SIGSTOP sets it above the freeze, or the driver would
     * drop its clients on waking before they could send their keepalives).
     */
    public static final long CLIENT_LIVENESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    /** Aeron wants the unblock timeout above the liveness timeout; this much above it, 15 s at the default. */
    private static final long UNBLOCK_MARGIN_NS = TimeUnit.SECONDS.toNanos(10);

    private Drivers()
    {
    }

    /** Longest {@link #lowNoiseIpcConductorPeriodNs(long)}: Aeron's own timer interval is ten times that. */
    public static final long MAX_IPC_CONDUCTOR_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * Pacing of the conductor of a low-noise driver that carries only shared-memory streams: δ/10 within
     * [{@link #CONDUCTOR_PERIOD_NS}, {@link #MAX_IPC_CONDUCTOR_PERIOD_NS}]. Frames do not cross it (a subscriber
     * reads the publisher's log directly); what waits for it is a client command, such as the publication a node adds
     * for a peer it writes to first (a notice then leaves up to δ/10 later), and the publishers' limits (a term
     * window, 32 KiB, per period).
     *
     * @param suspicionTimeoutNs δ.
     * @return the conductor's period.
     */
    public static long lowNoiseIpcConductorPeriodNs(final long suspicionTimeoutNs)
    {
        return Math.max(CONDUCTOR_PERIOD_NS, Math.min(MAX_IPC_CONDUCTOR_PERIOD_NS, suspicionTimeoutNs / 10));
    }

    /**
     * For a driver that carries only shared-memory streams: the conductor paced at {@code conductorPeriodNs}, its
     * timers (its heartbeat) as often or every {@link #TIMER_INTERVAL_NS}, whichever is longer, and no thread for
     * asynchronous tasks, which only network channels give it (name resolution): it would wake every millisecond for
     * nothing. A heartbeat older than {@link DriverWatch#SUSPECT_AFTER_MS} only makes the nodes look at the driver's
     * process on the duty cycles they run anyway, so a crashed driver is found as soon as before.
     *
     * @param ctx               driver context from {@link #lowFootprint(String, long)}.
     * @param conductorPeriodNs the conductor's period, at most {@link #MAX_IPC_CONDUCTOR_PERIOD_NS}.
     * @return ctx.
     */
    public static MediaDriver.Context sharedMemoryOnly(final MediaDriver.Context ctx, final long conductorPeriodNs)
    {
        return ctx
            .conductorIdleStrategy(new PacedIdleStrategy(conductorPeriodNs))
            .timerIntervalNs(Math.max(TIMER_INTERVAL_NS, conductorPeriodNs))
            .asyncExecutorEnabled(false);
    }

    /**
     * Pacing of the network thread of a low-noise UDP cluster: a quarter of the probe timeout P, within
     * [{@link #NETWORK_PERIOD_NS}, {@link #MAX_LOW_NOISE_NETWORK_PERIOD_NS}]. UDP heartbeats go from agent to agent
     * as plain datagrams; what crosses the driver is control frames, and the tightest timing among them is a probe
     * round, which must see its answers within P: out and back is two passes through a sender and two through a
     * receiver, so P/4 each keeps the round trip within P. At δ = 10 ms (P = η = 1 ms) that is 4,000 wake-ups a
     * second instead of 10,000; the 100 µs pacing took 28–33 % of a core of the 2-core test host, above the agents'
     * priority, and 16 low-noise node JVMs there lost starts for want of it.
     *
     * @param probeTimeoutNs the cluster's probe timeout P.
     * @return the network thread's period.
     */
    public static long lowNoiseNetworkPeriodNs(final long probeTimeoutNs)
    {
        return Math.max(NETWORK_PERIOD_NS, Math.min(MAX_LOW_NOISE_NETWORK_PERIOD_NS, probeTimeoutNs / 4));
    }

    /**
     * @param aeronDir driver directory; deleted on start and shutdown.
     * @return a context for a small, quiet, embedded driver.
     */
    public static MediaDriver.Context lowFootprint(final String aeronDir)
    {
        return lowFootprint(aeronDir, NETWORK_PERIOD_NS);
    }

    /**
     * @param aeronDir        driver directory; deleted on start and shutdown.
     * @param networkPeriodNs how often the network thread (sender and receiver) runs: {@link #NETWORK_PERIOD_NS} when
     *                        UDP frames cross it, {@link #IPC_NETWORK_PERIOD_NS} when only IPC streams do.
     * @return a context for a small, quiet driver.
     */
    public static MediaDriver.Context lowFootprint(final String aeronDir, final long networkPeriodNs)
    {
        final long livenessNs = SystemUtil.getDurationInNanos(
            Configuration.CLIENT_LIVENESS_TIMEOUT_PROP_NAME, CLIENT_LIVENESS_TIMEOUT_NS);
        return new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED_NETWORK)
            .sharedNetworkIdleStrategy(new PacedIdleStrategy(networkPeriodNs))
            .conductorIdleStrategy(new PacedIdleStrategy(CONDUCTOR_PERIOD_NS))
            .timerIntervalNs(TIMER_INTERVAL_NS)
            .ipcTermBufferLength(RingwatchConfiguration.TERM_LENGTH_DEFAULT)
            .publicationTermBufferLength(RingwatchConfiguration.TERM_LENGTH_DEFAULT)
            .clientLivenessTimeoutNs(livenessNs)
            .publicationUnblockTimeoutNs(livenessNs + UNBLOCK_MARGIN_NS)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false);
    }

    /**
     * Run the driver's threads as SCHED_FIFO around the agents' priority: the network thread one step above (a probe
     * answer waiting behind agents comes late to a round timed in η), the conductor one step below. Both sleep after
     * every duty cycle, so neither spins. A thread that cannot be raised says so on stderr and runs on.
     *
     * @param ctx           driver context from {@link #lowFootprint(String)}.
     * @param agentPriority SCHED_FIFO priority of the node agents, or 0 to leave the context as it is.
     * @return ctx.
     */
    public static MediaDriver.Context withRealtimePriority(final MediaDriver.Context ctx, final int agentPriority)
    {
        if (agentPriority <= 0)
        {
            return ctx;
        }
        RealtimePriority.validate(agentPriority);
        return ctx
            .sharedNetworkThreadFactory(raisedTo(networkPriority(agentPriority)))
            .conductorThreadFactory(raisedTo(conductorPriority(agentPriority)));
    }

    /**
     * @param agentPriority SCHED_FIFO priority of the node agents.
     * @return the driver network thread's: one above, within range.
     */
    public static int networkPriority(final int agentPriority)
    {
        return Math.min(RealtimePriority.MAX, agentPriority + 1);
    }

    /**
     * @param agentPriority SCHED_FIFO priority of the node agents.
     * @return the driver conductor's: one below, within range.
     */
    public static int conductorPriority(final int agentPriority)
    {
        return Math.max(RealtimePriority.MIN, agentPriority - 1);
    }

    private static ThreadFactory raisedTo(final int priority)
    {
        return task -> new Thread(() ->
        {
            final RealtimePriority.Result result = RealtimePriority.raiseCurrentThread(priority);
            if (!result.applied())
            {
                System.err.println("media driver thread " + Thread.currentThread().getName() + ": " + result);
            }
            task.run();
        });
    }
}
