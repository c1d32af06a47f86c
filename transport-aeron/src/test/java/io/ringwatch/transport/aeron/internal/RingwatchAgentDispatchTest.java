package io.ringwatch.transport.aeron.internal;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import io.ringwatch.transport.aeron.EmbeddedCluster;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's dispatch, driven frame by frame: frames are offered on a real IPC publication to one node's control
 * stream, and what the node does is read from its protocol object and from what it sends. The agent decodes and
 * hands over; whether a frame counts is the core's decision, and this shows the live path reaches it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RingwatchAgentDispatchTest
{
    private static final int CLUSTER_ID = 41;
    private static final int INCARNATION = 9;

    private EmbeddedCluster cluster;
    private Aeron aeron;
    private Publication toNode0;
    private Subscription rank2Inbox;
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final FrameStamper stamper = new FrameStamper(4, FrameAuthenticator.NONE);
    private int digest;

    @BeforeEach
    void setUp()
    {
        // δ long enough that nobody suspects anyone while the test runs node 0 alone
        cluster = new EmbeddedCluster(4, CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(30));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
        final ClusterChannels channels = new ClusterChannels(cluster.nodes[0].context());
        digest = cluster.nodes[0].context().configDigest();
        toNode0 = aeron.addPublication(channels.controlChannel(0), channels.controlStream(0));
        rank2Inbox = aeron.addSubscription(channels.controlChannel(2), channels.controlStream(2));
        runNode0Until(toNode0::isConnected, "test publication connects to node 0");
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(rank2Inbox, toNode0, aeron, cluster);
    }

    @Test
    void shouldCountFramesTheDecoderRejectsAndGoOn()
    {
        buffer.setMemory(0, 24, (byte)0x5A);
        offer(24);

        runNode0Until(() -> NodeInternals.agent(cluster.nodes[0]).counters().rejectedTotal() == 1, "one frame rejected");
        long byReason = 0;
        for (final RejectReason reason : RejectReason.values())
        {
            byReason += NodeInternals.agent(cluster.nodes[0]).counters().rejected(reason);
        }
        assertEquals(1, byReason, "counted under exactly one reason");
        assertTrue(NodeInternals.agent(cluster.nodes[0]).node().isAlive(1), "a rejected frame changes nothing");
    }

    @Test
    void shouldRejectAFrameAddressedToAnotherRankBeforeTheCoreSeesIt()
    {
        offer(stamper.stamp(buffer, 0, new NewObserverFlyweight().encode(buffer, 0, CLUSTER_ID, 1, INCARNATION,
            digest, 3)));

        final DetectorNode node = NodeInternals.agent(cluster.nodes[0]).node();
        runNode0Until(() -> NodeInternals.agent(cluster.nodes[0]).counters().rejected(RejectReason.WRONG_DESTINATION) == 1,
            "NEW_OBSERVER for rank 3 rejected by node 0's decoder");
        assertEquals(0, node.counter(ProtocolCounter.MISADDRESSED), "it never reached the core");
        assertEquals(1, node.observer(), "the observer did not change");
    }

    @Test
    void shouldFenceASenderTheNodeHoldsDead()
    {
        final RankArray dead = new RankArray(4);
        dead.add(2);
        offer(stamper.stamp(buffer, 0, new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 1, INCARNATION, 0,
            digest, new ReusableNotice().set(2, 1, INCARNATION, 1, dead))));
        final DetectorNode node = NodeInternals.agent(cluster.nodes[0]).node();
        runNode0Until(() -> !node.isAlive(2), "node 0 learns from rank 1's notice that rank 2 is dead");

        offer(stamper.stamp(buffer, 0, new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 2, INCARNATION, 0, digest)));
        runNode0Until(() -> node.counter(ProtocolCounter.FENCES_SENT) == 1, "node 0 fences rank 2");
        assertEquals(1, node.counter(ProtocolCounter.FRAMES_FROM_DEAD));

        final FrameDecoder decoder = new FrameDecoder(CLUSTER_ID, 4);
        final List<String> fences = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (fences.isEmpty() && System.nanoTime() - deadline < 0)
        {
            NodeInternals.agent(cluster.nodes[0]).doWork();
            rank2Inbox.poll((b, offset, length, header) ->
            {
                if (decoder.decode(b, offset, length) == RejectReason.NONE &&
                    decoder.type() == FrameHeaderFlyweight.FAILURE_NOTICE_TYPE &&
                    decoder.notice().sequence() >= NoticeSequences.FENCE_BASE)
                {
                    fences.add("from " + decoder.senderRank() + " naming " + decoder.notice().deadRank());
                }
            }, 10);
        }
        assertEquals(List.of("from 0 naming 2"), fences);
    }

    private void offer(final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (toNode0.offer(buffer, 0, length) < 0)
        {
            assertTrue(System.nanoTime() - deadline < 0, "could not offer a frame to node 0");
            NodeInternals.agent(cluster.nodes[0]).doWork();
        }
    }

    private void runNode0Until(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting: " + what);
            NodeInternals.agent(cluster.nodes[0]).doWork();
            Thread.onSpinWait();
        }
    }
}
