package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.RankSet;

/**
 * Repair after a cut (off the paper's map): a cut swallows parts of the broadcasts sent while it lasts, and nobody
 * repeats a broadcast on its own. Two rules mend that.
 * <ul>
 * <li><b>Retell when settled.</b> A node that declared a death while part of the ring did not answer its probes (a
 * cut) tells the death once more when its view has been quiet for 2δ: by then its D holds the other side too, so the
 * schedule routes around it and the nodes that missed the first broadcast learn it.</li>
 * <li><b>Heal and retell.</b> A node whose emitter beats again after a silence that looks like a cut announces a heal
 * (a JOIN of the emitter that changes no view, see {@link Notices#originateHeal}); on a heal every node retells the
 * deaths it detected and the JOINs it admitted lately ({@link RecentChanges}).</li>
 * </ul>
 * Under the majority rule only: the paper's rule repairs nothing.
 */
final class HealRetell
{
    private static final int NO_RETELL = -1;
    private static final int RECENT_CHANGES = 16;

    private final int rank;
    private final long heartbeatPeriodNs;
    private final long suspicionTimeoutNs;
    private final long settlePeriodNs;
    private final long healSilenceNs;
    private final Ring ring;
    private final RankSet dead;
    private final Membership membership;
    private final Quorum quorum;
    private final Notices notices;
    private final ProtocolCounters counters;
    private final RecentChanges recentChanges = new RecentChanges(RECENT_CHANGES);

    private long healHeardNs = Long.MIN_VALUE / 2;
    private int retellDeadRank = NO_RETELL;

    HealRetell(
        final ProtocolSettings settings,
        final Ring ring,
        final RankSet dead,
        final Membership membership,
        final Quorum quorum,
        final Notices notices,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.heartbeatPeriodNs = settings.heartbeatPeriodNs();
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.settlePeriodNs = settings.settlePeriodNs();
        this.healSilenceNs = Math.max(2 * heartbeatPeriodNs, suspicionTimeoutNs / 2);
        this.ring = ring;
        this.dead = dead;
        this.membership = membership;
        this.quorum = quorum;
        this.notices = notices;
        this.counters = counters;
    }

    /**
     * This node declared {@code deadRank} dead (T3), or announced it for a newer life: remembered for a heal.
     */
    void recordDeath(final int deadRank, final long nowNs)
    {
        recentChanges.record(false, deadRank, membership.incarnationOf(deadRank), nowNs, rank, 0);
    }

    /**
     * {@code joiner} was admitted by {@code contact}: remembered for a heal.
     */
    void recordJoin(final int joiner, final long joinerIncarnation, final long nowNs, final int contact)
    {
        recentChanges.record(true, joiner, joinerIncarnation, nowNs, contact, membership.incarnationOf(contact));
    }

    /**
     * @param deadRank the death to tell again once the view has settled, because some witness did not answer (a cut
     *                 may swallow parts of the broadcast); negative for none, which also forgets a pending one.
     */
    void retellWhenSettled(final int deadRank)
    {
        retellDeadRank = deadRank < 0 ? NO_RETELL : deadRank;
    }

    /**
     * Tell the pending death again if the view has been quiet for 2δ.
     *
     * @return 1 if it was told (or dropped: the rank rejoined meanwhile), 0 if nothing was due.
     */
    int retellIfSettled(final long nowNs)
    {
        if (retellDeadRank == NO_RETELL || nowNs - retellAtNs() < 0)
        {
            return 0;
        }
        final int deadRank = retellDeadRank;
        retellDeadRank = NO_RETELL;
        if (!dead.contains(deadRank))
        {
            // it rejoined meanwhile: retelling now would declare its new life dead
            return 0;
        }
        notices.originateFailure(deadRank);
        return 1;
    }

    /**
     * @return when {@link #retellIfSettled} has something to do, {@link Long#MAX_VALUE} if nothing is pending.
     */
    long deadlineNs()
    {
        return retellDeadRank == NO_RETELL ? Long.MAX_VALUE : retellAtNs();
    }

    /**
     * The emitter beats again after {@code silenceNs}. If it had been silent for more than δ/2 (lost heartbeats alone
     * do not do that), a cut may have kept from the far side the deaths and JOINs broadcast meanwhile: their
     * broadcasts are not repeated, and a JOIN has no observer to notice it missing. Announce the heal, so that every
     * node retells what it originated lately, unless another node's heal notice came within δ/2: every node on a
     * cut's edge sees the same heal, and one announcement is enough (each is a broadcast, and too many at once would
     * overrun the broadcast-id memory).
     * <p>
     * A stall is not a cut, and heals cost a broadcast per recent change: at a boot through joins, with JVMs
     * compiling on shared cores, treating every stall as a heal flooded the cluster with retold JOINs. So the silence
     * must have been watched (no late duty cycle of this node's since the emitter was last heard) and the emitter must
     * have gone on beating through it: its counter advanced by at least half the beats the silence spans, beats the
     * cut swallowed; an emitter that stood still resumes one beat on (it skips the beats it missed). A new emitter's
     * first beat carries no count to compare; it must come more than δ late, later than any boot stall measured.
     *
     * @param beats     how far the emitter's counter moved, 0 for a new emitter's first beat.
     * @param stalled   this node ran late since it last heard the emitter.
     * @param mayRepair this node is active under the majority rule.
     */
    void onEmitterBeat(
        final long nowNs, final long silenceNs, final long beats, final boolean stalled, final int emitter,
        final boolean mayRepair)
    {
        if (!cutHealed(silenceNs, beats, stalled) || !mayRepair || nowNs - healHeardNs <= healSilenceNs)
        {
            return;
        }
        counters.increment(ProtocolCounter.HEALS_ANNOUNCED);
        healHeardNs = nowNs;
        notices.originateHeal(emitter);
        retellRecent(nowNs);
    }

    /**
     * Another node's heal notice arrived.
     */
    void onHeal(final long nowNs)
    {
        healHeardNs = nowNs;
        retellRecent(nowNs);
    }

    private boolean cutHealed(final long silenceNs, final long beats, final boolean stalled)
    {
        if (stalled || silenceNs <= healSilenceNs)
        {
            return false;
        }
        return beats == 0 ? silenceNs > suspicionTimeoutNs : 2 * beats * heartbeatPeriodNs >= silenceNs;
    }

    /**
     * A cut somewhere healed, and the far side may have missed the deaths and JOINs broadcast while it lasted. Tell
     * again those of the last settle period that are still current (a longer cut stops the minority, whose nodes then
     * rejoin), each at most once per δ/2 however many heal notices come (one heal announces itself at most once per
     * δ/2, and a link flapping faster may cut a retelling): a death by its detector (its notice carries the
     * detector's whole dead set), a JOIN by its contact or, if the contact has died since, by the contact's successor
     * (nobody else would ever notice a JOIN missing).
     */
    private void retellRecent(final long nowNs)
    {
        final long windowNs = nowNs - settlePeriodNs;
        for (int i = 0, size = recentChanges.size(); i < size; i++)
        {
            final boolean join = recentChanges.isJoinAt(i);
            final int subject = recentChanges.rankAt(i);
            final long subjectIncarnation = recentChanges.incarnationAt(i);
            final long toldNs = recentChanges.toldNsAt(i);
            if (recentChanges.admittedNsAt(i) - windowNs < 0 || dead.contains(subject) == join ||
                membership.incarnationOf(subject) != subjectIncarnation || !mayRetell(i) ||
                (toldNs != recentChanges.admittedNsAt(i) && nowNs - toldNs <= healSilenceNs))
            {
                continue;
            }
            recentChanges.told(i, nowNs);
            counters.increment(ProtocolCounter.HEAL_RETELLS);
            if (join)
            {
                notices.originateJoin(subject, subjectIncarnation);
            }
            else
            {
                notices.originateFailure(subject);
            }
        }
    }

    /**
     * The contact retells its JOINs. If it has died since (or lives on under a newer incarnation, which knows nothing
     * of them), its nearest live successor in this view retells them for it: one node, not every node that learned
     * them, so a heal costs a broadcast per JOIN.
     */
    private boolean mayRetell(final int i)
    {
        final int contact = recentChanges.contactAt(i);
        if (contact == rank)
        {
            return true;
        }
        if (!ring.isRank(contact) ||
            (!dead.contains(contact) && membership.incarnationOf(contact) == recentChanges.contactIncarnationAt(i)))
        {
            return false;
        }
        return ring.nextAlive(contact) == rank;
    }

    private long retellAtNs()
    {
        return quorum.lastChangeNs() + 2 * suspicionTimeoutNs;
    }
}
