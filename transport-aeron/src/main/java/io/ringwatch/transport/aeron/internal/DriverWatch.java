package io.ringwatch.transport.aeron.internal;

import io.aeron.CncFileDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The media driver's liveness as the driver itself publishes it: its conductor stamps the epoch time into the
 * to-driver ring buffer of the CnC file on every timer check (every {@link Drivers#TIMER_INTERVAL_NS} for ringwatch's
 * drivers, up to δ/10 for a low-noise shared-memory one: {@link Drivers#sharedMemoryOnly}), and sets it to -1 when it
 * closes. A node without its driver can neither hear nor be heard, and must learn
 * that before δ passes, or it would blame its emitter for the silence; Aeron's client notices only after its driver
 * timeout (5 s by default, 20δ at δ = 250 ms).
 * <p>
 * A heartbeat late by a few beats is common on a loaded host: the driver is descheduled like any process, or busy
 * creating log buffers (up to 547 ms was seen on a 2-core CI machine starting thirteen JVMs). So lateness alone
 * only counts past the timeout (a hung driver). A dead driver is told apart sooner: once the heartbeat is
 * {@link #SUSPECT_AFTER_MS} late, the driver's process (its pid is in the CnC file) is checked, and a driver process
 * that no longer exists is lost at once. The check is skipped if that pid was not a live process when the watch
 * began (a driver in another pid namespace).
 * <p>
 * Maps the CnC file itself rather than reading through the Aeron client, so it stays valid after the client
 * closes or the driver's directory is deleted. One volatile load per check while the driver beats, no allocation.
 */
public final class DriverWatch implements AutoCloseable
{
    /** How late the heartbeat must be before the driver's process is looked at. */
    public static final long SUSPECT_AFTER_MS = 30;

    private static final long PROCESS_CHECK_INTERVAL_MS = 5;

    private final File cncFile;
    private final MappedByteBuffer mapped;
    private final ManyToOneRingBuffer toDriver;
    private final long timeoutMs;
    private final long clientLivenessTimeoutNs;
    private final ProcessHandle driverProcess;
    private long nextProcessCheckMs;
    private boolean processGone;

    /**
     * @param aeronDir  the driver's directory.
     * @param timeoutNs how long the heartbeat may stand still.
     * @throws IllegalStateException if the driver's CnC file is missing.
     */
    public DriverWatch(final String aeronDir, final long timeoutNs)
    {
        this.cncFile = new File(aeronDir, CncFileDescriptor.CNC_FILE);
        if (!cncFile.exists())
        {
            throw new IllegalStateException("no media driver CnC file at " + cncFile);
        }
        this.timeoutMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs));
        this.mapped = IoUtil.mapExistingFile(cncFile, "cnc");
        final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(mapped);
        this.toDriver = new ManyToOneRingBuffer(CncFileDescriptor.createToDriverBuffer(mapped, meta));
        this.clientLivenessTimeoutNs = CncFileDescriptor.clientLivenessTimeoutNs(meta);
        final long pid = CncFileDescriptor.pid(meta);
        this.driverProcess = pid > 0 ? ProcessHandle.of(pid).filter(ProcessHandle::isAlive).orElse(null) : null;
    }

    /**
     * @param nowMs epoch time now.
     * @return true if the driver has closed or its heartbeat is older than the timeout.
     */
    public boolean isLost(final long nowMs)
    {
        final long beatMs = toDriver.consumerHeartbeatTime();
        if (beatMs < 0 || nowMs - beatMs > timeoutMs)
        {
            return true;
        }
        if (nowMs - beatMs > SUSPECT_AFTER_MS && driverProcess != null && nowMs - nextProcessCheckMs >= 0)
        {
            nextProcessCheckMs = nowMs + PROCESS_CHECK_INTERVAL_MS;
            processGone = !driverProcess.isAlive();
            return processGone;
        }
        return false;
    }

    /**
     * @return true if the last check found the driver's process gone (rather than its heartbeat too old).
     */
    public boolean processGone()
    {
        return processGone;
    }

    /**
     * @return the driver's process if its pid could be watched, else null.
     */
    public ProcessHandle driverProcess()
    {
        return driverProcess;
    }

    /**
     * @param nowMs epoch time now.
     * @return age of the driver's last heartbeat in ms, or -1 once the driver has closed.
     */
    public long heartbeatAgeMs(final long nowMs)
    {
        final long beatMs = toDriver.consumerHeartbeatTime();
        return beatMs < 0 ? -1 : nowMs - beatMs;
    }

    /**
     * @return how long the driver keeps a silent client's publications, subscriptions and channel endpoints before
     * it frees them, as the driver states it in its CnC file.
     */
    public long clientLivenessTimeoutNs()
    {
        return clientLivenessTimeoutNs;
    }

    /**
     * @return the timeout in ms.
     */
    public long timeoutMs()
    {
        return timeoutMs;
    }

    /**
     * Unmap.
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }

    /**
     * {@inheritDoc}
     */
    public String toString()
    {
        return "DriverWatch{" + cncFile + ", timeout " + timeoutMs + "ms}";
    }
}
