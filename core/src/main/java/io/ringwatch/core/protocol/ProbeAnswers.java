package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ControlChannel;

/**
 * PROBE and PROBE_ACK as frames: a probe is answered unless its sender is dead in this view (then it is fenced
 * instead) or a stale life, and a joining node answers nobody; an answer goes to the minority check it refutes
 * ({@link MajorityRule}) or to the ear check ({@link ProbeSession}). Part of one {@link DetectorNode}, driven by its
 * thread alone; allocation free.
 */
final class ProbeAnswers
{
    private final int rank;
    private final Admission admission;
    private final MajorityRule majorityRule;
    private final ProbeSession probes;
    private final ControlChannel control;
    private final ProtocolCounters counters;

    ProbeAnswers(
        final int rank,
        final Admission admission,
        final MajorityRule majorityRule,
        final ProbeSession probes,
        final ControlChannel control,
        final ProtocolCounters counters)
    {
        this.rank = rank;
        this.admission = admission;
        this.majorityRule = majorityRule;
        this.probes = probes;
        this.control = control;
        this.counters = counters;
    }

    void onProbe(final int fromRank, final long fromIncarnation, final long token, final long nowNs)
    {
        if (admission.admitQuietly(fromRank, fromIncarnation, nowNs) && fromRank != rank)
        {
            control.sendProbeAck(fromRank, token);
        }
    }

    void onProbeAck(final int fromRank, final long fromIncarnation, final long token, final long nowNs)
    {
        if (!admission.admitQuietly(fromRank, fromIncarnation, nowNs) || fromRank == rank)
        {
            return;
        }
        if (majorityRule.refutedBy(token))
        {
            // someone the notice held dead answered: its sender's side is not ours
            counters.increment(ProtocolCounter.NOTICES_REFUSED);
            return;
        }
        probes.onAck(fromRank, token, nowNs);
    }
}
