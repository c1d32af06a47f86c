package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankArray;

/**
 * T2–T3 as the node acts on them: the emitter watched ({@link Observation}), a silence suspected, and a run of silent
 * predecessors declared dead in one notice. Under {@link PartitionPolicy#MAJORITY} the ear check ({@link
 * ProbeSession}) decides first and this part carries out its verdict: declare, stop as a minority, or stop isolated.
 * Part of one {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class Detection
{
    private static final int SMALL_RUN = 64;

    private final int rank;
    private final int clusterSize;
    private final PartitionPolicy policy;
    private final long probeTimeoutNs;
    private final LocalView view;
    private final RankArray dead;
    private final Ring ring;
    private final Observation observation;
    private final Membership membership;
    private final ProbeSession probes;
    private final MajorityRule majorityRule;
    private final HealRetell heal;
    private final Notices notices;
    private final Admission admission;
    private final Neighbours neighbours;
    private final ControlChannel control;
    private final ProtocolCounters counters;
    private final RankArray runDeclared = new RankArray(8);

    Detection(
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
        final Admission admission,
        final Neighbours neighbours,
        final ControlChannel control,
        final ProtocolCounters counters)
    {
        this.rank = ring.rank();
        this.clusterSize = ring.clusterSize();
        this.policy = settings.partitionPolicy();
        this.probeTimeoutNs = settings.probeTimeoutNs();
        this.view = view;
        this.dead = dead;
        this.ring = ring;
        this.observation = observation;
        this.membership = membership;
        this.probes = probes;
        this.majorityRule = majorityRule;
        this.heal = heal;
        this.notices = notices;
        this.admission = admission;
        this.neighbours = neighbours;
        this.control = control;
        this.counters = counters;
    }

    /**
     * T2 and T3 for one duty cycle.
     *
     * @param late this node's own duty cycle came later than the pause threshold: see the slot afresh first.
     * @return work done.
     */
    int checkEmitter(final long nowNs, final boolean late)
    {
        switch (observation.watchEmitter(nowNs, late))
        {
            case Observation.HEARD ->
            {
                membership.emitterHeard();
                probes.cancel();
                heal.onEmitterBeat(nowNs, observation.silenceNs(), observation.beats(), observation.stalled(),
                    observation.emitter(), view.active() && policy == PartitionPolicy.MAJORITY);
                return 1;
            }
            case Observation.LATE ->
            {
                // our own stall also stalled the probes' clock: start over once the slot has been seen afresh
                probes.cancel();
                return 1;
            }
            case Observation.EXPIRED ->
            {
                suspect(nowNs);
                return 1;
            }
            default ->
            {
                return 0;
            }
        }
    }

    /**
     * T3: the emitter was silent for δ. The paper declares it at once; the majority rule first checks this node can
     * still hear.
     */
    private void suspect(final long nowNs)
    {
        if (policy == PartitionPolicy.NONE)
        {
            declareRun(nowNs, ring.distance(observation.emitter()) + 1, 1);
        }
        else
        {
            enact(probeTimeoutNs == 0 ? probes.resolveEmitterAlone(nowNs) : probes.step(nowNs), nowNs);
        }
    }

    private void enact(final int verdict, final long nowNs)
    {
        switch (verdict)
        {
            case ProbeSession.DECLARE ->
            {
                // if some witness did not answer, a cut may swallow parts of the broadcast: retell once settled
                heal.retellWhenSettled(probes.retell() ? observation.emitter() : -1);
                declareRun(nowNs, probes.runEndDistance(), probes.runLength());
            }
            case ProbeSession.ISOLATED -> view.exclude(nowNs, ExclusionCause.ISOLATED, rank);
            case ProbeSession.MINORITY ->
                majorityRule.stopAsMinority(nowNs, probes.runEndDistance(), observation.emitter());
            default ->
            {
            }
        }
    }

    /**
     * Declare the run of live-in-view predecessors closer than {@code endDistance} (the emitter first) dead in one
     * notice, and mend the ring around it.
     */
    private void declareRun(final long nowNs, final int endDistance, final int runLength)
    {
        counters.increment(ProtocolCounter.SUSPICIONS);
        final int deadRank = observation.emitter();
        runDeclared.clear();
        if (runLength <= SMALL_RUN)
        {
            for (int r = observation.emitter(), i = 0; i < runLength; r = ring.previousAlive(r), i++)
            {
                view.learnDead(r, nowNs, FailureCause.DETECTED, rank);
                runDeclared.add(r);
            }
        }
        else
        {
            // ascending, so each insert is an append
            for (int r = 0; r < clusterSize; r++)
            {
                if (r != rank && !dead.contains(r) && ring.distance(r) < endDistance)
                {
                    view.learnDead(r, nowNs, FailureCause.DETECTED, rank);
                    runDeclared.add(r);
                }
            }
        }
        view.changed(nowNs);
        neighbours.afterDeaths(nowNs);
        final Notice failure = notices.originateFailure(deadRank);
        heal.recordDeath(deadRank, nowNs);
        // Fence the suspect: lost if it crashed, but if it was only paused it reads this first on resuming and
        // excludes itself, instead of coming back as a zombie that suspects its own (re-routed) emitter. It
        // counts as this zombie's fence, so a lost one is re-sent only when the zombie is heard from again.
        admission.toldSuspect(deadRank, nowNs);
        control.sendNotice(deadRank, failure);
        // D_msg carries no incarnations, so receivers merge from it only ranks at the boot incarnation: a rank of the
        // run that joined (at boot through start = join, or rejoined) needs a notice naming its incarnation
        for (int i = 0, size = runDeclared.size(); i < size; i++)
        {
            final int r = runDeclared.rankAt(i);
            if (r != deadRank && membership.incarnationOf(r) > 0)
            {
                notices.originateFailure(r);
            }
        }
    }
}
