package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.NoticeKind;
import io.ringwatch.core.spi.RankSet;

/**
 * T5's first half: what an active node makes of a notice that reached it, as a verdict the node then acts on. The
 * paper merges every notice; off its map a notice may name this node (it stops), be a fence, come from a minority or
 * carry a D_msg that leaves no majority alive (never merged, but checked), or repeat a broadcast already seen.
 */
final class NoticeReceipt
{
    /** Nothing to do: dropped, counted where it says something (stale, refused, stray fence, duplicate). */
    static final int IGNORE = 0;
    /** A fence or notice names this life, from a side that keeps a majority: stop as fenced. */
    static final int EXCLUDE_FENCED = 1;
    /** A notice names this life: stop as declared dead. */
    static final int EXCLUDE_NOTICE = 2;
    /** A heal that names this node as the announcer's emitter: retell, nothing to merge. */
    static final int HEAL_FOR_EMITTER = 3;
    /** A first copy whose D_msg would leave no majority alive: forward it and check this node's side. */
    static final int CHECK_MINORITY = 4;
    /** A first copy to merge and forward (T5 proper). */
    static final int APPLY = 5;

    private final int rank;
    private final long incarnation;
    private final boolean majority;
    private final Ring ring;
    private final RankSet dead;
    private final Membership membership;
    private final Quorum quorum;
    private final Admission admission;
    private final Notices notices;
    private final ProtocolCounters counters;
    private boolean joined;

    NoticeReceipt(
        final long incarnation,
        final ProtocolSettings settings,
        final Ring ring,
        final RankSet dead,
        final Membership membership,
        final Quorum quorum,
        final Admission admission,
        final Notices notices,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.incarnation = incarnation;
        this.majority = settings.partitionPolicy() == PartitionPolicy.MAJORITY;
        this.ring = ring;
        this.dead = dead;
        this.membership = membership;
        this.quorum = quorum;
        this.admission = admission;
        this.notices = notices;
        this.counters = counters;
    }

    /**
     * This node joined under its own incarnation: from now on only notices naming that life (or a later one) name it.
     */
    void joined()
    {
        joined = true;
    }

    /**
     * @param active this node takes part (not joining, not stopped).
     * @return one of this class's verdicts.
     */
    int judge(final Notice notice, final int fromRank, final long fromIncarnation, final long nowNs, final boolean active)
    {
        final RankSet deadInMsg = notice.deadSet();
        final NoticeKind kind = NoticeKind.of(notice);
        final boolean fence = kind == NoticeKind.FENCE;
        // D_msg names boot incarnations only (see applyFailure), so it speaks of this node only if it never rejoined
        final boolean namesUs = namesThisIncarnation(notice) || (!joined && deadInMsg.contains(rank));
        final boolean minorityNotice = kind == NoticeKind.MINORITY;
        if (majority && active)
        {
            quorum.settleIfDue(dead, nowNs);
            if (fence && namesUs && ring.isRank(fromRank) && dead.contains(fromRank) &&
                !membership.isStale(fromRank, fromIncarnation) && quorum.leftAliveBy(deadInMsg))
            {
                // both sides of a healed partition hold each other dead: the fence of the side with a majority
                // crosses, or neither would ever stop
                return EXCLUDE_FENCED;
            }
        }
        if (!active || !admission.admitQuietly(fromRank, fromIncarnation, nowNs))
        {
            return IGNORE;
        }
        if (kind == NoticeKind.HEAL && notice.deadRank() == rank)
        {
            // this node is the announcer's emitter, named (and so listed in D_msg) by a JOIN that changes nothing
            return HEAL_FOR_EMITTER;
        }
        if (namesUs || fence || notice.deadRank() == rank)
        {
            return aboutThisNode(notice, namesUs, fence, minorityNotice, deadInMsg);
        }
        if (!notices.firstReceipt(notice))
        {
            counters.increment(ProtocolCounter.NOTICES_DUPLICATE);
            return IGNORE;
        }
        if (!notice.isJoin() && (minorityNotice || (majority && !quorum.leftAliveBy(deadInMsg))))
        {
            // never merge a minority's view: check whether we are on its side
            if (!majority)
            {
                counters.increment(ProtocolCounter.NOTICES_REFUSED);
                return IGNORE;
            }
            return CHECK_MINORITY;
        }
        return APPLY;
    }

    private int aboutThisNode(
        final Notice notice,
        final boolean namesUs,
        final boolean fence,
        final boolean minorityNotice,
        final RankSet deadInMsg)
    {
        if (!namesUs && notice.deadRank() == rank)
        {
            // about an older life of this rank, or this node's own JOIN passed back
            counters.increment(ProtocolCounter.STALE_FRAMES);
        }
        else if (minorityNotice || (majority && !quorum.leftAliveBy(deadInMsg)))
        {
            // never obey a minority's view of us
            counters.increment(ProtocolCounter.NOTICES_REFUSED);
        }
        else if (namesUs)
        {
            return fence ? EXCLUDE_FENCED : EXCLUDE_NOTICE;
        }
        else
        {
            // a fence is for the zombie it names alone; one that reaches anybody else is never forwarded
            counters.increment(ProtocolCounter.STRAY_FENCES);
        }
        return IGNORE;
    }

    private boolean namesThisIncarnation(final Notice notice)
    {
        // A death names this life if it is about this incarnation or a later one; a JOIN of a later one replaces it.
        // A boot member is incarnation 0 to the others whatever its own number (a pid, say).
        final long self = joined ? incarnation : 0;
        return notice.deadRank() == rank && (notice.isJoin() ?
            notice.subjectIncarnation() > self : notice.subjectIncarnation() >= self);
    }
}
