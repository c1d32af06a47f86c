package io.ringwatch.core.sim;

import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * A frame built by hand, as the live decoder hands the node a decoded one: one instance reused for every delivery, for
 * tests and benchmarks, and for a forged notice the simulator's decoder let through (which carries no incarnation).
 * The simulator's and the explorer's own frames do not use it: they go through the real codec ({@link Wire}).
 */
public final class SimFrame implements InboundFrame
{
    private int type;
    private int senderRank;
    private long senderIncarnation;
    private int newObserverEmitterRank;
    private int rdmaRkey;
    private long rdmaAddress;
    private int rdmaLength;
    private long heartbeatCounter;
    private long heartbeatTimestampNs;
    private long probeToken;
    private long runId;
    private long joinerNonce;
    private Notice notice;
    private RankSet viewDead;
    private RankIncarnations viewIncarnations;

    /**
     * The run the frames built from now on carry, and the joiner's nonce of a JOIN_REQUEST or JOIN_CHALLENGE: both 0
     * (unbound) unless set, as for a node whose driver binds no runs.
     */
    public SimFrame run(final long runId, final long joinerNonce)
    {
        this.runId = runId;
        this.joinerNonce = joinerNonce;
        return this;
    }

    public SimFrame header(final int type, final int senderRank, final long senderIncarnation)
    {
        this.type = type;
        this.senderRank = senderRank;
        this.senderIncarnation = senderIncarnation;
        return this;
    }

    public SimFrame newObserver(final int senderRank, final long senderIncarnation, final int emitterRank)
    {
        return newObserver(senderRank, senderIncarnation, emitterRank, 0, 0, 0);
    }

    /**
     * NEW_OBSERVER with the slot descriptor an RDMA observer sends (zeros for other transports).
     */
    public SimFrame newObserver(
        final int senderRank,
        final long senderIncarnation,
        final int emitterRank,
        final int rkey,
        final long address,
        final int length)
    {
        newObserverEmitterRank = emitterRank;
        rdmaRkey = rkey;
        rdmaAddress = address;
        rdmaLength = length;
        return header(FrameType.NEW_OBSERVER, senderRank, senderIncarnation);
    }

    /**
     * A HEARTBEAT frame, for transports that carry heartbeats as messages.
     */
    public SimFrame heartbeat(
        final int senderRank, final long senderIncarnation, final long counter, final long timestampNs)
    {
        heartbeatCounter = counter;
        heartbeatTimestampNs = timestampNs;
        return header(FrameType.HEARTBEAT, senderRank, senderIncarnation);
    }

    public SimFrame notice(final int senderRank, final long senderIncarnation, final Notice notice)
    {
        this.notice = notice;
        return header(notice.isJoin() ? FrameType.JOIN : FrameType.FAILURE_NOTICE, senderRank, senderIncarnation);
    }

    public SimFrame view(final int senderRank, final long senderIncarnation, final RankSet dead, final RankIncarnations known)
    {
        viewDead = dead;
        viewIncarnations = known;
        return header(FrameType.VIEW, senderRank, senderIncarnation);
    }

    public SimFrame token(final int type, final int senderRank, final long senderIncarnation, final long token)
    {
        probeToken = token;
        return header(type, senderRank, senderIncarnation);
    }

    public int type()
    {
        return type;
    }

    public int senderRank()
    {
        return senderRank;
    }

    public long senderIncarnation()
    {
        return senderIncarnation;
    }

    public long runId()
    {
        return runId;
    }

    public long joinerNonce()
    {
        return joinerNonce;
    }

    public long heartbeatCounter()
    {
        return heartbeatCounter;
    }

    public long heartbeatTimestampNs()
    {
        return heartbeatTimestampNs;
    }

    public int newObserverEmitterRank()
    {
        return newObserverEmitterRank;
    }

    public int rdmaRkey()
    {
        return rdmaRkey;
    }

    public long rdmaAddress()
    {
        return rdmaAddress;
    }

    public int rdmaLength()
    {
        return rdmaLength;
    }

    public Notice notice()
    {
        return notice;
    }

    public RankSet viewDead()
    {
        return viewDead;
    }

    public RankIncarnations viewIncarnations()
    {
        return viewIncarnations;
    }

    public long probeToken()
    {
        return probeToken;
    }
}
