package io.ringwatch.transport.aeron.internal.slot;

import io.aeron.Publication;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.transport.aeron.internal.PeerPublications;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Heartbeats across hosts: one HEARTBEAT frame per beat on the observer's UDP heartbeat publication. A frame the
 * publication cannot take now (not connected yet, back pressure) is dropped: the next beat is at most η away. Each
 * frame is stamped (sequence, MAC) by the node's shared {@link FrameStamper} just before it is offered.
 */
public final class UdpHeartbeatSender implements HeartbeatSender
{
    private final PeerPublications publications;
    private final int clusterId;
    private final int rank;
    private final int incarnation;
    private final int configDigest;
    private final FrameStamper stamper;
    private final HeartbeatFlyweight frame = new HeartbeatFlyweight();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);

    /**
     * @param publications heartbeat publications, one per observer rank.
     * @param clusterId    cluster.
     * @param rank         this node.
     * @param incarnation  this node's incarnation.
     * @param configDigest this node's config digest.
     * @param stamper      the node's frame stamper, shared with its control channel.
     */
    public UdpHeartbeatSender(final PeerPublications publications, final int clusterId, final int rank,
        final int incarnation, final int configDigest, final FrameStamper stamper)
    {
        this.publications = publications;
        this.clusterId = clusterId;
        this.rank = rank;
        this.incarnation = incarnation;
        this.configDigest = configDigest;
        this.stamper = stamper;
    }

    /**
     * {@inheritDoc}
     */
    public boolean send(final int observerRank, final long counter, final long timestampNs)
    {
        final Publication publication = publications.get(observerRank);
        if (publication == null)
        {
            return false;
        }
        final int length = stamper.stamp(buffer, 0, frame.encode(
            buffer, 0, clusterId, rank, incarnation, observerRank, configDigest, counter, timestampNs));
        return publication.offer(buffer, 0, length) > 0;
    }
}
