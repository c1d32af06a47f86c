package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.RankArray;

/**
 * This node's view and its role in it: the dead set D, the view epoch and the {@link NodeState}. The parts of a
 * {@link DetectorNode} change them only through here, so each change reaches the application ({@link
 * MembershipListener}) exactly once and in the order it happened. The joiner's first view ({@link Joining}) and the
 * boot's not-yet-admitted ranks ({@link Membership#holdNotYetAdmitted}) fill D before anything is reported.
 * Part of one node, driven by its thread alone; allocation free.
 */
final class LocalView
{
    private final int rank;
    private final RankArray dead;
    private final Membership membership;
    private final Quorum quorum;
    private final MembershipListener listener;
    private final long deathWindowNs;
    private NodeState state = NodeState.ACTIVE;
    private long epoch;

    LocalView(
        final int rank,
        final RankArray dead,
        final Membership membership,
        final Quorum quorum,
        final MembershipListener listener,
        final long suspicionTimeoutNs)
    {
        this.rank = rank;
        this.dead = dead;
        this.membership = membership;
        this.quorum = quorum;
        this.listener = listener;
        // deaths closer together than this are one event for a joiner's re-ask (Membership#deathLearned)
        this.deathWindowNs = 4 * suspicionTimeoutNs;
    }

    NodeState state()
    {
        return state;
    }

    boolean active()
    {
        return state == NodeState.ACTIVE;
    }

    boolean joining()
    {
        return state == NodeState.JOINING;
    }

    void become(final NodeState next)
    {
        state = next;
    }

    long epoch()
    {
        return epoch;
    }

    /**
     * Add {@code deadRank} to D and tell the application; this node's own rank is never added.
     *
     * @return true if D changed.
     */
    boolean learnDead(final int deadRank, final long nowNs, final FailureCause cause, final int reporter)
    {
        if (deadRank == rank || !dead.add(deadRank))
        {
            return false;
        }
        membership.deathLearned(nowNs, deathWindowNs);
        listener.onFailure(deadRank, nowNs, cause, reporter);
        return true;
    }

    /**
     * A rank admitted again leaves D; {@link #reportJoin} tells the application once its ring is mended.
     */
    void revive(final int joiner)
    {
        dead.remove(joiner);
    }

    void reportJoin(final int joiner, final long joinerIncarnation, final long nowNs)
    {
        listener.onJoin(joiner, joinerIncarnation, nowNs);
    }

    /**
     * One change of D is complete: a new epoch, and the settled membership starts waiting for quiet again.
     */
    void changed(final long nowNs)
    {
        listener.onViewChange(++epoch, dead.size(), nowNs);
        quorum.viewChanged(nowNs);
    }

    /**
     * This node's own transport failed: every silence from now on would be its own fault, so it stops at once and
     * blames nobody; the others detect it as a crash, or, if it was still joining, never knew it.
     */
    void stopOnOwnFault(final long nowNs, final ExclusionCause cause)
    {
        // a joiner too: it has no part in anyone's view, but a process whose node never says it stopped waits for
        // ever on a dead agent (the 30-minute nemesis found joiners so, their host's driver never restarted)
        if (state == NodeState.ACTIVE || state == NodeState.JOINING)
        {
            exclude(nowNs, cause, rank);
        }
    }

    /**
     * Stop taking part, for good: left on request, or excluded for {@code cause}.
     */
    void exclude(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
        state = cause == ExclusionCause.LEFT ? NodeState.LEFT : NodeState.EXCLUDED;
        listener.onExcluded(nowNs, cause, reporterRank);
    }
}
