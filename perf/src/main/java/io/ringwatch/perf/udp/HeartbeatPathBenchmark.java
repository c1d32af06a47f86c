package io.ringwatch.perf.udp;

import io.aeron.Aeron;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.ReceiverHwm;
import io.aeron.driver.status.ReceiverPos;
import io.aeron.logbuffer.FragmentHandler;
import io.ringwatch.transport.aeron.RingwatchDriver;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.HdrHistogram.Histogram;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Head to head of the two ways an observer can learn that a UDP heartbeat arrived, on the same frames: polling the
 * subscription (what ringwatch does: the frame handler deposits the counter into the slot), or loading the image's
 * receiver position from the driver's counters without polling, both the high-water mark ({@code rcv-hwm}, moved by
 * the receiver thread) and the rebuild position ({@code rcv-pos}, moved by the conductor).
 * <p>
 * One emitter thread offers a fixed-size frame every period and notes when; one observer thread spins over the three
 * checks in rotating order and records, for each, how long after the offer it first saw each frame. Every frame is
 * 64 bytes in the log (32-byte header, 8-byte payload, aligned), so a position names the newest frame it covers.
 */
public final class HeartbeatPathBenchmark
{
    /** Bytes one frame takes in the log. */
    static final int FRAME_LENGTH = 64;
    private static final int STREAM_ID = 7;

    private final int frames;
    private final long periodNs;

    /**
     * @param frames   heartbeats to send.
     * @param periodNs time between them.
     */
    public HeartbeatPathBenchmark(final int frames, final long periodNs)
    {
        this.frames = frames;
        this.periodNs = periodNs;
    }

    /**
     * What each path saw, in nanoseconds after the offer.
     *
     * @param poll    subscription poll (ringwatch's path).
     * @param hwm     receiver high-water-mark counter.
     * @param rebuild receiver rebuild-position counter.
     */
    public record Result(Histogram poll, Histogram hwm, Histogram rebuild)
    {
    }

    /**
     * @return latencies per path.
     * @throws InterruptedException if interrupted.
     */
    public Result run() throws InterruptedException
    {
        final File dir = new File(IoUtil.tmpDirName(), "ringwatch-heartbeat-path-" + ProcessHandle.current().pid());
        final String channel = "aeron:udp?endpoint=localhost:" + FreePorts.udp(1)[0] + "|term-length=64k";
        final AtomicLongArray sentAtNs = new AtomicLongArray(frames);
        final Histogram poll = new Histogram(3);
        final Histogram hwm = new Histogram(3);
        final Histogram rebuild = new Histogram(3);

        try (MediaDriver driver = RingwatchDriver.launch(dir.getAbsolutePath());
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            Subscription subscription = aeron.addSubscription(channel, STREAM_ID);
            Publication publication = aeron.addPublication(channel, STREAM_ID))
        {
            while (!publication.isConnected() || subscription.imageCount() == 0)
            {
                Thread.sleep(1);
            }
            final Image image = subscription.imageAtIndex(0);
            final CountersReader counters = aeron.countersReader();
            final int hwmId = findCounter(counters, ReceiverHwm.RECEIVER_HWM_TYPE_ID, image.sessionId());
            final int rebuildId = findCounter(counters, ReceiverPos.RECEIVER_POS_TYPE_ID, image.sessionId());
            final long basePosition = image.joinPosition();

            final Thread emitter = new Thread(() -> emit(publication, sentAtNs), "heartbeat-path-emitter");
            emitter.start();
            observe(subscription, counters, hwmId, rebuildId, basePosition, sentAtNs, poll, hwm, rebuild);
            emitter.join();
        }
        finally
        {
            IoUtil.delete(dir, true);
        }
        return new Result(poll, hwm, rebuild);
    }

    private void emit(final Publication publication, final AtomicLongArray sentAtNs)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(8));
        long next = System.nanoTime();
        for (int i = 0; i < frames; i++)
        {
            next += periodNs;
            while (System.nanoTime() - next < 0)
            {
                Thread.onSpinWait();
            }
            frame.putLong(0, i);
            final long now = System.nanoTime();
            sentAtNs.set(i, now);
            while (publication.offer(frame, 0, 8) < 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    private void observe(
        final Subscription subscription,
        final CountersReader counters,
        final int hwmId,
        final int rebuildId,
        final long basePosition,
        final AtomicLongArray sentAtNs,
        final Histogram poll,
        final Histogram hwm,
        final Histogram rebuild)
    {
        final int[] newestPolled = {-1};
        final FragmentHandler handler = (buffer, offset, length, header) ->
            newestPolled[0] = Math.max(newestPolled[0], (int)buffer.getLong(offset));
        int seenByPoll = -1;
        int seenByHwm = -1;
        int seenByRebuild = -1;
        final long deadline = System.nanoTime() + frames * periodNs + TimeUnit.SECONDS.toNanos(10);
        long iteration = 0;
        while ((seenByPoll < frames - 1 || seenByHwm < frames - 1 || seenByRebuild < frames - 1) &&
            System.nanoTime() - deadline < 0)
        {
            // rotate which check goes first so none is favoured by the loop's order
            for (int k = 0; k < 3; k++)
            {
                switch ((int)((iteration + k) % 3))
                {
                    case 0:
                        subscription.poll(handler, 16);
                        seenByPoll = record(newestPolled[0], seenByPoll, sentAtNs, poll);
                        break;
                    case 1:
                        seenByHwm = record(newestFrame(counters.getCounterValue(hwmId), basePosition), seenByHwm,
                            sentAtNs, hwm);
                        break;
                    default:
                        seenByRebuild = record(newestFrame(counters.getCounterValue(rebuildId), basePosition),
                            seenByRebuild, sentAtNs, rebuild);
                }
            }
            iteration++;
        }
    }

    private int newestFrame(final long position, final long basePosition)
    {
        return Math.min(frames - 1, (int)((position - basePosition) / FRAME_LENGTH) - 1);
    }

    /**
     * What a detector cares about is when it first learns of any progress, so each path records, whenever it
     * moves, the age of the newest frame it now covers; frames it skipped over are not samples.
     */
    private static int record(final int newest, final int seen, final AtomicLongArray sentAtNs, final Histogram into)
    {
        if (newest > seen)
        {
            into.recordValue(Math.max(0, System.nanoTime() - sentAtNs.get(newest)));
            return newest;
        }
        return seen;
    }

    private static int findCounter(final CountersReader counters, final int typeId, final int sessionId)
    {
        final int[] found = {CountersReader.NULL_COUNTER_ID};
        // stream counters key: registration id (8 bytes), session id (4), stream id (4)
        counters.forEach((counterId, type, key, label) ->
        {
            if (type == typeId && key.getInt(8) == sessionId && key.getInt(12) == STREAM_ID)
            {
                found[0] = counterId;
            }
        });
        if (found[0] == CountersReader.NULL_COUNTER_ID)
        {
            throw new IllegalStateException("no counter of type " + typeId + " for session " + sessionId);
        }
        return found[0];
    }
}
