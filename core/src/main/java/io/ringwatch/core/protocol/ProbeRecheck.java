package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;

/**
 * The ear check's recheck ({@link ProbeSession}): the evidence that this node hears a majority may be older than the
 * run's silence, answers counted while a flapping link was up for a moment, the run silent only because it went down
 * again. Before a run longer than the emitter, or one found without every witness answering, is declared, the node
 * asks again, once and under a fresh token, the witnesses, the run and (if the witnesses did not all answer) a
 * majority of M and a few more among the ranks that answered, and counts only those answers: its ear must work now,
 * while the run is still silent. A single crash seen by every witness skips this (its evidence came within a round
 * trip of the emitter's last probe), so its cost is unchanged; the others pay a probe timeout more. Asked once, not
 * again and again: on a one-port network a node that re-asks N ranks every few milliseconds queues its own probes
 * behind each other.
 * <p>
 * It asks and weighs the answers ({@link ProbeTally}); the session declares or starts afresh on what {@link #step}
 * returns. Part of one {@link DetectorNode}, driven by its thread alone. Allocation free.
 */
final class ProbeRecheck
{
    /** Waiting for the answers. */
    static final int WAIT = 0;
    /** A majority answered again: the run is judged now. */
    static final int DUE = 1;
    /** No majority answered again within δ: the earlier evidence is void. */
    static final int VOID = 2;

    private final int rank;
    private final int clusterSize;
    private final Ring ring;
    private final Observation observation;
    private final ProbeTally tally;
    private final Quorum quorum;
    private final Prober prober;
    private final long probeTimeoutNs;
    private final long suspicionTimeoutNs;
    private boolean active;
    private long startNs;
    private long untilNs;

    ProbeRecheck(
        final int rank,
        final Ring ring,
        final Observation observation,
        final ProbeTally tally,
        final Quorum quorum,
        final Prober prober,
        final ProtocolSettings settings)
    {
        this.rank = rank;
        this.clusterSize = settings.clusterSize();
        this.ring = ring;
        this.observation = observation;
        this.tally = tally;
        this.quorum = quorum;
        this.prober = prober;
        this.probeTimeoutNs = settings.probeTimeoutNs();
        this.suspicionTimeoutNs = settings.suspicionTimeoutNs();
    }

    /** @return true from {@link #start} until the session starts anew. */
    boolean active()
    {
        return active;
    }

    /** A new session: no recheck yet. */
    void reset()
    {
        active = false;
    }

    /**
     * Ask the evidence again under {@code token}.
     *
     * @param endDistance distance of the nearest predecessor that answered: the run is the live ranks closer.
     */
    void start(final long nowNs, final long token, final int endDistance)
    {
        final boolean countNeeded = !tally.allWitnessesAnswered();
        active = true;
        tally.startRecount();
        startNs = nowNs;
        untilNs = nowNs + suspicionTimeoutNs;
        prober.probeWitnesses(tally, token);
        for (int r = observation.emitter(); r != rank && ring.distance(r) < endDistance; r = ring.previousAlive(r))
        {
            if (!tally.isWitness(r))
            {
                prober.probe(r, token);
            }
        }
        if (countNeeded)
        {
            final int needed = quorum.members() / 2;
            int budget = needed + Math.max(2, needed / 8);
            final int lowest = quorum.lowestMember();
            if (lowest != rank && lowest >= 0 && tally.answeredInSession(lowest) && !tally.isWitness(lowest))
            {
                prober.probe(lowest, token);
                budget--;
            }
            for (int r = 0; r < clusterSize && budget > 0; r++)
            {
                if (r != lowest && tally.answeredInSession(r) && !tally.isWitness(r) && ring.distance(r) >= endDistance)
                {
                    prober.probe(r, token);
                    budget--;
                }
            }
        }
        observation.suspicionDeadline(nowNs + probeTimeoutNs);
    }

    /**
     * @return {@link #DUE}, {@link #VOID} or {@link #WAIT}; sets the next deadline unless the run is due.
     */
    int step(final long nowNs)
    {
        final long waitedNs = startNs + probeTimeoutNs;
        if (nowNs - waitedNs >= 0 && tally.hasMajorityEvidence())
        {
            // waited a probe timeout, so the run's own answers are in too
            return DUE;
        }
        if (nowNs - untilNs >= 0)
        {
            // not proof of a minority (answers may be slow, or a link flapping): probing starts afresh, the run stays
            // undeclared
            observation.suspicionDeadline(nowNs);
            return VOID;
        }
        // answers wake the node themselves (ProbeSession.onAck)
        observation.suspicionDeadline(nowNs - waitedNs < 0 ? waitedNs : untilNs);
        return WAIT;
    }
}
