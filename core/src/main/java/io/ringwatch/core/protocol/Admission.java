package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.RankSet;

/**
 * Who may still be heard, and fencing (off the paper's map: the paper's nodes never come back). A frame from an
 * older incarnation than this view holds is stale and dropped. A rank this node holds dead but still hears from (a
 * frame, or a write into this node's slot) is a zombie back from a pause longer than δ: its frame is dropped and it
 * is sent a fence naming it, at most once per {@link ProtocolSettings#fenceIntervalNs()}, so one lost fence is re-sent
 * while the zombie keeps talking. The fence names the life this node holds dead: a newer one whose JOIN has not reached
 * this node yet reads it as stale and carries on, a zombie of that life stops.
 */
final class Admission
{
    private static final int FENCE_LIMITER_CAPACITY = 16;

    private final int rank;
    private final long fenceIntervalNs;
    private final boolean quietZombieFrames;
    private final PartitionPolicy policy;
    private final Ring ring;
    private final RankSet dead;
    private final Membership membership;
    private final Notices notices;
    private final LocalView view;
    private final ProtocolCounters counters;
    private final FenceLimiter fenced = new FenceLimiter(FENCE_LIMITER_CAPACITY);
    private final FenceLimiter reannounced = new FenceLimiter(FENCE_LIMITER_CAPACITY);

    Admission(
        final ProtocolSettings settings,
        final Ring ring,
        final RankSet dead,
        final Membership membership,
        final Notices notices,
        final LocalView view,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.fenceIntervalNs = settings.fenceIntervalNs();
        this.quietZombieFrames = !settings.breaks(BrokenRules.BREAK_QUIET_ZOMBIE_FRAMES);
        this.policy = settings.partitionPolicy();
        this.ring = ring;
        this.dead = dead;
        this.membership = membership;
        this.notices = notices;
        this.view = view;
        this.counters = counters;
    }

    /**
     * Whether a ring frame (a beat, a digest, NEW_OBSERVER, LEAVE) from {@code fromRank} may act on this node: only
     * while it takes part, not stale, and not from a rank it holds dead, which is fenced and announced again.
     */
    boolean admit(final int fromRank, final long fromIncarnation, final long nowNs)
    {
        return admit(fromRank, fromIncarnation, nowNs, true);
    }

    /**
     * As {@link #admit} for frames a node sends to many ranks at once (probes and their answers, notices it forwards,
     * views): a zombie's are fenced but its death is not announced again on them. A zombie back from a cut probes
     * every rank; had each that holds it dead announced it, dozens of broadcasts of one death at once overran the
     * broadcast-id memory, and nodes that forgot a broadcast forwarded it again, without end (the simulator's event
     * queue ran out of heap). Its ring neighbours still announce it, on its beats and digests.
     */
    boolean admitQuietly(final int fromRank, final long fromIncarnation, final long nowNs)
    {
        return admit(fromRank, fromIncarnation, nowNs, !quietZombieFrames);
    }

    /**
     * A rank this node holds dead wrote into its heartbeat slot (transports with remote memory): fence it.
     *
     * @return 1 if a fence went out.
     */
    int fenceSlotWriterIfDead(final int writer, final long nowNs)
    {
        if (writer != HeartbeatChannel.NO_WRITER && writer != rank && ring.isRank(writer) && dead.contains(writer))
        {
            return fence(writer, Membership.UNKNOWN_INCARNATION, nowNs, true) ? 1 : 0;
        }
        return 0;
    }

    /**
     * This node just declared {@code suspect} dead and told it so: that counts as the suspect's fence, so a lost one
     * is re-sent only when the suspect is heard from again.
     */
    void toldSuspect(final int suspect, final long nowNs)
    {
        fenced.tryAcquire(suspect, nowNs, fenceIntervalNs);
    }

    private boolean admit(final int fromRank, final long fromIncarnation, final long nowNs, final boolean announce)
    {
        if (!view.active() || !ring.isRank(fromRank))
        {
            return false;
        }
        if (membership.isStale(fromRank, fromIncarnation))
        {
            counters.increment(ProtocolCounter.STALE_FRAMES);
            return false;
        }
        if (dead.contains(fromRank))
        {
            counters.increment(ProtocolCounter.FRAMES_FROM_DEAD);
            fence(fromRank, fromIncarnation, nowNs, announce);
            return false;
        }
        return true;
    }

    private boolean fence(final int zombie, final long zombieIncarnation, final long nowNs, final boolean announce)
    {
        if (!fenced.tryAcquire(zombie, nowNs, fenceIntervalNs))
        {
            return false;
        }
        notices.sendFence(zombie);
        if (announce && zombieIncarnation <= membership.incarnationOf(zombie))
        {
            // a newer life (its JOIN still on its way here) is no zombie back from a cut: its death is not news
            reannounce(zombie, nowNs);
        }
        return true;
    }

    /**
     * A rank held dead talks to this node again: it may be back from a cut that also swallowed the broadcast of its
     * death. Under the majority rule announce it again, once per rank (as long as it is remembered), so the nodes that
     * missed it learn it; to the others it is a duplicate that changes nothing.
     */
    private void reannounce(final int zombie, final long nowNs)
    {
        if (policy == PartitionPolicy.MAJORITY && reannounced.tryAcquire(zombie, nowNs, Long.MAX_VALUE))
        {
            notices.originateFailure(zombie);
        }
    }
}
