package io.ringwatch.transport.aeron.internal.process;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.process.ProcessListener;
import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.process.ProcessNoticeChannel;
import io.ringwatch.core.process.ProcessNoticeRelay;
import io.ringwatch.core.process.ProcessWatch;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.transport.aeron.ProcessCounter;
import io.ringwatch.transport.aeron.client.ProcessViewLayout;
import io.ringwatch.transport.aeron.internal.ProcessLevelHook;
import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import static io.ringwatch.transport.aeron.client.ProcessViewLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * The process level of a live daemon: the core's {@link ProcessNoticeRelay} over the node's control channel, the
 * local processes it launched ({@link LocalProcesses}), the process view its processes map, and the Aeron IPC
 * stream on which it pushes every failure to them. Runs inside the node's duty cycle ({@link ProcessLevelHook}).
 * <p>
 * The rules are core's ({@link ProcessWatch}): a local exit is a failure, broadcast to the cluster, unless the process
 * had said it finished ({@link ProcessViewLayout#SLOT_FINISHED}) and exited with 0: that is a departure, recorded in
 * its slot only. This class reads the slots and the exits for them and carries their verdicts out.
 */
public final class ProcessDaemon implements ProcessLevelHook, ProcessListener, AutoCloseable
{
    /** The counters are published when something changed, else at this period (the alive count). */
    private static final long COUNTERS_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ProcessNoticeRelay relay;
    private final ProcessView view;
    private LocalProcesses local;
    private final Aeron aeron;
    private final Publication notifications;
    private final NanoClock clock;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(
        BitUtil.align(NOTIFICATION_LENGTH, BitUtil.CACHE_LINE_LENGTH)));
    private final boolean[] handled;
    private final long[] learnedAtNs;
    private ProcessWatch watch;
    private long watchdogExpiries;
    private int exitsSeen;
    private long localFailures;
    private long departures;
    private long notificationsDropped;
    private long notificationsPushed;
    private final ProcessCounters counters;
    private boolean countersDirty = true;
    private long countersPublishedAtNs;
    private long lastExitToDutyCycleNs = -1;
    private volatile Thread agentThread;

    /**
     * @param node      the daemon's node-level protocol.
     * @param layout    the job.
     * @param schedule  the node level's broadcast schedule.
     * @param channel   where PROCESS_FAILURE frames go (the node's control channel).
     * @param aeronDir  the Aeron directory: the view file goes there, and the IPC stream through its driver.
     * @param clusterId the cluster.
     * @param clock     the clock stamped on notifications (same host as the processes).
     */
    public ProcessDaemon(
        final DetectorNode node,
        final JobLayout layout,
        final BroadcastSchedule schedule,
        final ProcessNoticeChannel channel,
        final String aeronDir,
        final int clusterId,
        final NanoClock clock)
    {
        this.relay = new ProcessNoticeRelay(
            node, layout, schedule, ProtocolSettings.DEFAULT_DEDUP_CAPACITY, channel, this);
        this.clock = clock;
        this.handled = new boolean[layout.processesOn(node.rank())];
        this.learnedAtNs = new long[layout.processCount()];
        this.watch = new ProcessWatch(handled.length, 0);
        this.view = new ProcessView(ProcessViewLayout.fileFor(aeronDir, clusterId, node.rank()), layout, node.rank());
        Aeron connected = null;
        try
        {
            connected = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir));
            notifications = connected.addPublication(
                NOTIFICATION_CHANNEL, ProcessViewLayout.notificationStreamId(clusterId, node.rank()));
            counters = new ProcessCounters(connected, clusterId, node.rank());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(connected);
            view.close();
            throw ex;
        }
        this.aeron = connected;
    }

    /**
     * Launch this node's processes ({@code node --exec}), once the view they attach to exists. Call before the
     * hook is handed to the agent.
     *
     * @param command     command line, run by {@code /bin/sh -c "exec ..."}.
     * @param environment per local index, what to add to the environment.
     */
    public void launch(final String command, final IntFunction<Map<String, String>> environment)
    {
        launch(command, environment, 0);
    }

    /**
     * Launch this node's processes ({@code node --exec}), once the view they attach to exists. Call before the
     * hook is handed to the agent.
     *
     * @param command         command line, run by {@code /bin/sh -c "exec ..."}.
     * @param environment     per local index, what to add to the environment.
     * @param watcherPriority {@code SCHED_FIFO} priority of the exit watchers, 0 for none.
     */
    public void launch(
        final String command, final IntFunction<Map<String, String>> environment, final int watcherPriority)
    {
        if (local != null)
        {
            throw new IllegalStateException("processes already launched");
        }
        local = LocalProcesses.launch(command, handled.length, environment, watcherPriority);
        // an idle agent sleeps until its next protocol deadline: wake it at once so the exit is announced at once
        local.onExit(() ->
        {
            final Thread thread = agentThread;
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        });
        for (int i = 0; i < local.count(); i++)
        {
            view.slotProcess(i, local.pid(i), -1, 0);
            view.slotState(i, SLOT_LAUNCHED);
        }
    }

    /**
     * @return the launched processes, or null.
     */
    public LocalProcesses local()
    {
        return local;
    }

    /**
     * Watch attached processes by their beats: one whose slot's heartbeat has not moved for {@code timeoutNs} is
     * declared dead (hung, or gone without its daemon seeing an exit: a process it did not launch), or departed if it
     * had said it finished. Set before the hook is handed to the agent.
     *
     * @param timeoutNs the local timeout; 0 turns the watchdog off.
     * @return this.
     */
    public ProcessDaemon watchdog(final long timeoutNs)
    {
        this.watch = new ProcessWatch(handled.length, timeoutNs);
        return this;
    }

    public int doWork(final long nowNs)
    {
        int work = watch.watching() ? watch(nowNs) : 0;
        if (local != null)
        {
            work += collectExits(nowNs);
        }
        // attaches change no daemon state, so the alive count is also refreshed on a slow period
        if (countersDirty || nowNs - countersPublishedAtNs > COUNTERS_PERIOD_NS)
        {
            publishCounters(nowNs);
        }
        return work;
    }

    private void publishCounters(final long nowNs)
    {
        countersDirty = false;
        countersPublishedAtNs = nowNs;
        int alive = 0;
        for (int i = 0; i < handled.length; i++)
        {
            final long state = view.slotState(i);
            if (state == SLOT_LAUNCHED || state == SLOT_ATTACHED || state == SLOT_FINISHED)
            {
                alive++;
            }
        }
        counters.set(ProcessCounter.LOCAL_ALIVE, alive);
        counters.set(ProcessCounter.LOCAL_DEAD, localFailures);
        counters.set(ProcessCounter.LOCAL_DEPARTED, departures);
        counters.set(ProcessCounter.PROCESS_NOTICES_SENT, relay.noticesOriginated());
        counters.set(ProcessCounter.PROCESS_NOTICES_RECEIVED, relay.noticesReceived());
        counters.set(ProcessCounter.PROCESS_NOTICES_FORWARDED, relay.noticesForwarded());
        counters.set(ProcessCounter.LOCAL_NOTIFICATIONS_PUSHED, notificationsPushed);
        counters.set(ProcessCounter.LOCAL_NOTIFICATIONS_DROPPED, notificationsDropped);
    }

    private int watch(final long nowNs)
    {
        int work = 0;
        boolean announce = false;
        for (int i = 0; i < handled.length; i++)
        {
            if (handled[i])
            {
                continue;
            }
            final long state = view.slotState(i);
            if (state != SLOT_ATTACHED && state != SLOT_FINISHED)
            {
                continue;
            }
            final int verdict = watch.onBeat(i, view.slotHeartbeat(i), state == SLOT_FINISHED, nowNs);
            if (verdict != ProcessWatch.RUNNING)
            {
                handled[i] = true;
                watchdogExpiries++;
                announce |= carryOut(i, verdict, nowNs);
                work++;
            }
        }
        if (announce)
        {
            relay.announceLocalFailures();
        }
        countersDirty |= work > 0;
        return work;
    }

    private int collectExits(final long nowNs)
    {
        if (agentThread == null)
        {
            agentThread = Thread.currentThread();
        }
        final int reported = local.exitsReported();
        if (reported == exitsSeen)
        {
            return 0;
        }
        exitsSeen = reported;
        int work = 0;
        boolean announce = false;
        for (int i = 0; i < handled.length; i++)
        {
            if (!handled[i] && local.exitCode(i) != LocalProcesses.RUNNING)
            {
                handled[i] = true;
                announce |= onLocalExit(i, local.exitCode(i), local.exitedAtNs(i), nowNs);
                work++;
            }
        }
        // the exits seen in one cycle (a node's processes often die together) go out in one broadcast
        if (announce)
        {
            relay.announceLocalFailures();
        }
        countersDirty = true;
        return work;
    }

    /**
     * @return true if the exit is a failure to announce.
     */
    private boolean onLocalExit(final int index, final int exitCode, final long exitedAtNs, final long nowNs)
    {
        final long state = view.slotState(index);
        view.slotProcess(index, view.slotPid(index), exitCode, exitedAtNs);
        // the watcher may stamp the exit after this duty cycle sampled its clock: handled in the same cycle, 0
        lastExitToDutyCycleNs = Math.max(0, nowNs - exitedAtNs);
        return carryOut(index, ProcessWatch.onExit(state == SLOT_FINISHED, exitCode), nowNs);
    }

    /**
     * @param verdict {@link ProcessWatch#DEPARTED} or {@link ProcessWatch#FAILED}.
     * @return true if it is a failure to announce.
     */
    private boolean carryOut(final int index, final int verdict, final long nowNs)
    {
        if (verdict == ProcessWatch.DEPARTED)
        {
            view.slotState(index, SLOT_DEPARTED);
            departures++;
            return false;
        }
        view.slotState(index, SLOT_DEAD);
        localFailures++;
        return relay.recordLocalFailure(index, nowNs);
    }

    public void onProcessNotice(final ProcessNotice notice, final int fromRank, final long nowNs)
    {
        relay.onNotice(notice, fromRank, nowNs);
        countersDirty = true;
    }

    public void onNodeFailure(final int deadRank, final long nowNs, final int reporter)
    {
        relay.onNodeFailure(deadRank, nowNs, reporter);
        countersDirty = true;
    }

    public void onProcessFailure(final int process, final long nowNs, final int cause, final int reporter)
    {
        learnedAtNs[process] = clock.nanoTime();
        message.putInt(NOTIFICATION_PROCESS_OFFSET, process, LITTLE_ENDIAN);
        message.putInt(NOTIFICATION_CAUSE_OFFSET, cause, LITTLE_ENDIAN);
        message.putLong(NOTIFICATION_DAEMON_NS_OFFSET, clock.nanoTime(), LITTLE_ENDIAN);
        // no subscriber or back pressure: the process finds it in the view on its next poll instead
        if (notifications.offer(message, 0, NOTIFICATION_LENGTH) < 0)
        {
            notificationsDropped++;
        }
        else
        {
            notificationsPushed++;
        }
        countersDirty = true;
        // after the push: a client polls its stream before it rescans the view, so it gets the cause and stamp
        view.markDead(process);
    }

    /**
     * @param process an application rank.
     * @return the clock's time when this daemon learned it dead, 0 if it has not; for logs, read from any thread.
     */
    public long learnedAtNs(final int process)
    {
        return learnedAtNs[process];
    }

    /**
     * @return the relay, for its counters and view.
     */
    public ProcessNoticeRelay relay()
    {
        return relay;
    }

    /**
     * @return the view file writer.
     */
    public ProcessView view()
    {
        return view;
    }

    /**
     * @return local processes whose beats stopped for longer than the watchdog timeout.
     */
    public long watchdogExpiries()
    {
        return watchdogExpiries;
    }

    /**
     * @return local exits counted as failures.
     */
    public long localFailures()
    {
        return localFailures;
    }

    /**
     * @return local exits counted as departures.
     */
    public long departures()
    {
        return departures;
    }

    /**
     * @return failures pushed on the notification stream.
     */
    public long notificationsPushed()
    {
        return notificationsPushed;
    }

    /**
     * @return notifications no local process was there to take.
     */
    public long notificationsDropped()
    {
        return notificationsDropped;
    }

    /**
     * @return for the last local exit, from the exit report to the duty cycle that handled it, ns; -1 before any.
     */
    public long lastExitToDutyCycleNs()
    {
        return lastExitToDutyCycleNs;
    }

    /**
     * Kill the launched processes and close the notification stream. The view stays mapped until the JVM exits: this
     * runs from a shutdown hook while the agent may still be writing it.
     */
    public void close()
    {
        CloseHelper.quietClose(local);
        CloseHelper.quietClose(aeron);
    }
}
