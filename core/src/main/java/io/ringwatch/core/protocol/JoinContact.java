package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.InboundFrame;
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
    /** The token of a JOIN_REQUEST: it proves nothing yet. */
    static final long NO_PROOF = 0;

    private final Shared shared;
    private final PartitionPolicy policy;
    private final ProbeSession probes;
    private final MajorityRule majorityRule;
    private final HealRetell heal;
    private final Neighbours neighbours;
    private final JoinChallenge challenge;
    private final RunBinding runs;
    private final boolean challengeBroken;

    JoinContact(
        final Shared shared,
        final long incarnation,
        final ProtocolSettings settings,
        final ProbeSession probes,
        final MajorityRule majorityRule,
        final HealRetell heal,
        final Neighbours neighbours,
        final RunBinding runs)
    {
        this.shared = shared;
        this.runs = runs;
        this.policy = settings.partitionPolicy();
        this.challenge = new JoinChallenge(settings.suspicionTimeoutNs(), shared.rank, incarnation);
        this.challengeBroken = settings.breaks(BrokenRules.BREAK_JOIN_CHALLENGE);
        this.probes = probes;
        this.majorityRule = majorityRule;
        this.heal = heal;
        this.neighbours = neighbours;
    }

    /**
     * @param secret this process's secret for join nonces, drawn at random by its driver.
     */
    void nonceSecret(final long secret)
    {
        challenge.secret(secret);
    }

    /**
     * @return this node's nonce for a JOIN_REQUEST (or a re-form poll) it sends now, as a joiner.
     */
    long ownNonce(final long nowNs)
    {
        return challenge.ownNonce(nowNs);
    }

    /**
     * @return true if a challenge's returned nonce is one this node sent as a joiner within the last δ to 2δ.
     */
    boolean returnsOwn(final long joinerNonce, final long nowNs)
    {
        return challenge.returnsOwn(joinerNonce, nowNs);
    }

    /**
     * A JOIN_REQUEST or a JOIN_PROOF, as {@link #onJoinRequest}.
     */
    void onJoinFrame(final InboundFrame frame, final long nowNs)
    {
        // only a proof carries a token, and only a request the joiner's nonce
        final boolean proof = frame.type() == FrameType.JOIN_PROOF;
        onJoinRequest(frame.senderRank(), frame.senderIncarnation(), proof ? frame.probeToken() : NO_PROOF,
            proof ? 0 : frame.joinerNonce(), frame.runId(), nowNs);
    }

    /**
     * A JOIN_REQUEST ({@code token} {@link #NO_PROOF}), or a JOIN_PROOF returning this contact's nonce: the contact's
     * side of a join. A frame from a rank held dead is normally fenced; this one is not when its incarnation is newer.
     * A newer incarnation is acted on only once proven ({@link JoinChallenge}): until then the joiner is challenged
     * and nothing changes. So is a request from a joiner bound to another run than this node's (one that knows none
     * yet): the challenge is how it learns this one ({@link RunBinding}). Proven, an incarnation newer than the one
     * held alive means that life ended unnoticed: it is announced dead first. A repeated request (the joiner has not
     * been confirmed) gets the view again and a fresh JOIN broadcast.
     *
     * @param joinerNonce the request's nonce (a re-form poll's token), returned in the challenge.
     * @param requestRun  the run the request or proof was stamped with.
     */
    void onJoinRequest(
        final int fromRank,
        final long fromIncarnation,
        final long token,
        final long joinerNonce,
        final long requestRun,
        final long nowNs)
    {
        // A joiner not yet confirmed by its neighbours may be unknown to parts of the cluster still, which would drop
        // its frames (a newer incarnation they have not admitted): it is no contact; the joiner asks the next one.
        if (!shared.view.active() || !shared.ring.isRank(fromRank) || fromRank == shared.rank ||
            !shared.membership.confirmed())
        {
            return;
        }
        final long known = shared.membership.incarnationOf(fromRank);
        final boolean sameLifeDead = fromIncarnation == known && shared.dead.contains(fromRank);
        if (fromIncarnation <= 0 || fromIncarnation < known || sameLifeDead)
        {
            shared.counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (!joinAllowed(nowNs))
        {
            shared.counters.increment(ProtocolCounter.JOINS_REFUSED);
            return;
        }
        final boolean unproven = fromIncarnation > known || !runs.isOwn(requestRun);
        if (unproven && !challengeBroken && !challenge.proves(fromRank, fromIncarnation, token, nowNs))
        {
            // a newer incarnation alone proves nothing: a request recorded in an earlier run carries one too
            if (token != NO_PROOF)
            {
                shared.counters.increment(ProtocolCounter.JOIN_PROOFS_REFUSED);
            }
            shared.counters.increment(ProtocolCounter.JOIN_CHALLENGES_SENT);
            shared.control.sendJoinChallenge(
                fromRank, challenge.nonce(fromRank, fromIncarnation, nowNs), joinerNonce);
            return;
        }

        if (fromIncarnation > known)
        {
            if (!shared.dead.contains(fromRank))
            {
                // the new life takes the old one's place on the ring at once, so the ring is not mended around it
                shared.view.learnDead(fromRank, nowNs, FailureCause.DETECTED, shared.rank);
                shared.view.changed(nowNs);
                shared.notices.originateFailure(fromRank);
            }
            shared.membership.incarnations().raise(fromRank, fromIncarnation);
            shared.counters.increment(ProtocolCounter.JOINS_ADMITTED);
        }

        // D_msg holds the joiner: it takes no part in its own JOIN broadcast, and the view tells it whom to watch
        final boolean wasDead = shared.dead.contains(fromRank);
        shared.control.sendView(fromRank, shared.notices.deadPlus(fromRank), shared.membership.incarnations());
        shared.notices.originateJoin(fromRank, fromIncarnation);
        shared.membership.admitted(fromRank);
        if (wasDead)
        {
            admit(fromRank, fromIncarnation, nowNs, shared.rank);
            shared.view.changed(nowNs);
        }
        else
        {
            heal.recordJoin(fromRank, fromIncarnation, nowNs, shared.rank);
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
        final long joinerIncarnation = notice.subjectIncarnation();
        if (!shared.ring.isRank(joiner) || !shared.membership.incarnations().raise(joiner, joinerIncarnation))
        {
            // a JOIN repeated by a contact, or one of an incarnation that has since died again
            if (shared.ring.isRank(joiner) && shared.observation.emitter() == joiner &&
                joinerIncarnation == shared.membership.incarnationOf(joiner))
            {
                // the joiner is still unconfirmed: it may have refused this node's NEW_OBSERVER while it still held
                // a nearer successor alive (one that died before adopting it); say it again
                shared.control.sendNewObserver(joiner);
            }
            return false;
        }
        admit(joiner, joinerIncarnation, nowNs, notice.sourceRank());
        return true;
    }

    /**
     * Take {@code joiner} into the view under {@code joinerIncarnation}, as told by {@code contact}.
     */
    void admit(final int joiner, final long joinerIncarnation, final long nowNs, final int contact)
    {
        shared.view.revive(joiner);
        shared.counters.increment(ProtocolCounter.JOINS_LEARNED);
        heal.recordJoin(joiner, joinerIncarnation, nowNs, contact);
        if (probes.active())
        {
            // A run of silent predecessors being probed may hold the joiner's old life (silent, but never asked again
            // since the JOIN) or now skip its new one: its evidence is void. Probe afresh; a new emitter (the
            // joiner) gets its 2δ below instead.
            probes.cancel();
            shared.observation.suspicionDeadline(nowNs);
        }
        shared.view.reportJoin(joiner, joinerIncarnation, nowNs);
        neighbours.joinerAdmitted(joiner, nowNs);
    }
}
