package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.transport.aeron.Await;
import io.ringwatch.transport.aeron.launch.FreePorts;
import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Control stream ids derived from the cluster key, and a key rotation carried out on a live UDP endpoint: at every
 * step a sender under its primary key's id reaches a receiver subscribed under every key of its keyring.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControlStreamsTest
{
    private static final int CLUSTER_ID = 77;
    private static final byte[] OLD = key(1);
    private static final byte[] NEW = key(2);

    private File dir;
    private MediaDriver driver;
    private Aeron aeron;
    private String channel;
    private ControlStreams receiver;
    private PeerPublications sender;
    private final List<String> received = new ArrayList<>();
    private final FragmentHandler collect = (buffer, offset, length, header) ->
        received.add(buffer.getStringWithoutLengthAscii(offset, length));

    @BeforeEach
    void setUp()
    {
        dir = new File(new File("/dev/shm").isDirectory() ? "/dev/shm" : IoUtil.tmpDirName(),
            "ringwatch-streams-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        driver = MediaDriver.launch(Drivers.lowFootprint(dir.getAbsolutePath()));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.getAbsolutePath()));
        channel = "aeron:udp?endpoint=127.0.0.1:" + FreePorts.udp(1)[0];
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(receiver, sender, aeron, driver);
        IoUtil.delete(dir, true);
    }

    @Test
    void shouldDeriveIdsThatDependOnKeyAndClusterAndAreStable()
    {
        final int id = ControlStreams.streamId(OLD, CLUSTER_ID);
        assertEquals(id, ControlStreams.streamId(OLD.clone(), CLUSTER_ID), "a function of key and cluster id");
        assertNotEquals(id, ControlStreams.streamId(NEW, CLUSTER_ID), "another key, another id");
        assertNotEquals(id, ControlStreams.streamId(OLD, CLUSTER_ID + 1), "another cluster, another id");
        assertArrayEquals(new int[] {id, ControlStreams.streamId(NEW, CLUSTER_ID)},
            ControlStreams.streamIds(List.of(OLD, NEW), CLUSTER_ID), "the primary's first");
        assertArrayEquals(new int[] {id}, ControlStreams.streamIds(List.of(OLD, OLD.clone()), CLUSTER_ID),
            "no repeats");
        // authentication off: still a function of the cluster id, under an all-zero key anyone can use
        final int[] off = ControlStreams.streamIds(List.of(), CLUSTER_ID);
        assertEquals(1, off.length);
        assertEquals(ControlStreams.streamId(new byte[FrameAuthenticator.KEY_LENGTH], CLUSTER_ID), off[0]);
        assertNotEquals(off[0], ControlStreams.streamIds(List.of(), CLUSTER_ID + 1)[0]);
    }

    @Test
    void shouldKeepSendersAndReceiversOnACommonStreamThroughARotation()
    {
        // [old] everywhere
        receiver = new ControlStreams(aeron, channel, ControlStreams.streamIds(List.of(OLD), CLUSTER_ID),
            new PeerPublications(aeron, new String[] {channel}, new int[] {idOf(OLD)}));
        sender = new PeerPublications(aeron, new String[] {channel}, new int[] {idOf(OLD)});
        assertDelivered("under [old]");

        // the receiver takes [old, new], the sender still signs with old
        receiver.rekey(ControlStreams.streamIds(List.of(OLD, NEW), CLUSTER_ID));
        assertDelivered("sender [old], receiver [old, new]");
        assertArrayEquals(sorted(idOf(OLD), idOf(NEW)), sorted(receiver.subscribedStreamIds()));

        // the sender's primary becomes new
        sender.retarget(idOf(NEW));
        assertDelivered("sender [new, old], receiver [old, new]");

        // the old key retired at the receiver: the new stream still arrives, the old one no longer does
        receiver.rekey(ControlStreams.streamIds(List.of(NEW), CLUSTER_ID));
        assertDelivered("sender [new], receiver [new]");
        assertArrayEquals(new int[] {idOf(NEW)}, receiver.subscribedStreamIds());
        try (Publication stale = aeron.addPublication(channel, idOf(OLD)))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() - deadline < 0)
            {
                receiver.poll(collect, 10);
                assertFalse(stale.isConnected(), "nobody subscribes under the retired key's id any more");
            }
        }
    }

    private void assertDelivered(final String step)
    {
        final String message = step + " " + System.nanoTime();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[message.length()]);
        buffer.putStringWithoutLengthAscii(0, message);
        received.clear();
        Await.until(10, () ->
        {
            receiver.poll(collect, 10);
            final Publication publication = sender.get(0);
            return publication != null && publication.offer(buffer, 0, message.length()) > 0;
        }, "offered: " + step);
        Await.until(10, () ->
        {
            receiver.poll(collect, 10);
            return received.contains(message);
        }, "received: " + step);
    }

    private static int idOf(final byte[] key)
    {
        return ControlStreams.streamId(key, CLUSTER_ID);
    }

    private static int[] sorted(final int... ids)
    {
        final int[] sorted = ids.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    private static byte[] key(final int fill)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        Arrays.fill(key, (byte)fill);
        return key;
    }
}
