package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ControlChannel;

/**
 * Sends a node's probes, each counted, under tokens it draws: the ear check's ({@link ProbeSession},
 * {@link ProbeRecheck}) and, through the session, the minority verification's ({@link MajorityRule}). Part of one
 * {@link DetectorNode}, driven by its thread alone. Allocation free.
 */
final class Prober
{
    private final ControlChannel control;
    private final ProtocolCounters counters;
    private long epoch;

    Prober(final ControlChannel control, final ProtocolCounters counters)
    {
        this.control = control;
        this.counters = counters;
    }

    /** @return a fresh probe epoch, shifted left by two to leave room for {@link ProbeSession#VERIFY}. */
    long nextToken()
    {
        return ++epoch << 2;
    }

    void probe(final int to, final long token)
    {
        counters.increment(ProtocolCounter.PROBES_SENT);
        control.sendProbe(to, token);
    }

    /** Probe every witness of the session ({@link ProbeTally}). */
    void probeWitnesses(final ProbeTally tally, final long token)
    {
        for (int i = 0, count = tally.witnessCount(); i < count; i++)
        {
            probe(tally.witness(i), token);
        }
    }
}
