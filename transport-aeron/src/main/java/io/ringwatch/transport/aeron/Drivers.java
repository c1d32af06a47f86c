package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.ringwatch.nativeconfig.RealtimePriority;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Media driver settings for ringwatch: control traffic is a few small frames, so one shared driver thread that
 * backs off when idle, and 64 KiB terms instead of Aeron's 16 MiB/64 MiB defaults (a cluster of n nodes has n IPC
 * streams per host, which would otherwise cost gigabytes of /dev/shm).
 */
public final class Drivers
{
    private Drivers()
    {
    }

    /**
     * @param aeronDir driver directory; deleted on start and shutdown.
     * @return a context for a small, quiet, embedded driver.
     */
    public static MediaDriver.Context lowFootprint(final String aeronDir)
    {
        return new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(
                10, 10, TimeUnit.MICROSECONDS.toNanos(10), TimeUnit.MICROSECONDS.toNanos(100)))
            .ipcTermBufferLength(RingwatchConfiguration.TERM_LENGTH_DEFAULT)
            .publicationTermBufferLength(RingwatchConfiguration.TERM_LENGTH_DEFAULT)
            .clientLivenessTimeoutNs(TimeUnit.SECONDS.toNanos(5))
            .publicationUnblockTimeoutNs(TimeUnit.SECONDS.toNanos(15))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false);
    }

    /**
     * Run the driver's agent threads as SCHED_FIFO: with UDP heartbeats every heartbeat passes through the driver,
     * so a driver thread waiting for a fair-class turn delays heartbeats as much as a late agent would. The driver's
     * backoff idle strategy keeps it from spinning. A thread that cannot be raised says so on stderr and runs on.
     *
     * @param ctx      driver context.
     * @param priority SCHED_FIFO priority, or 0 to leave the context as it is.
     * @return ctx.
     */
    public static MediaDriver.Context withRealtimePriority(final MediaDriver.Context ctx, final int priority)
    {
        if (priority <= 0)
        {
            return ctx;
        }
        RealtimePriority.validate(priority);
        final ThreadFactory factory = task -> new Thread(() ->
        {
            final RealtimePriority.Result result = RealtimePriority.raiseCurrentThread(priority);
            if (!result.applied())
            {
                System.err.println("media driver thread " + Thread.currentThread().getName() + ": " + result);
            }
            task.run();
        });
        return ctx.sharedThreadFactory(factory)
            .conductorThreadFactory(factory)
            .senderThreadFactory(factory)
            .receiverThreadFactory(factory)
            .sharedNetworkThreadFactory(factory);
    }
}
