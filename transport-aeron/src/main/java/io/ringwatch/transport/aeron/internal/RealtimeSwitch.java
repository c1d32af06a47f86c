package io.ringwatch.transport.aeron.internal;

import io.ringwatch.nativeconfig.NativeThreadId;
import io.ringwatch.nativeconfig.RealtimePriority;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Moves a node's agent thread into {@code SCHED_FIFO} shortly before its startup grace ends
 * ({@link RingwatchAgent#armingLeadNs(long)}), from a thread of its own.
 * <p>
 * Why not on the agent thread: the switch used to run inside the duty cycle that saw the grace end, and that cycle
 * took 9–85 ms with 16 node JVMs on two cores (δ = 10 ms): the first JNA call on the thread and the first string
 * concatenation bootstrapping, all at real-time priority, at the moment every observer arms. The observers declared
 * those nodes dead; a cluster start failed about every other time. Here the agent only records its kernel thread id
 * as it starts and, when the time comes, flips a flag and unparks this thread (no allocation, one futex wake), then
 * goes on beating while the call is made for it. The helper raises itself first, while it waits, so an ordinary-class
 * helper on a saturated host (woken 20–36 ms late in one start) does not hold the switch back.
 */
public final class RealtimeSwitch implements AutoCloseable
{
    private final int priority;
    private final Consumer<String> onSwitched;
    private final Thread thread;
    private volatile int agentTid = NativeThreadId.UNKNOWN;
    private volatile long askedAtNs;
    private volatile boolean asked;

    /**
     * @param name       the helper thread's name.
     * @param priority   {@code SCHED_FIFO} priority for the agent thread.
     * @param onSwitched given what happened (applied, or why not, and how long after the grace), on the helper
     *                   thread.
     */
    public RealtimeSwitch(final String name, final int priority, final Consumer<String> onSwitched)
    {
        RealtimePriority.validate(priority);
        this.priority = priority;
        this.onSwitched = onSwitched;
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /**
     * On the agent thread as it starts (its grace has just begun): remember which thread to raise.
     */
    public void captureCurrentThread()
    {
        agentTid = NativeThreadId.current();
        if (thread.getState() == Thread.State.NEW)
        {
            thread.start();
        }
    }

    /**
     * On the agent thread when its grace is about to end: hand the switch over.
     */
    public void switchNow()
    {
        askedAtNs = System.nanoTime();
        asked = true;
        LockSupport.unpark(thread);
    }

    /**
     * @return the agent thread's kernel id, or {@link NativeThreadId#UNKNOWN} before it started or if unreadable.
     */
    public int agentTid()
    {
        return agentTid;
    }

    private void run()
    {
        // best effort: without the privilege the agent's own switch below fails too and says why
        RealtimePriority.raiseCurrentThread(priority);
        while (!asked)
        {
            LockSupport.park(this);
            if (Thread.currentThread().isInterrupted())
            {
                return;
            }
        }
        final long startNs = System.nanoTime();
        final int tid = agentTid;
        final String scheduling = tid == NativeThreadId.UNKNOWN ?
            "not real-time (asked SCHED_FIFO " + priority + "): the agent thread's kernel id is unreadable " +
                "(no /proc/thread-self)" : RealtimePriority.raiseThread(tid, priority).toString();
        final long doneNs = System.nanoTime();
        onSwitched.accept(scheduling + " (set by a helper thread in " + micros(doneNs - startNs) + " us, " +
            micros(doneNs - askedAtNs) + " us after the agent asked)");
    }

    private static long micros(final long ns)
    {
        return TimeUnit.NANOSECONDS.toMicros(ns);
    }

    /**
     * Stop the helper if it is still waiting.
     */
    public void close()
    {
        thread.interrupt();
    }
}
