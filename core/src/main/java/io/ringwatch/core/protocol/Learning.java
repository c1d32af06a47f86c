package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * What others tell this node: T5 (a notice judged by {@link NoticeReceipt}, merged, forwarded), a LEAVE, and the
 * view repair's digests and views ({@link ViewRepair}). Each change of D ends the same way: a new epoch, the majority
 * rule's count, the ring mended. Part of one {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class Learning
{
    private final Shared shared;
    private final PartitionPolicy policy;
    private final Quorum quorum;
    private final Joining joining;
    private final NoticeReceipt receipt;
    private final MajorityRule majorityRule;
    private final HealRetell heal;
    private final ViewRepair viewRepair;
    private final Admission admission;
    private final Neighbours neighbours;
    private final JoinContact joins;
    private final JoinerRole joiner;

    Learning(
        final Shared shared,
        final ProtocolSettings settings,
        final Quorum quorum,
        final Joining joining,
        final NoticeReceipt receipt,
        final MajorityRule majorityRule,
        final HealRetell heal,
        final ViewRepair viewRepair,
        final Admission admission,
        final Neighbours neighbours,
        final JoinContact joins,
        final JoinerRole joiner)
    {
        this.shared = shared;
        this.policy = settings.partitionPolicy();
        this.quorum = quorum;
        this.joining = joining;
        this.receipt = receipt;
        this.majorityRule = majorityRule;
        this.heal = heal;
        this.viewRepair = viewRepair;
        this.admission = admission;
        this.neighbours = neighbours;
        this.joins = joins;
        this.joiner = joiner;
    }

    /**
     * T5: a notice arrived: merge D_msg and, on first receipt of this broadcast id, forward it along the schedule
     * computed from D_msg. A JOIN broadcast travels the same way and admits its rank instead; it merges no D_msg, so
     * the majority rule's check of D_msg does not apply to it. A joiner keeps notices until its view comes.
     */
    void onNotice(final Notice notice, final int fromRank, final long fromIncarnation, final long nowNs)
    {
        if (shared.view.joining())
        {
            joining.learn(notice, fromRank);
            return;
        }
        switch (receipt.judge(notice, fromRank, fromIncarnation, nowNs, shared.view.active()))
        {
            case NoticeReceipt.EXCLUDE_FENCED -> shared.view.exclude(nowNs, ExclusionCause.FENCED, notice.sourceRank());
            case NoticeReceipt.EXCLUDE_NOTICE -> shared.view.exclude(nowNs, ExclusionCause.NOTICE, notice.sourceRank());
            case NoticeReceipt.HEAL_FOR_EMITTER -> heal.onHeal(nowNs);
            case NoticeReceipt.CHECK_MINORITY ->
            {
                shared.notices.forward(notice, fromRank);
                majorityRule.verifyMinority(notice.deadSet(), notice.sourceRank(), nowNs);
            }
            case NoticeReceipt.APPLY -> apply(notice, fromRank, nowNs);
            default ->
            {
            }
        }
    }

    /**
     * T5 proper: merge a first copy (a death and its D_msg, or a JOIN), forward it along the schedule, hand it to
     * rejoined neighbours the schedule skips, and retell on a heal.
     */
    private void apply(final Notice notice, final int fromRank, final long nowNs)
    {
        final boolean changed = notice.isJoin() ? joins.applyJoin(notice, nowNs) : applyFailure(notice, nowNs);
        shared.notices.forward(notice, fromRank);
        shared.notices.catchUp(notice, fromRank, shared.observation.emitter(), shared.observation.observer());
        if (NoticeKind.of(notice) == NoticeKind.HEAL)
        {
            heal.onHeal(nowNs);
        }
        if (changed)
        {
            afterLearning(nowNs);
        }
    }

    private boolean applyFailure(final Notice notice, final long nowNs)
    {
        boolean changed = false;
        final int subject = notice.deadRank();
        final long subjectIncarnation = notice.subjectIncarnation();
        if (shared.ring.isRank(subject))
        {
            if (subjectIncarnation < shared.membership.incarnationOf(subject))
            {
                // the death of a life this view has already seen replaced by a newer one
                shared.counters.increment(ProtocolCounter.STALE_FRAMES);
            }
            else
            {
                shared.membership.incarnations().raise(subject, subjectIncarnation);
                changed = shared.view.learnDead(subject, nowNs, FailureCause.NOTICE, notice.sourceRank());
            }
        }

        // Every member of D_msg was detected dead by someone, so merging it is safe and converges faster; but D_msg
        // carries no incarnations, so only ranks still at their boot incarnation here are merged (a rank that
        // rejoined may be listed by a broadcast that started before its JOIN). Its own broadcast covers the rest.
        final RankSet deadInMsg = notice.deadSet();
        for (int i = 0, size = deadInMsg.size(); i < size; i++)
        {
            final int r = deadInMsg.rankAt(i);
            if (r != subject && shared.ring.isRank(r) && shared.membership.incarnationOf(r) == 0 &&
                shared.view.learnDead(r, nowNs, FailureCause.NOTICE, notice.sourceRank()))
            {
                changed = true;
            }
        }
        return changed;
    }

    /**
     * The view changed by what others told: under {@code majority} stop if it leaves this side no majority
     * (scattered groups learn it piece by piece), else mend the ring around the change.
     */
    private void afterLearning(final long nowNs)
    {
        shared.view.changed(nowNs);
        if (policy == PartitionPolicy.MAJORITY && !majorityRule.viewHoldsMajority())
        {
            majorityRule.stopAsMinority(nowNs, 0, shared.dead.rankAt(0));
            return;
        }
        neighbours.afterDeaths(nowNs);
    }

    /**
     * A LEAVE from {@code fromRank}: announce its departure now instead of waiting for δ to expire.
     */
    void onLeave(final int fromRank, final long fromIncarnation, final long nowNs)
    {
        if (!admission.admit(fromRank, fromIncarnation, nowNs) || fromRank == shared.rank)
        {
            return;
        }
        shared.view.learnDead(fromRank, nowNs, FailureCause.LEFT, fromRank);
        shared.view.changed(nowNs);
        neighbours.afterDeaths(nowNs);
        shared.notices.originateFailure(fromRank);
    }

    /**
     * VIEW_DIGEST from a ring neighbour: answer with this node's view if it hashes differently.
     */
    void onViewDigest(final int fromRank, final long fromIncarnation, final long digest, final long nowNs)
    {
        if (!admission.admit(fromRank, fromIncarnation, nowNs) || fromRank == shared.rank)
        {
            return;
        }
        if (viewRepair.differs(digest, shared.dead, shared.membership.incarnations()))
        {
            shared.control.sendView(fromRank, shared.dead, shared.membership.incarnations());
        }
    }

    /**
     * VIEW: a neighbour's answer to this node's differing digest, merged by an active node; or a joiner's admission
     * ({@link JoinerRole#onView}).
     */
    void onView(
        final int fromRank,
        final long fromIncarnation,
        final RankSet viewDead,
        final RankIncarnations viewIncarnations,
        final long nowNs)
    {
        if (shared.view.active())
        {
            repairView(fromRank, fromIncarnation, viewDead, viewIncarnations, nowNs);
        }
        else
        {
            joiner.onView(fromRank, viewDead, viewIncarnations, nowNs);
        }
    }

    /**
     * A live member's view, sent because this node's digest differed from its own: merge it as a joiner merges the
     * view it is admitted with, through the paths a JOIN or a notice takes (listener, ring, majority rule). Per rank,
     * a newer incarnation wins: alive in the view, the rank is admitted (its older life, if held alive here, ended
     * unnoticed); dead there, its newer life is dead. At equal incarnations a death wins. Under {@code majority} the
     * deaths are merged only if what they leave alive is a majority of M, as for a notice's D_msg: a minority's view
     * is never merged. This node's own entry is never taken from another's view.
     */
    private void repairView(
        final int fromRank,
        final long fromIncarnation,
        final RankSet viewDead,
        final RankIncarnations viewIncarnations,
        final long nowNs)
    {
        if (!admission.admitQuietly(fromRank, fromIncarnation, nowNs) || fromRank == shared.rank)
        {
            return;
        }
        boolean changed = false;
        for (int i = 0, steps = viewRepair.planMerge(shared.ring, shared.dead, shared.membership.incarnations(), quorum,
            policy == PartitionPolicy.MAJORITY, viewDead, viewIncarnations); i < steps; i++)
        {
            final int r = viewRepair.stepRank(i);
            final long newer = viewRepair.stepIncarnation(i);
            switch (viewRepair.stepKind(i))
            {
                case ViewRepair.DIES_NEWER ->
                {
                    shared.membership.incarnations().raise(r, newer);
                    changed |= shared.view.learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
                }
                case ViewRepair.REPLACED ->
                {
                    // the life held alive here ended unnoticed: the application sees it go before the new one comes
                    shared.view.learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
                    shared.membership.incarnations().raise(r, newer);
                    joins.admit(r, newer, nowNs, fromRank);
                    changed = true;
                }
                default -> changed |= shared.view.learnDead(r, nowNs, FailureCause.NOTICE, fromRank);
            }
        }
        if (!changed)
        {
            return;
        }
        shared.counters.increment(ProtocolCounter.VIEWS_REPAIRED);
        afterLearning(nowNs);
    }
}
