package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The simulated network as the node being called sees it: its heartbeat slot, its outgoing messages, which take
 * their delivery time from the {@link Network} and become events, and the frames those events stand for when they
 * arrive, decoded by the {@link Wire}. One instance serves all nodes (the simulator points it at the node it calls), which saves an object and a
 * cache miss per node call at 256k nodes. Counts every message by kind for the result.
 */
final class NodePort implements HeartbeatChannel, ControlChannel
{
    private final EventQueue queue;
    private final Network network;
    private final GroundTruth truth;
    private final DetectorNode[] nodes;
    private final JoinSpreadCheck joinSpread;
    private final boolean onePort;
    private final Wire wire;
    private final Forgery forgery;
    private final SimFrame forgedFrame = new SimFrame();
    private int rank = -1;
    private long nowNs;
    private SimNotice lastSnapshot;
    // the notice being delivered: what the receiver forwards, unchanged, while it handles it
    private SimNotice delivered;

    long heartbeatMessages;
    long newObserverMessages;
    long noticeMessages;
    long leaveMessages;
    long probeMessages;
    long viewDigestMessages;
    long lostMessages;
    long vanishedMessages;

    NodePort(
        final EventQueue queue,
        final Network network,
        final GroundTruth truth,
        final DetectorNode[] nodes,
        final JoinSpreadCheck joinSpread,
        final boolean onePort,
        final Wire wire,
        final Forgery forgery)
    {
        this.queue = queue;
        this.network = network;
        this.truth = truth;
        this.nodes = nodes;
        this.joinSpread = joinSpread;
        this.onePort = onePort;
        this.wire = wire;
        this.forgery = forgery;
    }

    /**
     * @param nowNs the virtual time of the event being handled: every message sent while handling it leaves then.
     */
    void time(final long nowNs)
    {
        this.nowNs = nowNs;
        delivered = null;
    }

    /**
     * @param rank the node the simulator calls next: every channel call it makes speaks for it.
     */
    void enter(final int rank)
    {
        this.rank = rank;
    }

    /**
     * @return the node being called.
     */
    int rank()
    {
        return rank;
    }

    public void writeHeartbeat(final int observerRank, final long counter)
    {
        heartbeatMessages++;
        send(EventQueue.HEARTBEAT, rank, observerRank, counter, null);
    }

    public long readHeartbeat(final int emitterRank)
    {
        return truth.slotWriter(rank) == emitterRank ? truth.slotCounter(rank) : NO_HEARTBEAT;
    }

    public int lastWriter()
    {
        return truth.slotWriter(rank);
    }

    public void sendNewObserver(final int emitterRank)
    {
        newObserverMessages++;
        sendControl(EventQueue.NEW_OBSERVER, emitterRank, null);
    }

    public void sendLeave(final int observerRank)
    {
        leaveMessages++;
        sendControl(EventQueue.LEAVE_MESSAGE, observerRank, null);
    }

    // a nonce is 64 bits: it travels as the event's reference, as a view digest does
    public void sendJoinRequest(final int contactRank, final long joinerNonce)
    {
        sendControl(EventQueue.JOIN_REQUEST, contactRank, joinerNonce);
    }

    public void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
    {
        sendControl(EventQueue.JOIN_CHALLENGE, joinerRank, new long[]{nonce, joinerNonce});
    }

    /**
     * Frames are stamped when delivered, with the run their sender holds then (as they take their frame sequence
     * then): a frame sent just before its sender took a new run arrives under the new one.
     */
    public void bindRun(final long run, final boolean adoptHigher)
    {
        wire.bindRun(rank, run, adoptHigher);
    }

    public void sendJoinProof(final int contactRank, final long nonce)
    {
        sendControl(EventQueue.JOIN_PROOF, contactRank, nonce);
    }

    public void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations known)
    {
        final SimView view = new SimView(RankArray.copyOf(deadSet), IncarnationTable.copyOf(known));
        sendControl(EventQueue.VIEW, joinerRank, view);
    }

    public void sendViewDigest(final int toRank, final long digest)
    {
        viewDigestMessages++;
        sendControl(EventQueue.VIEW_DIGEST, toRank, digest);
    }

    public void sendProbe(final int toRank, final long token)
    {
        probeMessages++;
        sendProbe(EventQueue.PROBE, toRank, token);
    }

    public void sendProbeAck(final int toRank, final long token)
    {
        probeMessages++;
        sendProbe(EventQueue.PROBE_ACK, toRank, token);
    }

    public void sendReformPoll(final int toRank, final long token)
    {
        // a poll's token is the leader's 64-bit joiner nonce: it travels as the event's reference
        sendControl(EventQueue.REFORM_POLL, toRank, token);
    }

    public void sendReformAck(final int toRank, final long token)
    {
        sendControl(EventQueue.REFORM_ACK, toRank, token);
    }

    public void sendNotice(final int toRank, final Notice notice)
    {
        noticeMessages++;
        final SimNotice snapshot;
        if (delivered != null && delivered.sameBroadcast(notice))
        {
            // a forward of the notice being handled shares its broadcast's one copy
            snapshot = delivered;
        }
        else
        {
            if (lastSnapshot == null || !lastSnapshot.sameBroadcast(notice))
            {
                lastSnapshot = SimNotice.copyOf(notice);
            }
            snapshot = lastSnapshot;
        }
        sendControl(EventQueue.NOTICE, toRank, snapshot);
    }

    /**
     * Control messages carry their sender's incarnation, as frames do in their header.
     */
    private void sendControl(final byte type, final int to, final Object ref)
    {
        send(type, rank, to, simulatedIncarnation(), ref);
    }

    /**
     * The simulator's incarnations are the boot one and small restart counts, far below 2³¹: an event carries one in
     * its value's low half beside a probe's token. The wire and the protocol take 64 bits.
     */
    private long simulatedIncarnation()
    {
        final long incarnation = nodes[rank].incarnation();
        if (incarnation >>> 31 != 0)
        {
            throw new IllegalStateException("incarnation too large for the simulator's events: " + incarnation);
        }
        return incarnation;
    }

    /**
     * A probe's event carries its token and its sender's incarnation in one value: the token in the high half (a
     * node's probe tokens stay far below 2³¹ in any run), the incarnation in the low one.
     */
    private void sendProbe(final byte type, final int to, final long token)
    {
        if (token >>> 31 != 0)
        {
            throw new IllegalStateException("probe token too large for the simulator: " + token);
        }
        send(type, rank, to, token << 32 | simulatedIncarnation(), null);
    }

    /**
     * @return the frame a control message's event stands for, encoded, signed and decoded for its receiver through
     * the {@link Wire} (a forgery as the outsider wrote it); null if the decoder refused it (counted there).
     */
    InboundFrame inbound(final byte type, final int from, final int to, final long value, final Object ref)
    {
        // the sender's incarnation is the value's low half for every kind (probes: see sendProbe)
        final long incarnation = (int)value;
        delivered = null;
        return switch (type)
        {
            case EventQueue.NEW_OBSERVER -> wire.newObserver(from, incarnation, to);
            case EventQueue.NOTICE ->
            {
                delivered = (SimNotice)ref;
                yield wire.notice(from, incarnation, to, delivered);
            }
            case EventQueue.JOIN_REQUEST -> wire.token(FrameType.JOIN_REQUEST, from, incarnation, to, (Long)ref);
            case EventQueue.VIEW ->
                wire.view(from, incarnation, to, ((SimView)ref).dead(), ((SimView)ref).incarnations());
            case EventQueue.VIEW_DIGEST -> wire.token(FrameType.VIEW_DIGEST, from, incarnation, to, (Long)ref);
            case EventQueue.JOIN_CHALLENGE -> wire.challenge(from, incarnation, to, ((long[])ref)[0], ((long[])ref)[1]);
            case EventQueue.JOIN_PROOF -> wire.token(FrameType.JOIN_PROOF, from, incarnation, to, (Long)ref);
            case EventQueue.PROBE -> wire.token(FrameType.PROBE, from, incarnation, to, value >>> 32);
            case EventQueue.PROBE_ACK -> wire.token(FrameType.PROBE_ACK, from, incarnation, to, value >>> 32);
            case EventQueue.REFORM_POLL -> wire.token(FrameType.REFORM_POLL, from, incarnation, to, (Long)ref);
            case EventQueue.REFORM_ACK -> wire.token(FrameType.REFORM_ACK, from, incarnation, to, (Long)ref);
            case EventQueue.LEAVE_MESSAGE -> wire.leave(from, incarnation, to);
            case EventQueue.FORGED_NOTICE -> forged(to, (UnsafeBuffer)ref);
            default -> throw new IllegalStateException("not a control message: " + type);
        };
    }

    /**
     * Only what the receiver's decoder accepts of a forgery reaches the node. A forgery's header carries an
     * incarnation the outsider made up, so the node is told it carries none.
     */
    private SimFrame forged(final int to, final UnsafeBuffer frame)
    {
        final SimNotice believed = forgery.receive(to, frame);
        if (believed == null)
        {
            return null;
        }
        delivered = believed;
        return forgedFrame.notice(forgery.lastSender(), InboundFrame.UNKNOWN_INCARNATION, believed);
    }

    /**
     * Hands a message to the network: an event at its delivery time, unless it is lost.
     */
    void send(final byte type, final int from, final int to, final long value, final Object ref)
    {
        final long atNs = network.deliveryTimeNs(nowNs, from, to);
        if (atNs == Network.LOST)
        {
            lostMessages++;
            return;
        }
        if (onePort && type == EventQueue.NOTICE)
        {
            joinSpread.broadcastCopy(ref, nowNs, atNs);
        }
        queue.schedule(atNs, type, from, to, value, ref);
    }
}
