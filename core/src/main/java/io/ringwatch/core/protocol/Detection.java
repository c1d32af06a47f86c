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

    private final Shared shared;
    private final PartitionPolicy policy;
    private final long probeTimeoutNs;
    private final ProbeSession probes;
    private final MajorityRule majorityRule;
    private final HealRetell heal;
    private final Admission admission;
    private final Neighbours neighbours;
    private final RankArray runDeclared = new RankArray(8);

    Detection(
        final Shared shared,
        final ProtocolSettings settings,
        final ProbeSession probes,
        final MajorityRule majorityRule,
        final HealRetell heal,
        final Admission admission,
        final Neighbours neighbours)
    {
        this.shared = shared;
        this.policy = settings.partitionPolicy();
        this.probeTimeoutNs = settings.probeTimeoutNs();
        this.probes = probes;
        this.majorityRule = majorityRule;
        this.heal = heal;
        this.admission = admission;
        this.neighbours = neighbours;
    }

    /**
     * T2 and T3 for one duty cycle.
     *
     * @param late this node's own duty cycle came later than the pause threshold: see the slot afresh first.
     * @return work done.
     */
    int checkEmitter(final long nowNs, final boolean late)
    {
        switch (shared.observation.watchEmitter(nowNs, late))
        {
            case Observation.HEARD ->
            {
                shared.membership.emitterHeard();
                probes.cancel();
                final Observation observation = shared.observation;
                heal.onEmitterBeat(nowNs, observation.silenceNs(), observation.beats(), observation.stalled(),
                    observation.emitter(), shared.view.active() && policy == PartitionPolicy.MAJORITY);
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
            declareRun(nowNs, shared.ring.distance(shared.observation.emitter()) + 1, 1);
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
            case RunVerdict.DECLARE ->
            {
                // if some witness did not answer, a cut may swallow parts of the broadcast: retell once settled
                heal.retellWhenSettled(probes.verdict().retell() ? shared.observation.emitter() : -1);
                declareRun(nowNs, probes.verdict().endDistance(), probes.verdict().length());
            }
            case RunVerdict.ISOLATED -> shared.view.exclude(nowNs, ExclusionCause.ISOLATED, shared.rank);
            case RunVerdict.MINORITY ->
                majorityRule.stopAsMinority(nowNs, probes.verdict().endDistance(), shared.observation.emitter());
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
        shared.counters.increment(ProtocolCounter.SUSPICIONS);
        final int deadRank = shared.observation.emitter();
        runDeclared.clear();
        if (runLength <= SMALL_RUN)
        {
            for (int r = shared.observation.emitter(), i = 0; i < runLength; r = shared.ring.previousAlive(r), i++)
            {
                shared.view.learnDead(r, nowNs, FailureCause.DETECTED, shared.rank);
                runDeclared.add(r);
            }
        }
        else
        {
            // ascending, so each insert is an append
            for (int r = 0; r < shared.clusterSize; r++)
            {
                if (r != shared.rank && !shared.dead.contains(r) && shared.ring.distance(r) < endDistance)
                {
                    shared.view.learnDead(r, nowNs, FailureCause.DETECTED, shared.rank);
                    runDeclared.add(r);
                }
            }
        }
        shared.view.changed(nowNs);
        neighbours.afterDeaths(nowNs);
        final Notice failure = shared.notices.originateFailure(deadRank);
        heal.recordDeath(deadRank, nowNs);
        // Fence the suspect: lost if it crashed, but if it was only paused it reads this first on resuming and
        // excludes itself, instead of coming back as a zombie that suspects its own (re-routed) emitter. It
        // counts as this zombie's fence, so a lost one is re-sent only when the zombie is heard from again.
        admission.toldSuspect(deadRank, nowNs);
        shared.control.sendNotice(deadRank, failure);
        // D_msg carries no incarnations, so receivers merge from it only ranks at the boot incarnation: a rank of the
        // run that joined (at boot through start = join, or rejoined) needs a notice naming its incarnation
        for (int i = 0, size = runDeclared.size(); i < size; i++)
        {
            final int r = runDeclared.rankAt(i);
            if (r != deadRank && shared.membership.incarnationOf(r) > 0)
            {
                shared.notices.originateFailure(r);
            }
        }
    }
}
