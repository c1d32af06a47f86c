package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;

/**
 * What {@link PartitionPolicy#MAJORITY} makes a node do with the settled membership M ({@link Quorum}): stop when
 * its view leaves no majority, telling its side with a minority notice, and check a minority notice it receives.
 * <p>
 * A minority notice (D_msg leaving no majority of M) is never merged. Its sender's side is a minority; a receiver is
 * on that side iff it cannot hear D_msg either, so it probes a sample of D_msg and stops if none answers within δ,
 * while one answer refutes the notice. Part of one {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class MajorityRule
{
    private static final int VERIFY_SAMPLE = 4;

    private final LocalView view;
    private final Notices notices;
    private final ProtocolCounters counters;
    private final Ring ring;
    private final Observation observation;
    private final int rank;
    private final int clusterSize;
    private final RankSet dead;
    private final Quorum quorum;
    private final ProbeSession probes;
    private final long suspicionTimeoutNs;
    // 0 with BREAK_JOIN_SETTLE: a joined rank counts only once the whole settle period has passed
    private final long joinQuietNs;
    private final RankArray minorityDead = new RankArray(8);
    private final int[] verifySample = new int[VERIFY_SAMPLE];

    private boolean verifying;
    private long verifyToken;
    private int verifySampleSize;
    private int verifySource;
    private long verifyUntilNs;
    private long verifyReprobeNs;

    MajorityRule(
        final LocalView view,
        final Notices notices,
        final ProtocolCounters counters,
        final Ring ring,
        final Observation observation,
        final RankSet dead,
        final Quorum quorum,
        final ProbeSession probes,
        final ProtocolSettings settings)
    {
        this.view = view;
        this.notices = notices;
        this.counters = counters;
        this.ring = ring;
        this.observation = observation;
        this.rank = ring.rank();
        this.clusterSize = settings.clusterSize();
        this.dead = dead;
        this.quorum = quorum;
        this.probes = probes;
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
        this.joinQuietNs = settings.breaks(BrokenRules.BREAK_JOIN_SETTLE) ? 0 :
            Math.min(2 * settings.suspicionTimeoutNs(), settings.settlePeriodNs());
    }

    /**
     * @return the settled membership.
     */
    Quorum quorum()
    {
        return quorum;
    }

    /**
     * Let M grow by the ranks that joined since it settled once their JOINs are 2δ old, instead of a whole settle
     * period: until then the members do not count a joiner while the joiner counts itself, and in a cluster of three
     * whose M is two after a restart, the lowest rank's death right after the join left the other member a tie
     * without the lowest rank, so it stopped, and the joiner with it. Not while this node judges a silence: a cut
     * that kept a JOIN from some members began before they had it, and the nodes next to it suspect within δ, so they
     * count with the M the other side has too. Only deaths need the settle period (M never shrinks under a minority
     * still finding out); a JOIN reaches every member in a broadcast's time, well within δ.
     *
     * @param nowNs protocol time.
     */
    void growWithJoins(final long nowNs)
    {
        if (joinQuietNs > 0 && !verifying && !probes.active())
        {
            quorum.growIfOnlyJoined(dead, nowNs, joinQuietNs);
        }
    }

    /**
     * @return true if this node's view leaves a majority of M alive (M as it stands, not settled afresh).
     */
    boolean viewHoldsMajority()
    {
        return quorum.holds(quorum.aliveMembers(dead), !dead.contains(quorum.lowestMember()));
    }

    /**
     * A contact admits a joiner only while it is sure to be on a majority side: not while it verifies a minority
     * notice, nor while it probes a silent run without a majority heard, and only if its view leaves a majority.
     *
     * @param nowNs protocol time.
     * @return true if a join may be admitted now.
     */
    boolean admitsJoin(final long nowNs)
    {
        quorum.settleIfDue(dead, nowNs);
        return !verifying && (!probes.active() || probes.hasMajorityEvidence()) && viewHoldsMajority();
    }

    /**
     * Tell this node's side (every rank outside D ∪ run, by the usual schedule) that it holds no majority, then stop.
     * The notice names {@code deadRank}; its D_msg leaves no majority, so no receiver merges it: each checks for
     * itself.
     *
     * @param nowNs       protocol time.
     * @param endDistance ranks closer than this behind this node are the run it could not hear.
     * @param deadRank    the rank the notice names.
     */
    void stopAsMinority(final long nowNs, final int endDistance, final int deadRank)
    {
        minorityDead.clear();
        for (int r = 0; r < clusterSize; r++)
        {
            if (dead.contains(r) || (r != rank && ring.distance(r) < endDistance))
            {
                minorityDead.add(r);
            }
        }
        // from MINORITY_BASE up, so no receiver merges it
        notices.originateMinority(deadRank, minorityDead);
        view.exclude(nowNs, ExclusionCause.MINORITY, rank);
    }

    /**
     * @return true while a minority notice is being checked.
     */
    boolean verifying()
    {
        return verifying;
    }

    /**
     * @return when the verification next needs a duty cycle; only meaningful while {@link #verifying()}.
     */
    long verifyDeadlineNs()
    {
        return verifyReprobeNs - verifyUntilNs < 0 ? verifyReprobeNs : verifyUntilNs;
    }

    /**
     * Re-probe the sample, or stop once it stayed silent for δ.
     *
     * @param nowNs protocol time.
     * @return work done.
     */
    int checkVerification(final long nowNs)
    {
        if (!verifying)
        {
            return 0;
        }
        if (nowNs - verifyUntilNs >= 0)
        {
            verifying = false;
            view.exclude(nowNs, ExclusionCause.MINORITY, verifySource);
            return 1;
        }
        if (nowNs - verifyReprobeNs >= 0)
        {
            for (int i = 0; i < verifySampleSize; i++)
            {
                probes.probe(verifySample[i], verifyToken);
            }
            verifyReprobeNs = nowNs + probes.reprobeIntervalNs();
            return 1;
        }
        return 0;
    }

    /**
     * A notice whose D_msg leaves no majority came from a live node of this node's view: probe a sample of D_msg.
     *
     * @param deadInMsg  the notice's D_msg.
     * @param sourceRank its originator.
     * @param nowNs      protocol time.
     */
    void verifyMinority(final RankSet deadInMsg, final int sourceRank, final long nowNs)
    {
        if (verifying)
        {
            return;
        }
        // sample only ranks this node holds alive: a rank both views hold dead answers nobody, so its silence says
        // nothing about which side this node is on
        int alive = 0;
        final int size = deadInMsg.size();
        for (int i = 0; i < size; i++)
        {
            alive += isAliveHere(deadInMsg.rankAt(i)) ? 1 : 0;
        }
        verifySampleSize = 0;
        final int wanted = Math.min(VERIFY_SAMPLE, alive);
        for (int i = 0, seen = 0; i < size && verifySampleSize < wanted; i++)
        {
            final int r = deadInMsg.rankAt(i);
            if (isAliveHere(r))
            {
                // the k-th pick is the (k * alive / wanted)-th alive member: spread over D_msg, as the ring is cut
                if (seen == (int)((long)verifySampleSize * alive / wanted))
                {
                    verifySample[verifySampleSize++] = r;
                }
                seen++;
            }
        }
        verifySource = sourceRank;
        if (verifySampleSize == 0)
        {
            // D_msg names nobody this node holds alive: the notice tells it nothing, and its own count decides
            if (viewHoldsMajority())
            {
                counters.increment(ProtocolCounter.NOTICES_REFUSED);
            }
            else
            {
                view.exclude(nowNs, ExclusionCause.MINORITY, sourceRank);
            }
            return;
        }
        verifying = true;
        verifyToken = probes.nextToken() | ProbeSession.VERIFY;
        // like a suspicion, never concluded from silence before δ after the grace: at a boot through joins a notice
        // holding ranks not yet admitted dead can look like a minority's, and the probes that would refute it went
        // unanswered for 10 ms while 16 JVMs warmed up on two cores, which stopped all three seeds
        verifyUntilNs = observation.armed(nowNs + suspicionTimeoutNs);
        verifyReprobeNs = nowNs + probes.reprobeIntervalNs();
        for (int i = 0; i < verifySampleSize; i++)
        {
            probes.probe(verifySample[i], verifyToken);
        }
    }

    private boolean isAliveHere(final int r)
    {
        return r >= 0 && r < clusterSize && r != rank && !dead.contains(r);
    }

    /**
     * A PROBE_ACK: if it answers the verification, someone the notice held dead answered, so its sender's side is
     * not this node's and the notice is refused.
     *
     * @param token the answer's token.
     * @return true if it refuted the notice being verified.
     */
    boolean refutedBy(final long token)
    {
        if (verifying && token == verifyToken)
        {
            verifying = false;
            return true;
        }
        return false;
    }
}
