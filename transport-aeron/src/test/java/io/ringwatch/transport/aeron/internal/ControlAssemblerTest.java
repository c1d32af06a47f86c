package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import io.ringwatch.core.codec.FrameDecoder;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The control stream's reassembly holds bounded memory whatever sessions a sender opens: slots are capped and
 * reused, a message past the longest frame is dropped, and an image's slot is freed when the image goes away.
 * Aeron's own assembler, under the same first fragments, keeps a buffer per session (the negative control).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControlAssemblerTest
{
    private static final int SLOTS = 8;
    private static final int SESSIONS = 2_000;
    private static final int FRAGMENT = 1024;

    @TempDir
    File dir;

    private final List<byte[]> delivered = new ArrayList<>();
    private final FragmentHandler collect = (buffer, offset, length, header) ->
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        delivered.add(bytes);
    };

    @Test
    void shouldHoldBoundedMemoryWhenManySessionsSendOnlyAFirstFragment()
    {
        final ControlAssembler assembler = new ControlAssembler(collect, FrameDecoder.MAX_FRAME_LENGTH, SLOTS);
        final long bounded = allocatedWhileFeedingFirstFragments(assembler);

        assertEquals(SLOTS, assembler.sessionsHeld());
        assertEquals(SESSIONS - SLOTS, assembler.evicted(), "every session past the cap evicted the idlest");
        assertEquals((long)SLOTS * FrameDecoder.MAX_FRAME_LENGTH, assembler.bytesAllocated());
        assertTrue(delivered.isEmpty());

        // negative control: Aeron's assembler keeps a builder per session for ever (on the heap here, so the thread's
        // allocation counter sees it; the agent used direct buffers, outside -Xmx)
        final long unbounded = allocatedWhileFeedingFirstFragments(new FragmentAssembler(collect, FRAGMENT, false));
        assertTrue(unbounded > (long)SESSIONS * FRAGMENT,
            "Aeron's FragmentAssembler allocated " + unbounded + " bytes for " + SESSIONS + " sessions");
        assertTrue(bounded < (long)SLOTS * FrameDecoder.MAX_FRAME_LENGTH + (1 << 20),
            "bounded reassembly allocated " + bounded + " bytes for " + SESSIONS + " sessions");
    }

    @Test
    void shouldDeliverInterleavedMessagesAndDropOnePastTheLongestFrame()
    {
        final ControlAssembler assembler = new ControlAssembler(collect, 3 * FRAGMENT, SLOTS);
        final byte[] a = pattern(2 * FRAGMENT, 1);
        final byte[] b = pattern(3 * FRAGMENT, 2);

        feed(assembler, 1, a, 0, FRAGMENT, 0, FrameDescriptor.BEGIN_FRAG_FLAG);
        feed(assembler, 2, b, 0, FRAGMENT, 0, FrameDescriptor.BEGIN_FRAG_FLAG);
        feed(assembler, 1, a, FRAGMENT, FRAGMENT, aligned(FRAGMENT), FrameDescriptor.END_FRAG_FLAG);
        feed(assembler, 2, b, FRAGMENT, FRAGMENT, aligned(FRAGMENT), (byte)0);
        feed(assembler, 2, b, 2 * FRAGMENT, FRAGMENT, 2 * aligned(FRAGMENT), FrameDescriptor.END_FRAG_FLAG);
        assertEquals(2, delivered.size());
        assertArrayEquals(a, delivered.get(0));
        assertArrayEquals(b, delivered.get(1));
        assertEquals(0, assembler.sessionsHeld(), "delivered messages free their slots");

        final byte[] c = pattern(4 * FRAGMENT, 3);
        for (int i = 0; i < 4; i++)
        {
            feed(assembler, 3, c, i * FRAGMENT, FRAGMENT, i * aligned(FRAGMENT),
                i == 0 ? FrameDescriptor.BEGIN_FRAG_FLAG : i == 3 ? FrameDescriptor.END_FRAG_FLAG : (byte)0);
        }
        assertEquals(2, delivered.size(), "a message past the longest frame is dropped");
        assertEquals(1, assembler.tooLong());
        assertEquals(0, assembler.sessionsHeld());
    }

    /**
     * With a real media driver: a message fragmented over UDP whose first fragment was read (the poll stopped
     * there) holds a slot; when its publication goes and the driver retires the image, the client's unavailable
     * image handler frees it.
     */
    @Test
    void shouldFreeASlotWhenItsImageGoesAway()
    {
        final ControlAssembler[] assembler = new ControlAssembler[1];
        final MediaDriver.Context driverContext = Drivers.lowFootprint(new File(dir, "aeron").getAbsolutePath())
            .imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(500))
            .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100));
        try (MediaDriver driver = MediaDriver.launch(driverContext);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
                .unavailableImageHandler((image) -> assembler[0].onUnavailableImage(image.sessionId())));
            Subscription subscription = aeron.addSubscription("aeron:udp?endpoint=127.0.0.1:0", 77))
        {
            assertTrue(await(() -> subscription.resolvedEndpoint() != null));
            final ExclusivePublication publication = aeron.addExclusivePublication(
                "aeron:udp?endpoint=" + subscription.resolvedEndpoint() + "|mtu=1408", 77);
            // only first fragments reach the assembler: the rest of each message is read and not handed on
            final FragmentHandler firstFragmentsOnly = (buffer, offset, length, header) ->
            {
                if ((header.flags() & FrameDescriptor.BEGIN_FRAG_FLAG) != 0)
                {
                    assembler[0].onFragment(buffer, offset, length, header);
                }
            };
            assembler[0] = new ControlAssembler(collect, FrameDecoder.MAX_FRAME_LENGTH, SLOTS);
            assertTrue(await(publication::isConnected));
            final UnsafeBuffer message = new UnsafeBuffer(pattern(5000, 4));
            assertTrue(await(() -> publication.offer(message) > 0));
            assertTrue(await(() ->
            {
                subscription.poll(firstFragmentsOnly, 10);
                return assembler[0].sessionsHeld() == 1;
            }), "the first fragment took a slot");

            CloseHelper.close(publication);
            // the client's conductor thread runs the unavailable-image handler here (the agent's, live): wait for
            // both of its writes, not only the first
            assertTrue(await(() ->
            {
                subscription.poll(firstFragmentsOnly, 10);
                return assembler[0].sessionsHeld() == 0 && assembler[0].freedOnImageLoss() == 1;
            }), "the image went away and its slot with it");
            assertEquals(1, assembler[0].freedOnImageLoss());
            assertTrue(delivered.isEmpty());
        }
    }

    private long allocatedWhileFeedingFirstFragments(final FragmentHandler handler)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final byte[] payload = pattern(FRAGMENT, 5);
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int session = 1; session <= SESSIONS; session++)
        {
            feed(handler, session, payload, 0, FRAGMENT, 0, FrameDescriptor.BEGIN_FRAG_FLAG);
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH + 4 * FRAGMENT]);
    private final DataHeaderFlyweight data = new DataHeaderFlyweight(frame);
    private final Header header = new Header(0, 16);

    /** One DATA fragment of {@code sessionId}, as a subscription hands it over. */
    private void feed(
        final FragmentHandler handler,
        final int sessionId,
        final byte[] message,
        final int from,
        final int length,
        final int termOffset,
        final byte flags)
    {
        data.frameLength(DataHeaderFlyweight.HEADER_LENGTH + length);
        data.flags(flags);
        data.headerType(DataHeaderFlyweight.HDR_TYPE_DATA);
        data.termOffset(termOffset);
        data.sessionId(sessionId);
        data.streamId(77);
        frame.putBytes(DataHeaderFlyweight.HEADER_LENGTH, message, from, length);
        header.buffer(frame);
        header.offset(0);
        handler.onFragment(frame, DataHeaderFlyweight.HEADER_LENGTH, length, header);
    }

    private static int aligned(final int payload)
    {
        return org.agrona.BitUtil.align(DataHeaderFlyweight.HEADER_LENGTH + payload, FrameDescriptor.FRAME_ALIGNMENT);
    }

    private static byte[] pattern(final int length, final int seed)
    {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(seed * 31 + i);
        }
        return bytes;
    }

    private static boolean await(final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            Thread.yield();
        }
        return true;
    }
}
