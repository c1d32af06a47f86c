package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;

/**
 * The members' side of a join (off the paper's map: its membership is fixed): a contact admits a joiner, sends it the
 * view and starts its JOIN broadcast; every member that learns the JOIN admits the joiner and mends its ring around
 * it. The joiner's side is {@link Joining}. Part of one {@link DetectorNode}, driven by its thread alone; allocation
 * free.
 */
final class JoinContact
{
    private final int rank;
    private final PartitionPolicy policy;
    private final LocalView view;
    private final RankArray dead;
    private final Ring ring;
    private final Observation observation;
    private final Membership membership;
    private final ProbeSession probes;
    private final MajorityRule majorityRule;
    private final HealRetell heal;
    private final Notices notices;
    private final Neighbours neighbours;
    private final ControlChannel control;
    private final ProtocolCounters counters;

    JoinContact(
        final ProtocolSettings settings,
        final LocalView view,
        final RankArray dead,
        final Ring ring,
        final Observation observation,
        final Membership membership,
        final ProbeSession probes,
        final MajorityRule majorityRule,
        final HealRetell heal,
        final Notices notices,
        final Neighbours neighbours,
        final ControlChannel control,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.policy = settings.partitionPolicy();
        this.view = view;
        this.dead = dead;
        this.ring = ring;
        this.observation = observation;
        this.membership = membership;
        this.probes = probes;
        this.majorityRule = majorityRule;
        this.heal = heal;
        this.notices = notices;
        this.neighbours = neighbours;
        this.control = control;
        this.counters = counters;
    }

    /**
     * A JOIN_REQUEST: the contact's side of a join. A frame from a rank held dead is normally fenced; this one is not
     * when its incarnation is newer. An incarnation newer than the one held alive means that life ended unnoticed: it
     * is announced dead first. A repeated request (the joiner has not been confirmed) gets the view again and a fresh
     * JOIN broadcast.
     */
    void onJoinRequest(final int fromRank, final int fromIncarnation, final long nowNs)
    {
        // A joiner not yet confirmed by its neighbours may be unknown to parts of the cluster still, which would drop
        // its frames (a newer incarnation they have not admitted): it is no contact; the joiner asks the next one.
        if (!view.active() || !ring.isRank(fromRank) || fromRank == rank || !membership.confirmed())
        {
            return;
        }
        final int known = membership.incarnationOf(fromRank);
        if (fromIncarnation <= 0 || fromIncarnation < known || (fromIncarnation == known && dead.contains(fromRank)))
        {
            counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (!joinAllowed(nowNs))
        {
            counters.increment(ProtocolCounter.JOINS_REFUSED);
            return;
        }

        if (fromIncarnation > known)
        {
            if (!dead.contains(fromRank))
            {
                // the new life takes the old one's place on the ring at once, so the ring is not mended around it
                view.learnDead(fromRank, nowNs, FailureCause.DETECTED, rank);
                view.changed(nowNs);
                notices.originateFailure(fromRank);
            }
            membership.incarnations().raise(fromRank, fromIncarnation);
            counters.increment(ProtocolCounter.JOINS_ADMITTED);
        }

        // D_msg holds the joiner: it takes no part in its own JOIN broadcast, and the view tells it whom to watch
        final boolean wasDead = dead.contains(fromRank);
        control.sendView(fromRank, notices.deadPlus(fromRank), membership.incarnations());
        notices.originateJoin(fromRank, fromIncarnation);
        membership.admitted(fromRank);
        if (wasDead)
        {
            admit(fromRank, fromIncarnation, nowNs, rank);
            view.changed(nowNs);
        }
        else
        {
            heal.recordJoin(fromRank, fromIncarnation, nowNs, rank);
        }
    }

    /**
     * Under the {@code majority} policy only a node that counts a majority of M alive admits anyone: a contact on the
     * minority side of a partition (its view leaves no majority, it is checking a minority notice, or it is probing a
     * silent run without having heard a majority yet) would let the joiner in on a side that is about to stop. The
     * joiner asks the next contact. The paper's rule admits everyone.
     */
    private boolean joinAllowed(final long nowNs)
    {
        return policy != PartitionPolicy.MAJORITY || majorityRule.admitsJoin(nowNs);
    }

    /**
     * A JOIN broadcast's first copy: admit its rank.
     *
     * @return true if the view changed.
     */
    boolean applyJoin(final Notice notice, final long nowNs)
    {
        final int joiner = notice.deadRank();
        final int joinerIncarnation = notice.subjectIncarnation();
        if (!ring.isRank(joiner) || !membership.incarnations().raise(joiner, joinerIncarnation))
        {
            // a JOIN repeated by a contact, or one of an incarnation that has since died again
            if (ring.isRank(joiner) && observation.emitter() == joiner &&
                joinerIncarnation == membership.incarnationOf(joiner))
            {
                // the joiner is still unconfirmed: it may have refused this node's NEW_OBSERVER while it still held
                // a nearer successor alive (one that died before adopting it); say it again
                control.sendNewObserver(joiner);
            }
            return false;
        }
        admit(joiner, joinerIncarnation, nowNs, notice.sourceRank());
        return true;
    }

    /**
     * Take {@code joiner} into the view under {@code joinerIncarnation}, as told by {@code contact}.
     */
    void admit(final int joiner, final int joinerIncarnation, final long nowNs, final int contact)
    {
        view.revive(joiner);
        counters.increment(ProtocolCounter.JOINS_LEARNED);
        heal.recordJoin(joiner, joinerIncarnation, nowNs, contact);
        if (probes.active())
        {
            // A run of silent predecessors being probed may hold the joiner's old life (silent, but never asked again
            // since the JOIN) or now skip its new one: its evidence is void. Probe afresh; a new emitter (the
            // joiner) gets its 2δ below instead.
            probes.cancel();
            observation.suspicionDeadline(nowNs);
        }
        view.reportJoin(joiner, joinerIncarnation, nowNs);
        neighbours.joinerAdmitted(joiner, nowNs);
    }
}
