package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.BroadcastForwarder;
import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import io.ringwatch.core.spi.ReusableNotice;

/**
 * A node's notices: the broadcasts it starts (T3's failure notice, JOINs, heals, minority notices) and the fences it
 * sends, the copies it forwards along the schedule (T5) and hands to rejoined ranks a schedule skips, and the
 * memory of broadcast ids that makes a copy a duplicate. Every D_msg is the node's view as it is, or a copy of it
 * with the subject added in scratch: the view itself is never edited to build a notice.
 */
final class Notices
{
    private final int rank;
    private final long incarnation;
    private final int clusterSize;
    private final BroadcastSchedule schedule;
    private final ControlChannel control;
    private final Membership membership;
    private final RankSet dead;
    private final ProtocolCounters counters;
    // the JOIN broadcast sent as a star (BrokenRules.BREAK_JOIN_STAR, negative controls only)
    private final boolean joinStar;
    private final BroadcastIdSet seen;
    private final BroadcastForwarder forwarder;
    private final BroadcastForwarder.Hop<Notice> sendNotice;
    private final int[] targets;
    private final RankArray deadPlusSubject = new RankArray(8);
    private final ReusableNotice ownNotice = new ReusableNotice();
    private final ReusableNotice joinNotice = new ReusableNotice();
    private final ReusableNotice healNotice = new ReusableNotice();
    private final ReusableNotice fenceNotice = new ReusableNotice();
    private long broadcastSequence;

    Notices(
        final int rank,
        final long incarnation,
        final ProtocolSettings settings,
        final BroadcastSchedule schedule,
        final ControlChannel control,
        final Membership membership,
        final RankSet dead,
        final ProtocolCounters counters)
    {
        this.rank = rank;
        this.incarnation = incarnation;
        this.clusterSize = settings.clusterSize();
        this.schedule = schedule;
        this.control = control;
        this.membership = membership;
        this.dead = dead;
        this.counters = counters;
        this.joinStar = settings.breaks(BrokenRules.BREAK_JOIN_STAR);
        this.seen = new BroadcastIdSet(settings.dedupCapacity());
        this.forwarder = new BroadcastForwarder(schedule, rank, clusterSize);
        this.sendNotice = control::sendNotice;
        this.targets = new int[schedule.maxFanout(clusterSize)];
    }

    /**
     * @return true the first time this broadcast id comes by (T5 acts on it), false for a duplicate.
     */
    boolean firstReceipt(final Notice notice)
    {
        return seen.addIfAbsent(notice.sourceRank(), notice.sourceIncarnation(), notice.sequence());
    }

    /**
     * T3's broadcast: {@code deadRank} died, D_msg = this node's view.
     *
     * @return the notice, valid until the next one this node starts (the detector also sends it to the suspect).
     */
    Notice originateFailure(final int deadRank)
    {
        originate(ownNotice.set(deadRank, rank, incarnation, ++broadcastSequence, dead)
            .subject(membership.incarnationOf(deadRank), false));
        return ownNotice;
    }

    /**
     * This node found no majority on its side: tell the side, with the D_msg that leaves it a minority.
     */
    void originateMinority(final int deadRank, final RankSet minorityDead)
    {
        originate(ownNotice.set(deadRank, rank, incarnation,
            NoticeSequences.MINORITY_BASE + ++broadcastSequence, minorityDead)
            .subject(membership.incarnationOf(deadRank), false));
    }

    /**
     * A JOIN of {@code joiner}, by its contact (or by whoever retells it): D_msg holds the joiner, which takes no part
     * in its own broadcast.
     */
    void originateJoin(final int joiner, final long joinerIncarnation)
    {
        originate(joinNotice.set(joiner, rank, incarnation, ++broadcastSequence, deadPlus(joiner))
            .subject(joinerIncarnation, true));
    }

    /**
     * A heal: a JOIN of this node's emitter at the incarnation this view holds, valid on the wire like any JOIN (its
     * subject in D_msg, its source not) and a no-op wherever it lands. The emitter, skipped by the schedule, is told
     * directly.
     */
    void originateHeal(final int emitter)
    {
        healNotice.set(emitter, rank, incarnation, NoticeSequences.HEAL_BASE + ++broadcastSequence, deadPlus(emitter))
            .subject(membership.incarnationOf(emitter), true);
        originate(healNotice);
        control.sendNotice(emitter, healNotice);
    }

    /**
     * Tell a zombie it is dead: a fence, numbered in its own band so nobody forwards it.
     */
    void sendFence(final int zombie)
    {
        counters.increment(ProtocolCounter.FENCES_SENT);
        control.sendNotice(zombie, fenceNotice.set(zombie, rank, incarnation,
            NoticeSequences.FENCE_BASE + counters.get(ProtocolCounter.FENCES_SENT), dead)
            .subject(membership.incarnationOf(zombie), false));
    }

    /**
     * @param subject a rank to add.
     * @return this node's view with {@code subject} added, in scratch; valid until the next call.
     */
    RankSet deadPlus(final int subject)
    {
        deadPlusSubject.copyFrom(dead);
        deadPlusSubject.add(subject);
        return deadPlusSubject;
    }

    /**
     * T5's forwarding: the copy goes on along the schedule computed from D_msg, never to {@code fromRank}.
     */
    void forward(final Notice notice, final int fromRank)
    {
        if (notice.deadSet().contains(rank) || (joinStar && notice.isJoin()))
        {
            // a joined node may get a copy though D_msg lists it (see catchUp): it is no participant, no hop of its own
            return;
        }
        counters.add(ProtocolCounter.NOTICES_FORWARDED,
            forwarder.forward(notice.sourceRank(), notice.deadSet(), fromRank, notice, sendNotice));
    }

    /**
     * A broadcast that started before a rank's JOIN lists the rank in D_msg, so its schedule skips it: the ranks that
     * know it joined and are closest to it (its ring neighbours here, and any rank this node admitted) hand it a copy.
     * Only ranks that rejoined can be alive here and listed in D_msg, so this costs nothing without joins.
     */
    void catchUp(final Notice notice, final int fromRank, final int emitter, final int observer)
    {
        catchUpTo(emitter, notice, fromRank);
        if (observer != emitter)
        {
            catchUpTo(observer, notice, fromRank);
        }
        for (int i = 0, count = membership.admittedCount(); i < count; i++)
        {
            final int admitted = membership.admittedAt(i);
            if (admitted >= 0 && admitted != emitter && admitted != observer)
            {
                catchUpTo(admitted, notice, fromRank);
            }
        }
    }

    private void catchUpTo(final int to, final Notice notice, final int fromRank)
    {
        if (to != rank && to != fromRank && to != notice.deadRank() && to != notice.sourceRank() &&
            !dead.contains(to) && notice.deadSet().contains(to))
        {
            counters.increment(ProtocolCounter.CATCH_UPS_FORWARDED);
            control.sendNotice(to, notice);
        }
    }

    private void originate(final ReusableNotice notice)
    {
        seen.addIfAbsent(rank, incarnation, notice.sequence());
        counters.increment(ProtocolCounter.NOTICES_ORIGINATED);
        if (joinStar && notice.isJoin())
        {
            for (int to = 0; to < clusterSize; to++)
            {
                if (to != rank && !notice.deadSet().contains(to))
                {
                    control.sendNotice(to, notice);
                }
            }
            return;
        }
        final int count = schedule.neighbours(rank, rank, notice.deadSet(), clusterSize, targets);
        for (int i = 0; i < count; i++)
        {
            if (targets[i] != rank)
            {
                control.sendNotice(targets[i], notice);
            }
        }
    }
}
