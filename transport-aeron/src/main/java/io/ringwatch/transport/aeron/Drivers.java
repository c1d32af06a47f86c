package io.ringwatch.transport.aeron;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;

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
}
