package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * The steps a node takes in the JOINING role, and the two ways out of it: a contact's view admits it, or, as the
 * leader of a cluster where every rank is joining, it re-forms the cluster ({@link Reform}). Asking, keeping early
 * notices and merging the view are {@link Joining}'s. A member that rejoined keeps asking its emitter until both its
 * neighbours have confirmed it, through the same duty-cycle step. Part of one {@link DetectorNode}, driven by its
 * thread alone; allocation free.
 */
final class JoinerRole
{
    private final Shared shared;
    private final long incarnation;
    private final Quorum quorum;
    private final Joining joining;
    private final Reform reform;
    private final Neighbours neighbours;
    private final JoinContact joins;
    private final RunBinding runs;
    private final boolean countsItselfAtOnce;

    JoinerRole(
        final Shared shared,
        final long incarnation,
        final Quorum quorum,
        final Joining joining,
        final Reform reform,
        final Neighbours neighbours,
        final JoinContact joins,
        final RunBinding runs,
        final boolean countsItselfAtOnce)
    {
        this.runs = runs;
        this.countsItselfAtOnce = countsItselfAtOnce;
        this.shared = shared;
        this.incarnation = incarnation;
        this.quorum = quorum;
        this.joining = joining;
        this.reform = reform;
        this.neighbours = neighbours;
        this.joins = joins;
    }

    /**
     * Ask from {@code fromNs} on: the first attempt, and the leader's first re-form poll, are due then.
     */
    void askFrom(final long fromNs)
    {
        shared.membership.startJoin(fromNs);
        reform.joinStarted(fromNs);
    }

    /**
     * Ask when an attempt is due (a joiner its next contact, a member not yet confirmed its emitter), and re-form
     * once every other rank is bound to this leader.
     *
     * @return work done.
     */
    int askIfDue(final long nowNs)
    {
        final LocalView view = shared.view;
        final int asked = joining.askIfDue(
            nowNs, view.active(), view.joining(), shared.observation.emitter(), joins.ownNonce(nowNs));
        if (asked == Joining.REFORM)
        {
            reformCluster(nowNs);
            return 1;
        }
        return asked;
    }

    /**
     * VIEW to a joiner: the contact's dead set and incarnations. Take them, watch the nearest live predecessor, report
     * this node up and take part, provided the view admits this very incarnation.
     */
    void onView(final int fromRank, final RankSet viewDead, final RankIncarnations viewIncarnations, final long nowNs)
    {
        final boolean thisLife = viewIncarnations.incarnationOf(shared.rank) == incarnation;
        if (!shared.view.joining() || !shared.ring.isRank(fromRank) || !thisLife)
        {
            shared.counters.increment(ProtocolCounter.STALE_FRAMES);
            return;
        }
        if (reform.refusesViewFrom(fromRank, nowNs))
        {
            return;
        }
        reform.stop();
        joining.mergeView(viewDead, viewIncarnations);
        shared.view.become(NodeState.ACTIVE);
        neighbours.joinerViewTaken(nowNs);
        // the contact counted a majority in this view when it admitted this node: it is M, this node not yet in it,
        // until the view has been quiet for a join's time, as in the members' M
        if (countsItselfAtOnce)
        {
            quorum.adopt(shared.dead);
        }
        else
        {
            quorum.adoptAsJoiner(shared.dead, shared.rank);
        }
        shared.view.reportJoin(shared.rank, incarnation, nowNs);
        shared.view.changed(nowNs);
    }

    /**
     * REFORM_POLL: the lowest rank, joining for a while without being admitted, asks whether this node is joining
     * too. A member takes it for the join request it is if it is the poller's nearest live successor in its view
     * (every member gets the poll at once: all of them admitting it would be N − 1 JOIN broadcasts of one join); a
     * joiner answers and commits; anyone else ignores it.
     */
    void onReformPoll(
        final int fromRank, final long fromIncarnation, final long token, final long pollRun, final long nowNs)
    {
        if (fromRank != Reform.LEADER || fromRank == shared.rank)
        {
            shared.counters.increment(ProtocolCounter.STALE_FRAMES);
        }
        else if (shared.view.active())
        {
            if (shared.ring.nextAlive(fromRank) == shared.rank)
            {
                joins.onJoinRequest(fromRank, fromIncarnation, JoinContact.NO_PROOF, token, pollRun, nowNs);
            }
        }
        else if (shared.view.joining() && fromIncarnation > 0)
        {
            reform.onPoll(token, nowNs, shared.control);
        }
    }

    /**
     * JOIN_CHALLENGE: a contact asks this node to prove its request is its own, made now. Answered by a node asking to
     * join, or a member not yet confirmed asking its emitter again ({@link Joining#answerChallenge}). A joiner takes
     * the contact's run first, so its proof and all that follows are stamped with it, if the challenge returns its own
     * nonce: a challenge replayed from another run teaches nothing.
     */
    void onJoinChallenge(
        final int fromRank, final long nonce, final long joinerNonce, final long contactRun, final long nowNs)
    {
        if (shared.view.joining() && joins.returnsOwn(joinerNonce, nowNs))
        {
            runs.learn(contactRun, nowNs);
        }
        if (shared.view.joining() || shared.view.active())
        {
            joining.answerChallenge(fromRank, nonce, nowNs);
        }
        else
        {
            shared.counters.increment(ProtocolCounter.JOIN_CHALLENGES_IGNORED);
        }
    }

    /**
     * REFORM_ACK: a joiner's answer to this leader's poll; once every other rank answered the first poll, bind them
     * with the second, and once every one answered that, re-form.
     */
    void onReformAck(final int fromRank, final long fromIncarnation, final long token, final long nowNs)
    {
        if (shared.view.joining() && shared.ring.isRank(fromRank) && fromIncarnation > 0 &&
            reform.onAck(fromRank, token, nowNs, shared.control, joins.ownNonce(nowNs)) == Reform.REFORM)
        {
            reformCluster(nowNs);
        }
    }

    /**
     * Every other rank is joining and bound to this leader: take part as the lone seed of a new membership, every
     * other rank held dead as not yet admitted (at the incarnation this node knows), and admit them as they ask.
     */
    private void reformCluster(final long nowNs)
    {
        reform.reformed();
        runs.reformed();
        // as a boot with this node (rank 0) the one seed
        shared.membership.seeds(1, shared.clusterSize);
        shared.membership.reformed();
        shared.membership.holdNotYetAdmitted(shared.dead, shared.clusterSize);
        shared.view.become(NodeState.ACTIVE);
        shared.observation.alone();
        quorum.adopt(shared.dead);
        shared.view.reportJoin(shared.rank, incarnation, nowNs);
        shared.view.changed(nowNs);
    }
}
