package io.ringwatch.transport.aeron.internal;

import io.aeron.Publication;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.JoinChallengeFlyweight;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.core.codec.ViewFlyweight;
import io.ringwatch.core.codec.ProbeFlyweight;
import io.ringwatch.core.codec.ProcessFailureFlyweight;
import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.process.ProcessNoticeChannel;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Control and notice frames on Aeron publications. Sends never block: a frame that cannot be offered now (peer
 * publication still registering, back pressure, not yet connected) waits in a bounded {@link RetryQueue}, drained
 * at the start of every duty cycle, and is dropped and counted when the queue is full or the frame has waited
 * longer than the retry timeout. Frames to one destination keep their order.
 * <p>
 * Every frame is stamped (frame sequence, MAC) by the node's {@link FrameStamper} just before each offer, so one that
 * waited in the queue goes out with a current sequence rather than one its receiver's replay window has passed.
 */
public final class AeronControlChannel implements ControlChannel, ProcessNoticeChannel, AutoCloseable
{
    private final int clusterId;
    private final int rank;
    private final long incarnation;
    private final int configDigest;
    private final FrameStamper stamper;
    private final PeerPublications publications;
    private final RetryQueue queue;
    private final long retryTimeoutNs;
    private final UnsafeBuffer sendBuffer;
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final LeaveFlyweight leaveFrame = new LeaveFlyweight();
    private final FailureNoticeFlyweight noticeFrame = new FailureNoticeFlyweight();
    private final JoinChallengeFlyweight challengeFrame = new JoinChallengeFlyweight();
    private final ViewFlyweight viewFrame = new ViewFlyweight();
    private final ProbeFlyweight probeFrame = new ProbeFlyweight();
    private final ProcessFailureFlyweight processFrame = new ProcessFailureFlyweight();
    private final long[] blockedInPass;
    private FrameDecoder runDecoder;
    private int slotRkey;
    private long slotAddress;
    private int slotLength;
    private long pass;
    private long nowNs;
    private long sent;
    private long dropped;
    private long retried;

    public AeronControlChannel(
        final int clusterId,
        final int rank,
        final long incarnation,
        final int clusterSize,
        final int configDigest,
        final FrameStamper stamper,
        final PeerPublications publications,
        final int queueCapacity,
        final long retryTimeoutNs)
    {
        this.clusterId = clusterId;
        this.rank = rank;
        this.incarnation = incarnation;
        this.configDigest = configDigest;
        this.stamper = stamper;
        this.publications = publications;
        this.retryTimeoutNs = retryTimeoutNs;
        this.sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
            BitUtil.align(FrameDecoder.MAX_FRAME_LENGTH, BitUtil.CACHE_LINE_LENGTH)));
        // most notices in clusters with few dead runs are tiny; only those fit the queue, larger ones go direct
        this.queue = new RetryQueue(queueCapacity, 512, clusterSize);
        this.blockedInPass = new long[clusterSize];
    }

    /**
     * Describe this node's heartbeat slot in every NEW_OBSERVER it sends (RDMA: where the new emitter must write);
     * without it the frame carries zeros. Set once, before the agent starts.
     *
     * @param rkey    remote key of the slot.
     * @param address address of the slot.
     * @param length  registered length of the slot.
     * @return this.
     */
    public AeronControlChannel observerSlot(final int rkey, final long address, final int length)
    {
        this.slotRkey = rkey;
        this.slotAddress = address;
        this.slotLength = length;
        return this;
    }

    /**
     * @param nowNs the duty cycle's time, for queue ageing.
     */
    public void nowNs(final long nowNs)
    {
        this.nowNs = nowNs;
    }

    /**
     * {@inheritDoc}
     */
    public void sendNewObserver(final int emitterRank)
    {
        send(emitterRank, newObserver.encode(sendBuffer, 0, clusterId, rank, incarnation, configDigest, emitterRank,
            slotRkey, slotAddress, slotLength));
    }

    /**
     * {@inheritDoc}
     */
    public void sendLeave(final int observerRank)
    {
        send(observerRank, leaveFrame.encode(sendBuffer, 0, clusterId, rank, incarnation, observerRank, configDigest));
    }

    /**
     * {@inheritDoc}
     */
    public void sendProbe(final int toRank, final long token)
    {
        sendProbeLayout(FrameHeaderFlyweight.PROBE_TYPE, toRank, token);
    }

    /**
     * {@inheritDoc}
     */
    public void sendProbeAck(final int toRank, final long token)
    {
        sendProbeLayout(FrameHeaderFlyweight.PROBE_ACK_TYPE, toRank, token);
    }

    /**
     * {@inheritDoc}
     */
    public void sendViewDigest(final int toRank, final long digest)
    {
        sendProbeLayout(FrameHeaderFlyweight.VIEW_DIGEST_TYPE, toRank, digest);
    }

    /**
     * {@inheritDoc}
     */
    public void sendReformPoll(final int toRank, final long token)
    {
        sendProbeLayout(FrameHeaderFlyweight.REFORM_POLL_TYPE, toRank, token);
    }

    // PROBE, PROBE_ACK, VIEW_DIGEST, the re-form poll and answer and the join challenge and proof share one layout
    private void sendProbeLayout(final int type, final int toRank, final long token)
    {
        send(toRank, probeFrame.encode(sendBuffer, 0, type, clusterId, rank, incarnation, toRank, configDigest, token));
    }

    /**
     * {@inheritDoc}
     */
    public void sendReformAck(final int toRank, final long token)
    {
        sendProbeLayout(FrameHeaderFlyweight.REFORM_ACK_TYPE, toRank, token);
    }

    /**
     * {@inheritDoc}
     */
    public void sendNotice(final int toRank, final Notice notice)
    {
        send(toRank, noticeFrame.encode(sendBuffer, 0, clusterId, rank, incarnation, toRank, configDigest, notice));
    }

    /**
     * {@inheritDoc}
     */
    public void sendJoinRequest(final int contactRank, final long joinerNonce)
    {
        sendProbeLayout(FrameHeaderFlyweight.JOIN_REQUEST_TYPE, contactRank, joinerNonce);
    }

    /**
     * {@inheritDoc}
     */
    public void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
    {
        send(joinerRank, challengeFrame.encode(
            sendBuffer, 0, clusterId, rank, incarnation, joinerRank, configDigest, nonce, joinerNonce));
    }

    /**
     * The node's decoder, which {@link #bindRun} binds with the stamper; set once, before the agent starts.
     *
     * @param decoder the node's decoder.
     * @return this.
     */
    public AeronControlChannel runDecoder(final FrameDecoder decoder)
    {
        this.runDecoder = decoder;
        return this;
    }

    /**
     * {@inheritDoc}
     * <p>
     * On the agent thread, between frames: heartbeats and control frames go out under the new run from the next
     * stamp on, queued ones included (they are stamped when offered).
     */
    public void bindRun(final long run, final boolean adoptHigher)
    {
        stamper.run(run);
        if (runDecoder != null)
        {
            runDecoder.bindRun(run, adoptHigher);
        }
    }

    /**
     * @return the run this node's frames are stamped with, 0 until the protocol binds one.
     */
    public long run()
    {
        return stamper.run();
    }

    /**
     * {@inheritDoc}
     */
    public void sendJoinProof(final int contactRank, final long nonce)
    {
        sendProbeLayout(FrameHeaderFlyweight.JOIN_PROOF_TYPE, contactRank, nonce);
    }

    /**
     * {@inheritDoc}
     */
    public void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations incarnations)
    {
        send(joinerRank, viewFrame.encode(sendBuffer, 0, clusterId, rank, incarnation, joinerRank, configDigest,
            deadSet, incarnations));
    }

    /**
     * {@inheritDoc}
     */
    public void sendProcessNotice(final int toRank, final ProcessNotice notice)
    {
        send(toRank, processFrame.encode(sendBuffer, 0, clusterId, rank, incarnation, toRank, configDigest, notice));
    }

    private void send(final int to, final int length)
    {
        if (length <= 0)
        {
            dropped++;
            return;
        }
        if (!queue.hasQueuedFor(to))
        {
            final Publication publication = publications.get(to);
            if (publication != null && length > publication.maxMessageLength())
            {
                // only a notice with a pathologically fragmented dead set gets here; offer would throw
                dropped++;
                return;
            }
            if (publication != null && stamper.stamp(sendBuffer, 0, length) > 0 &&
                publication.offer(sendBuffer, 0, length) > 0)
            {
                sent++;
                return;
            }
        }
        if (!queue.offer(to, sendBuffer, 0, length, nowNs))
        {
            dropped++;
        }
    }

    /**
     * Retry queued frames once each.
     *
     * @param nowNs the duty cycle's time.
     * @return frames sent or dropped.
     */
    public int drain(final long nowNs)
    {
        this.nowNs = nowNs;
        final int count = queue.size();
        if (count == 0)
        {
            return 0;
        }
        pass++;
        int work = 0;
        for (int i = 0; i < count; i++)
        {
            final int to = queue.headDestination();
            if (nowNs - queue.headEnqueuedAtNs() > retryTimeoutNs)
            {
                queue.pop();
                dropped++;
                work++;
                continue;
            }
            if (blockedInPass[to] != pass)
            {
                final Publication publication = publications.get(to);
                if (publication != null &&
                    stamper.stamp(queue.buffer(), queue.headOffset(), queue.headLength()) > 0 &&
                    publication.offer(queue.buffer(), queue.headOffset(), queue.headLength()) > 0)
                {
                    queue.pop();
                    retried++;
                    sent++;
                    work++;
                    continue;
                }
                blockedInPass[to] = pass;
            }
            queue.rotate();
        }
        return work;
    }

    /**
     * @return frames handed to Aeron.
     */
    public long sent()
    {
        return sent;
    }

    /**
     * @return frames dropped: queue full, waited too long, or unencodable.
     */
    public long dropped()
    {
        return dropped;
    }

    /**
     * @return frames sent only after waiting in the queue.
     */
    public long retried()
    {
        return retried;
    }

    /**
     * @return frames waiting.
     */
    public int queued()
    {
        return queue.size();
    }

    /**
     * Close the peer publications.
     */
    public void close()
    {
        publications.close();
    }
}
