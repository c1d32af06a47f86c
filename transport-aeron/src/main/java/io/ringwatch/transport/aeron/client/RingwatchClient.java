package io.ringwatch.transport.aeron.client;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.ringwatch.core.process.JobLayout;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.Arrays;

import static io.ringwatch.transport.aeron.client.ProcessViewLayout.*;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * The application side of two-level detection: a process attaches to the Ringwatch daemon of its node, which
 * launched it or accepts it, and learns of every dead process of the job, its own node's and every other node's.
 * <ul>
 *     <li>{@link #poll()} from the application's own duty cycle (busy-spinning or sleeping, its choice) delivers
 *     {@link FailureHandler} callbacks: the daemon pushes each failure on an Aeron IPC stream, and the poll also
 *     rescans the daemon's process view when it changed, so nothing is missed even if the process attached late.</li>
 *     <li>{@link #isDead(int)} reads the daemon's view with plain loads, without polling anything.</li>
 *     <li>{@link #ack()} and {@link #getAcked(int[])} are ULFM's failure_ack / get_acked (paper 004): ack marks how
 *     many of the failures learned so far the application has dealt with; getAcked returns exactly those.</li>
 *     <li>{@link #finish()} says the process is done: its exit with status 0 is then a departure, not a failure.</li>
 * </ul>
 * A process the daemon did not launch attaches the same way, into a free slot of the node; the daemon then watches
 * it only through the beats {@link #poll()} leaves in its slot (its watchdog), so it must keep polling.
 * <p>
 * The Aeron client runs without a conductor thread by default ({@link ConductorMode#INVOKER}): {@link #poll()}
 * invokes its conductor, so an attached process adds no thread of its own to the application's cores. The price is
 * the same rule as the watchdog's: a process that stops polling for longer than Aeron's client liveness timeout
 * (10 s) loses its connection to the driver, and by then the daemon has long declared it dead.
 * <p>
 * Not thread safe: one application thread polls. {@link #poll()} allocates nothing.
 */
public final class RingwatchClient implements AutoCloseable
{
    /**
     * Who runs the Aeron client's conductor (keepalives to the driver, image and error events).
     */
    public enum ConductorMode
    {
        /** {@link #poll()} invokes it: no extra thread. The default. */
        INVOKER,
        /** Aeron's own conductor thread, which wakes every few milliseconds on whatever core it lands on. */
        THREAD
    }

    /** Environment variables a daemon sets for the processes it launches. */
    public static final String ENV_AERON_DIR = "RINGWATCH_AERON_DIR";
    public static final String ENV_CLUSTER_ID = "RINGWATCH_CLUSTER_ID";
    public static final String ENV_NODE = "RINGWATCH_NODE";
    public static final String ENV_LOCAL_INDEX = "RINGWATCH_LOCAL_INDEX";

    private final Aeron aeron;
    private final AgentInvoker conductor;
    private final Subscription notifications;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer view;
    private final FailureHandler handler;
    private final FragmentHandler fragmentHandler = this::onNotification;
    private final int rank;
    private final int localIndex;
    private final int nodeRank;
    private final int processCount;
    private final JobLayout job;
    private final int bitmapOffset;
    private final int slotOffset;
    private final long[] known;
    private final int[] learned;
    private int learnedCount;
    private int ackedCount;
    private long lastViewSequence = -1;
    private long notificationSentNs;
    private long beats;

    private RingwatchClient(
        final String aeronDir, final int clusterId, final int nodeRank, final int localIndex,
        final FailureHandler handler, final ConductorMode conductorMode)
    {
        final File file = ProcessViewLayout.fileFor(aeronDir, clusterId, nodeRank);
        this.mapped = IoUtil.mapExistingFile(file, "ringwatch process view");
        this.view = new UnsafeBuffer(mapped);
        if (view.getLong(MAGIC_OFFSET, LITTLE_ENDIAN) != MAGIC || view.getInt(VERSION_OFFSET, LITTLE_ENDIAN) != VERSION)
        {
            IoUtil.unmap(mapped);
            throw new IllegalStateException(file + " is not a ringwatch process view of version " + VERSION);
        }
        final int localCount = view.getInt(LOCAL_COUNT_OFFSET, LITTLE_ENDIAN);
        if (localIndex < 0 || localIndex >= localCount)
        {
            IoUtil.unmap(mapped);
            throw new IllegalArgumentException("node " + nodeRank + " hosts " + localCount + " processes, not index " +
                localIndex);
        }
        this.handler = handler;
        this.nodeRank = nodeRank;
        this.localIndex = localIndex;
        this.processCount = view.getInt(PROCESS_COUNT_OFFSET, LITTLE_ENDIAN);
        final int nodeCount = view.getInt(NODE_COUNT_OFFSET, LITTLE_ENDIAN);
        final int table = ProcessViewLayout.jobTableOffset(localCount, processCount);
        final int[] counts = new int[nodeCount];
        for (int node = 0; node < nodeCount; node++)
        {
            counts[node] = view.getInt(table + (node + 1) * Integer.BYTES, LITTLE_ENDIAN) -
                view.getInt(table + node * Integer.BYTES, LITTLE_ENDIAN);
        }
        this.job = JobLayout.of(counts);
        this.rank = view.getInt(FIRST_LOCAL_OFFSET, LITTLE_ENDIAN) + localIndex;
        this.bitmapOffset = ProcessViewLayout.bitmapOffset(localCount);
        this.slotOffset = ProcessViewLayout.slotOffset(localIndex);
        this.known = new long[(processCount + 63) >>> 6];
        this.learned = new int[processCount];

        Aeron connected = null;
        try
        {
            connected = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)
                .useConductorAgentInvoker(conductorMode == ConductorMode.INVOKER));
            this.notifications = connected.addSubscription(
                NOTIFICATION_CHANNEL, ProcessViewLayout.notificationStreamId(clusterId, nodeRank));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(connected);
            IoUtil.unmap(mapped);
            throw ex;
        }
        this.aeron = connected;
        this.conductor = connected.conductorAgentInvoker();
        final long state = view.getLongVolatile(slotOffset + SLOT_STATE_OFFSET);
        if (state != SLOT_EMPTY && state != SLOT_LAUNCHED)
        {
            CloseHelper.quietClose(connected);
            IoUtil.unmap(mapped);
            throw new IllegalStateException("slot " + localIndex + " of node " + nodeRank + " is taken (state " +
                state + ")");
        }
        view.putLong(slotOffset + SLOT_PID_OFFSET, ProcessHandle.current().pid(), LITTLE_ENDIAN);
        view.putLongOrdered(slotOffset + SLOT_HEARTBEAT_OFFSET, ++beats);
        view.putLongVolatile(slotOffset + SLOT_STATE_OFFSET, SLOT_ATTACHED);
    }

    /**
     * Attach to the daemon of node {@code nodeRank} as its local process {@code localIndex}.
     *
     * @param aeronDir   the Aeron directory of the daemon.
     * @param clusterId  the cluster.
     * @param nodeRank   the daemon's node rank.
     * @param localIndex this process's index on the node.
     * @param handler    failure callbacks, called from {@link #poll()}.
     * @return the attached client.
     */
    public static RingwatchClient attach(
        final String aeronDir, final int clusterId, final int nodeRank, final int localIndex,
        final FailureHandler handler)
    {
        return attach(aeronDir, clusterId, nodeRank, localIndex, handler, ConductorMode.INVOKER);
    }

    /**
     * Attach to the daemon of node {@code nodeRank} as its local process {@code localIndex}.
     *
     * @param aeronDir      the Aeron directory of the daemon.
     * @param clusterId     the cluster.
     * @param nodeRank      the daemon's node rank.
     * @param localIndex    this process's index on the node.
     * @param handler       failure callbacks, called from {@link #poll()}.
     * @param conductorMode who runs the Aeron client's conductor.
     * @return the attached client.
     */
    public static RingwatchClient attach(
        final String aeronDir, final int clusterId, final int nodeRank, final int localIndex,
        final FailureHandler handler, final ConductorMode conductorMode)
    {
        return new RingwatchClient(aeronDir, clusterId, nodeRank, localIndex, handler, conductorMode);
    }

    /**
     * Attach as a process the daemon launched ({@code node --exec}): it passed where and who in the environment.
     *
     * @param handler failure callbacks, called from {@link #poll()}.
     * @return the attached client.
     * @throws IllegalStateException if the environment does not name a daemon.
     */
    public static RingwatchClient attachFromEnvironment(final FailureHandler handler)
    {
        final String dir = System.getenv(ENV_AERON_DIR);
        if (dir == null)
        {
            throw new IllegalStateException(ENV_AERON_DIR + " is not set: this process was not launched by a " +
                "ringwatch daemon (use attach(...) with explicit coordinates)");
        }
        return attach(dir, Integer.parseInt(System.getenv(ENV_CLUSTER_ID)), Integer.parseInt(System.getenv(ENV_NODE)),
            Integer.parseInt(System.getenv(ENV_LOCAL_INDEX)), handler);
    }

    /**
     * Deliver the failures learned since the last poll, and beat: the daemon's watchdog declares a process that
     * stops polling for longer than its timeout ({@code node --process-timeout}) dead, as it would a crashed one.
     *
     * @return number of failures delivered, 0 when there was nothing new.
     */
    public int poll()
    {
        view.putLongOrdered(slotOffset + SLOT_HEARTBEAT_OFFSET, ++beats);
        final int before = learnedCount;
        if (conductor != null)
        {
            // keepalives, and the image of the daemon's stream when it appears
            conductor.invoke();
        }
        notifications.poll(fragmentHandler, 16);
        final long sequence = view.getLongVolatile(SEQUENCE_OFFSET);
        if (sequence != lastViewSequence && (sequence & 1) == 0)
        {
            scanView(sequence);
        }
        return learnedCount - before;
    }

    private void onNotification(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length < NOTIFICATION_LENGTH)
        {
            return;
        }
        final int process = buffer.getInt(offset + NOTIFICATION_PROCESS_OFFSET, LITTLE_ENDIAN);
        if (process >= 0 && process < processCount)
        {
            notificationSentNs = buffer.getLong(offset + NOTIFICATION_DAEMON_NS_OFFSET, LITTLE_ENDIAN);
            learn(process, buffer.getInt(offset + NOTIFICATION_CAUSE_OFFSET, LITTLE_ENDIAN));
        }
    }

    private void scanView(final long sequence)
    {
        for (int word = 0; word < known.length; word++)
        {
            long fresh = view.getLong(bitmapOffset + word * 8, LITTLE_ENDIAN) & ~known[word];
            while (fresh != 0)
            {
                final int bit = Long.numberOfTrailingZeros(fresh);
                fresh &= fresh - 1;
                notificationSentNs = 0;
                learn(word * 64 + bit, 0);
            }
        }
        // bits are only ever set, so a scan torn by a concurrent update missed some at worst: look again next poll
        if (view.getLongVolatile(SEQUENCE_OFFSET) == sequence)
        {
            lastViewSequence = sequence;
        }
    }

    private void learn(final int process, final int cause)
    {
        final int word = process >>> 6;
        final long bit = 1L << (process & 63);
        if ((known[word] & bit) != 0)
        {
            return;
        }
        known[word] |= bit;
        learned[learnedCount++] = process;
        handler.onProcessFailure(process, cause);
    }

    /**
     * @param process an application rank.
     * @return true if the daemon's view holds it dead now (plain loads of the shared view; no poll needed).
     */
    public boolean isDead(final int process)
    {
        return (view.getLongVolatile(bitmapOffset + (process >>> 6) * 8) & (1L << (process & 63))) != 0;
    }

    /**
     * ULFM's failure_ack: the failures learned so far (through {@link #poll()}) are acknowledged.
     */
    public void ack()
    {
        ackedCount = learnedCount;
    }

    /**
     * ULFM's failure_get_acked: the failures acknowledged by the last {@link #ack()}, in the order learned.
     *
     * @param into where to copy them; at least {@link #ackedCount()} long.
     * @return how many were copied.
     */
    public int getAcked(final int[] into)
    {
        System.arraycopy(learned, 0, into, 0, ackedCount);
        return ackedCount;
    }

    /**
     * @return failures acknowledged by the last {@link #ack()}.
     */
    public int ackedCount()
    {
        return ackedCount;
    }

    /**
     * @return failures learned so far.
     */
    public int failedCount()
    {
        return learnedCount;
    }

    /**
     * @return the failures learned so far, in order, as a new array (not for the hot path).
     */
    public int[] failed()
    {
        return Arrays.copyOf(learned, learnedCount);
    }

    /**
     * @return during a {@link FailureHandler} callback from a notification, the daemon's {@code System.nanoTime()}
     * when it sent it (same host, same clock); 0 for a failure found in the view.
     */
    public long notificationSentNs()
    {
        return notificationSentNs;
    }

    /**
     * Say this process has finished its work: exiting with status 0 from now on is a departure, not a failure.
     */
    public void finish()
    {
        view.putLongVolatile(slotOffset + SLOT_STATE_OFFSET, SLOT_FINISHED);
    }

    /**
     * @return this process's application rank.
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @return its index on its node.
     */
    public int localIndex()
    {
        return localIndex;
    }

    /**
     * @return its node rank.
     */
    public int nodeRank()
    {
        return nodeRank;
    }

    /**
     * @return application processes in the job.
     */
    public int processCount()
    {
        return processCount;
    }

    /**
     * @param process an application rank.
     * @return its node rank.
     */
    public int nodeOf(final int process)
    {
        return job.nodeOf(process);
    }

    /**
     * @return the job: which node hosts which application ranks, as the daemon's view describes it.
     */
    public JobLayout job()
    {
        return job;
    }

    /**
     * Detach: close the subscription and unmap the view. The daemon keeps watching the process.
     */
    public void close()
    {
        CloseHelper.quietClose(aeron);
        IoUtil.unmap(mapped);
    }
}
