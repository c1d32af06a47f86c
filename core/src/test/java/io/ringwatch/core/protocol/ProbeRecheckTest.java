package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recheck alone: whom it asks again and what it makes of the answers. Rank 3 of 8 watches rank 2; its witnesses
 * are ranks 4, 2 (the emitter, left out), 5, 1 and 7; the run judged is ranks 2 and 1 (it ends at distance 3).
 */
class ProbeRecheckTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final int EMITTER = 2;
    private static final long DELTA = 100;
    private static final long PROBE_TIMEOUT = 20;
    private static final long TOKEN = 8;
    private static final long START = 1_000;
    private static final int RUN_END = 3;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, 10, DELTA)
        .withPartitionPolicy(PartitionPolicy.MAJORITY).withProbeTimeoutNs(PROBE_TIMEOUT);
    private final Observation observation = new Observation(RANK, settings, io, io, new Membership(DELTA / 2), counters);
    private final Quorum quorum = new Quorum(N, settings.settlePeriodNs(), 0);
    private final ProbeTally tally = new ProbeTally(RANK, N, dead, quorum, true);
    private final ProbeRecheck recheck = new ProbeRecheck(
        RANK, new Ring(RANK, N, dead), observation, tally, quorum, new Prober(io, counters), settings);

    @BeforeEach
    void startSession()
    {
        observation.rebase(0);
        assertEquals(EMITTER, observation.emitter());
        tally.startSession(EMITTER);
    }

    @Test
    void shouldAskTheWitnessesAndTheRunAgainAndBeDueOnceEveryWitnessAnswersAfterAProbeTimeout()
    {
        answer(4, 5, 1, 7);
        recheck.start(START, TOKEN, RUN_END);
        assertTrue(recheck.active());
        assertEquals(Set.of(4, 5, 1, 7, EMITTER), probedUnder(TOKEN), "witnesses, then the run's rank 2");
        assertEquals(5, counters.get(ProtocolCounter.PROBES_SENT));
        assertFalse(tally.hasMajorityEvidence(), "the session's answers do not count in the recheck");

        answer(4, 5, 1, 7);
        assertEquals(ProbeRecheck.WAIT, recheck.step(START + PROBE_TIMEOUT - 1), "the run's own answers may be on the way");
        assertEquals(START + PROBE_TIMEOUT, observation.suspicionDeadlineNs());
        assertEquals(ProbeRecheck.DUE, recheck.step(START + PROBE_TIMEOUT));
    }

    @Test
    void shouldAlsoAskAMajorityAmongThoseThatAnsweredWhenAWitnessWasSilent()
    {
        // witness 7 never answered in the session; 0 (the lowest member) and 6 did
        answer(4, 5, 1, 0, 6);
        recheck.start(START, TOKEN, RUN_END);
        assertEquals(Set.of(4, 5, 1, 7, EMITTER, 0, 6), probedUnder(TOKEN));
    }

    @Test
    void shouldVoidTheEvidenceWhenNoMajorityAnswersWithinDelta()
    {
        answer(4, 5, 1, 7);
        recheck.start(START, TOKEN, RUN_END);
        answer(4);
        assertEquals(ProbeRecheck.WAIT, recheck.step(START + PROBE_TIMEOUT));
        assertEquals(START + DELTA, observation.suspicionDeadlineNs(), "waits for answers until δ is over");
        assertEquals(ProbeRecheck.VOID, recheck.step(START + DELTA));
        assertEquals(START + DELTA, observation.suspicionDeadlineNs(), "the session starts afresh at once");

        recheck.reset();
        assertFalse(recheck.active());
    }

    /** Count answers: the session's before {@link ProbeRecheck#start}, the recount's after. */
    private void answer(final int... ranks)
    {
        for (final int r : ranks)
        {
            tally.count(r);
        }
    }

    private Set<Integer> probedUnder(final long token)
    {
        final Set<Integer> probed = new TreeSet<>();
        for (final RecordingChannels.Sent probe : io.sentOfType("probe"))
        {
            assertEquals(token, probe.value());
            probed.add(probe.to());
        }
        return probed;
    }
}
