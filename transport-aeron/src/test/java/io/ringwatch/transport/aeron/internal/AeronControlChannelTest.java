package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ReplayGuard;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The control channel over a real embedded media driver and IPC publications: what it sends decodes, frames that
 * cannot go yet wait in order, and frames that wait too long are dropped and counted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AeronControlChannelTest
{
    private static final int CLUSTER_ID = 31;
    private static final int N = 4;
    private static final int STREAM_BASE = 3100;
    private static final long RETRY_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private File dir;
    private MediaDriver driver;
    private Aeron aeron;
    private PeerPublications publications;
    private AeronControlChannel channel;
    private static final int DIGEST = ConfigDigest.of(CLUSTER_ID, N, 1_000_000L, 10_000_000L);
    private static final byte[] KEY = new byte[FrameAuthenticator.KEY_LENGTH];

    private final FrameStamper stamper = new FrameStamper(N, FrameAuthenticator.withKey(KEY));
    private final FrameDecoder[] decoders = new FrameDecoder[N];

    @BeforeEach
    void setUp()
    {
        dir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-control-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.getAbsolutePath()));
        final String[] channels = new String[N];
        final int[] streams = new int[N];
        for (int r = 0; r < N; r++)
        {
            channels[r] = "aeron:ipc";
            streams[r] = STREAM_BASE + r;
        }
        publications = new PeerPublications(aeron, channels, streams);
        channel = new AeronControlChannel(CLUSTER_ID, 0, 7, N, DIGEST, stamper, publications, 16, RETRY_TIMEOUT_NS);
        for (int r = 0; r < N; r++)
        {
            // each destination checks what it gets as a node would: MAC, digest, destination, replay window
            decoders[r] = new FrameDecoder(CLUSTER_ID, N, r, DIGEST, FrameAuthenticator.withKey(KEY), new ReplayGuard(N));
        }
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(channel, aeron, driver);
        IoUtil.delete(dir, true);
    }

    @Test
    void shouldSendFramesThatTheDecoderAcceptsInTheOrderTheyWereSent()
    {
        try (Subscription subscription = aeron.addSubscription("aeron:ipc", STREAM_BASE + 1))
        {
            final RankArray dead = new RankArray(4);
            dead.add(3);
            channel.nowNs(System.nanoTime());
            channel.sendNewObserver(1);
            channel.sendNotice(1, new ReusableNotice().set(3, 0, 7, 5, dead));
            channel.sendLeave(1);

            final List<String> received = receive(1, subscription, 3);

            assertEquals(List.of("type=" + FrameHeaderFlyweight.NEW_OBSERVER_TYPE + " emitter=1",
                "type=" + FrameHeaderFlyweight.FAILURE_NOTICE_TYPE + " dead=3 source=0 seq=5",
                "type=" + FrameHeaderFlyweight.LEAVE_TYPE), received);
            assertEquals(0, channel.dropped());
        }
    }

    @Test
    void shouldCarryTheLocalSlotDescriptorInNewObserverFramesOnceGiven()
    {
        try (Subscription subscription = aeron.addSubscription("aeron:ipc", STREAM_BASE + 1))
        {
            channel.nowNs(System.nanoTime());
            channel.sendNewObserver(1);
            channel.observerSlot(0x1234, 0x7f0000001040L, 64);
            channel.sendNewObserver(1);

            assertEquals(List.of("type=" + FrameHeaderFlyweight.NEW_OBSERVER_TYPE + " emitter=1",
                "type=" + FrameHeaderFlyweight.NEW_OBSERVER_TYPE + " emitter=1 slot=4660@0x7f0000001040/64"),
                receive(1, subscription, 2));
        }
    }

    @Test
    void shouldHoldFramesWhileThePeerIsNotConnectedAndDropThemAfterTheRetryTimeout()
    {
        // no subscriber on rank 2's stream: offers fail, so frames queue
        final long startNs = System.nanoTime();
        channel.nowNs(startNs);
        channel.sendNewObserver(2);
        channel.sendLeave(2);
        drainFor(startNs, TimeUnit.MILLISECONDS.toNanos(50));
        assertEquals(2, channel.queued(), "not connected yet: both frames wait");
        assertEquals(0, channel.dropped());

        channel.drain(startNs + RETRY_TIMEOUT_NS + 1);
        assertEquals(0, channel.queued());
        assertEquals(2, channel.dropped(), "waited past the retry timeout: dropped and counted");
    }

    /**
     * While the frames wait, the node's heartbeats to the same peer (same stamper, another stream) go out and arrive:
     * far more than a replay window of them. The queued frames must still be fresh when they finally go, because
     * they are stamped when offered, not when queued.
     */
    @Test
    void shouldDeliverQueuedFramesInOrderOnceThePeerConnects()
    {
        final long startNs = System.nanoTime();
        channel.nowNs(startNs);
        channel.sendNewObserver(3);
        channel.sendLeave(3);
        assertTrue(channel.queued() > 0, "the publication was not even registered: the first frame must wait");
        final UnsafeBuffer heartbeat = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);
        for (int i = 1; i <= 3 * ReplayGuard.WINDOW; i++)
        {
            final int length = stamper.stamp(heartbeat, 0,
                new HeartbeatFlyweight().encode(heartbeat, 0, CLUSTER_ID, 0, 7, 3, DIGEST, i, 0));
            assertEquals(RejectReason.NONE, decoders[3].decode(heartbeat, 0, length));
        }

        try (Subscription subscription = aeron.addSubscription("aeron:ipc", STREAM_BASE + 3))
        {
            final List<String> received = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received.size() < 2 && System.nanoTime() - deadline < 0)
            {
                channel.drain(startNs + 1);
                subscription.poll((buffer, offset, length, header) ->
                    received.add(describe(3, buffer, offset, length)), 10);
                Thread.onSpinWait();
            }
            assertEquals(List.of("type=" + FrameHeaderFlyweight.NEW_OBSERVER_TYPE + " emitter=3",
                "type=" + FrameHeaderFlyweight.LEAVE_TYPE), received);
            assertEquals(2, channel.retried());
            assertEquals(0, channel.dropped());
        }
    }

    private void drainFor(final long nowNs, final long durationNs)
    {
        final long deadline = System.nanoTime() + durationNs;
        while (System.nanoTime() - deadline < 0)
        {
            channel.drain(nowNs);
            Thread.onSpinWait();
        }
    }

    private List<String> receive(final int destination, final Subscription subscription, final int count)
    {
        final List<String> received = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (received.size() < count && System.nanoTime() - deadline < 0)
        {
            channel.drain(System.nanoTime());
            subscription.poll((buffer, offset, length, header) ->
                received.add(describe(destination, buffer, offset, length)), 10);
            Thread.onSpinWait();
        }
        return received;
    }

    private String describe(
        final int destination, final org.agrona.DirectBuffer buffer, final int offset, final int length)
    {
        final FrameDecoder decoder = decoders[destination];
        final RejectReason reason = decoder.decode(buffer, offset, length);
        assertEquals(RejectReason.NONE, reason);
        assertEquals(0, decoder.senderRank());
        assertEquals(7, decoder.senderIncarnation());
        return switch (decoder.type())
        {
            case FrameHeaderFlyweight.NEW_OBSERVER_TYPE -> "type=" + decoder.type() + " emitter=" +
                decoder.newObserverEmitterRank() + (decoder.rdmaAddress() == 0 && decoder.rdmaRkey() == 0 &&
                decoder.rdmaLength() == 0 ? "" : " slot=" + decoder.rdmaRkey() + "@0x" +
                Long.toHexString(decoder.rdmaAddress()) + "/" + decoder.rdmaLength());
            case FrameHeaderFlyweight.FAILURE_NOTICE_TYPE -> "type=" + decoder.type() + " dead=" +
                decoder.notice().deadRank() + " source=" + decoder.notice().sourceRank() + " seq=" +
                decoder.notice().sequence();
            default -> "type=" + decoder.type();
        };
    }
}
