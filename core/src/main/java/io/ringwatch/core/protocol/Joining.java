package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

/**
 * The joiner's side of a join (off the paper's map: its membership is fixed): asking contacts in turn until one
 * admits this node, keeping the notices that reach it before the view does, and merging them with the view when it
 * comes. What the joiner becomes on the view or a re-form is {@link JoinerRole}'s; the contact's side is
 * {@link JoinContact}'s; the rules for whom to ask and when are {@link Membership}'s, and the re-form of a cluster
 * with no member left {@link Reform}'s.
 */
final class Joining
{
    /** {@link #askIfDue}: every other rank is joining and bound to this leader; the node re-forms the cluster. */
    static final int REFORM = -1;

    private final int rank;
    private final int clusterSize;
    private final Ring ring;
    private final RankArray dead;
    private final Membership membership;
    private final Reform reform;
    private final Notices notices;
    private final ControlChannel control;
    private final ProtocolCounters counters;
    private final RankArray mergedDead = new RankArray(8);
    private final long answerWindowNs;
    private boolean asked;
    private long askedAtNs;

    /**
     * A node answers a contact's challenge for 2δ after its last JOIN_REQUEST or re-form poll.
     */
    Joining(
        final Ring ring,
        final RankArray dead,
        final Membership membership,
        final Reform reform,
        final Notices notices,
        final ControlChannel control,
        final ProtocolCounters counters,
        final ProtocolSettings settings)
    {
        this.answerWindowNs = 2 * settings.suspicionTimeoutNs();
        this.rank = ring.rank();
        this.clusterSize = ring.clusterSize();
        this.ring = ring;
        this.dead = dead;
        this.membership = membership;
        this.reform = reform;
        this.notices = notices;
        this.control = control;
        this.counters = counters;
    }

    /**
     * Ask the next contact when an attempt is due, until admitted and confirmed by both neighbours; while joining,
     * the leader polls for a re-form when its period is up.
     *
     * @param active  this node is a member (it asks its emitter again when a neighbour has not confirmed it yet).
     * @param joining this node is still joining.
     * @param emitter its emitter, when active.
     * @param nonce   this node's joiner nonce now, which a contact's challenge returns.
     * @return work done (0 or 1), or {@link #REFORM}.
     */
    int askIfDue(final long nowNs, final boolean active, final boolean joining, final int emitter, final long nonce)
    {
        if (membership.takeReask() && active && emitter != rank)
        {
            // the emitter knows of this life: it beats it
            askedAt(nowNs);
            control.sendJoinRequest(emitter, nonce);
            return 1;
        }
        if (joining)
        {
            final int polled = reform.pollIfDue(nowNs, control, nonce);
            if (polled == Reform.REFORM)
            {
                return REFORM;
            }
            if (polled == Reform.POLLED)
            {
                // the leader's poll is a join request to its nearest live successor, which challenges it
                asked = true;
                askedAtNs = nowNs;
                return 1;
            }
        }
        int contact = membership.nextContact(rank, clusterSize, nowNs);
        if (contact < 0)
        {
            return 0;
        }
        if (joining && reform.committed(nowNs))
        {
            // bound to the leader's poll: a view from anyone else would be refused
            contact = Reform.LEADER;
        }
        askedAt(nowNs);
        control.sendJoinRequest(contact, nonce);
        return 1;
    }

    private void askedAt(final long nowNs)
    {
        counters.increment(ProtocolCounter.JOIN_REQUESTS_SENT);
        asked = true;
        askedAtNs = nowNs;
    }

    /**
     * A contact's JOIN_CHALLENGE: return its nonce if this node is asking to join (it sent a request or a re-form poll
     * within the answer window), so the contact may act on the request; a node that did not ask ignores it, for the
     * request it answers is a recording of someone's (an earlier life's, or an earlier run's).
     *
     * @return work done (0 or 1).
     */
    int answerChallenge(final int contact, final long nonce, final long nowNs)
    {
        if (!asked || nowNs - askedAtNs > answerWindowNs || !ring.isRank(contact) || contact == rank)
        {
            counters.increment(ProtocolCounter.JOIN_CHALLENGES_IGNORED);
            return 0;
        }
        counters.increment(ProtocolCounter.JOIN_PROOFS_SENT);
        control.sendJoinProof(contact, nonce);
        return 1;
    }

    /**
     * A copy that reaches a joiner before its view (a contact passes on what it learns after admitting it, and copies
     * may overtake the view) is kept, not forwarded, and merged with the view when it comes.
     */
    void learn(final Notice notice, final int fromRank)
    {
        final int subject = notice.deadRank();
        // fences, and minority notices (never merged), are no news for a joiner
        if (!NoticeKind.of(notice).isBroadcastNews() || !ring.isRank(fromRank) || !ring.isRank(subject) ||
            subject == rank || !notices.firstReceipt(notice))
        {
            return;
        }
        if (notice.isJoin())
        {
            if (membership.incarnations().raise(subject, notice.subjectIncarnation()))
            {
                dead.remove(subject);
            }
        }
        else if (!membership.isStale(subject, notice.subjectIncarnation()))
        {
            membership.incarnations().raise(subject, notice.subjectIncarnation());
            dead.add(subject);
        }
    }

    /**
     * Merge a view into what this joiner learned before it: per rank the higher incarnation wins, and at equal
     * incarnations dead wins, so the order of view and copies does not matter.
     */
    void mergeView(final RankSet viewDead, final RankIncarnations viewIncarnations)
    {
        mergedDead.clear();
        for (int i = 0, size = viewDead.size(); i < size; i++)
        {
            final int r = viewDead.rankAt(i);
            if (r != rank && membership.incarnationOf(r) <= viewIncarnations.incarnationOf(r))
            {
                mergedDead.add(r);
            }
        }
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            final int r = dead.rankAt(i);
            if (r != rank && membership.incarnationOf(r) >= viewIncarnations.incarnationOf(r))
            {
                mergedDead.add(r);
            }
        }
        for (int i = 0, size = viewIncarnations.size(); i < size; i++)
        {
            membership.incarnations().raise(viewIncarnations.rankAt(i), viewIncarnations.incarnationAt(i));
        }
        dead.copyFrom(mergedDead);
    }
}
