package io.ringwatch.core.protocol;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ear check alone, without a node: it probes, counts and returns a verdict, and acts on nobody. Rank 3 of 8
 * watches rank 2; every probe to a rank in the answering set is answered at once.
 */
class ProbeSessionTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long ETA = 10;
    private static final long DELTA = 100;
    private static final long PROBE_TIMEOUT = 20;
    private static final int MAX_STEPS = 1_000;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, ETA, DELTA)
        .withPartitionPolicy(PartitionPolicy.MAJORITY).withProbeTimeoutNs(PROBE_TIMEOUT);
    private final Observation observation = new Observation(RANK, settings, io, io, new Membership(DELTA / 2), counters);
    private final ProbeSession probes = new ProbeSession(RANK, new Ring(RANK, N, dead), observation, dead,
        new Quorum(N, settings.settlePeriodNs(), 0), io, settings, counters);
    private int probesAnswered;
    private long decidedAtNs;

    @Test
    void shouldDeclareASilentEmitterAloneWhenEveryoneElseAnswers()
    {
        assertEquals(RunVerdict.DECLARE, runUntilVerdict(Set.of(0, 1, 4, 5, 6, 7)));
        assertEquals(1, probes.verdict().length());
        assertEquals(2, probes.verdict().endDistance(), "the run ends at rank 1, two behind");
        assertFalse(probes.verdict().retell(), "every witness answered");
        assertFalse(probes.active());
    }

    @Test
    void shouldDeclareARunOfTwoOnlyAfterAskingTheEvidenceAgain()
    {
        assertEquals(RunVerdict.DECLARE, runUntilVerdict(Set.of(0, 4, 5, 6, 7)));
        assertEquals(2, probes.verdict().length(), "ranks 2 and 1");
        assertEquals(3, probes.verdict().endDistance());
        assertTrue(probes.verdict().retell(), "witness 1 never answered: a cut may swallow parts of the broadcast");
    }

    @Test
    void shouldStopIsolatedWhenNobodyAnswers()
    {
        assertEquals(RunVerdict.ISOLATED, runUntilVerdict(Set.of()));
        assertTrue(decidedAtNs >= 2 * DELTA, "everyone stayed silent for δ after the last round: " + decidedAtNs);
    }

    @Test
    void shouldStopAsAMinorityWhenTooFewAnswer()
    {
        assertEquals(RunVerdict.MINORITY, runUntilVerdict(Set.of(4)));
        assertEquals(7, probes.verdict().endDistance(), "the run it could not hear: everyone behind it up to rank 4");
    }

    /**
     * The emitter's deadline passed at δ: step the session at each deadline it asks for, answering probes as they go.
     */
    private int runUntilVerdict(final Set<Integer> answering)
    {
        observation.rebase(0);
        long nowNs = DELTA;
        for (int i = 0; i < MAX_STEPS; i++)
        {
            final int verdict = probes.step(nowNs);
            if (verdict != RunVerdict.UNDECIDED)
            {
                decidedAtNs = nowNs;
                return verdict;
            }
            answer(answering, nowNs);
            nowNs = Math.max(nowNs + 1, observation.suspicionDeadlineNs());
        }
        throw new AssertionError("no verdict after " + MAX_STEPS + " steps");
    }

    private void answer(final Set<Integer> answering, final long nowNs)
    {
        final var sent = io.sentOfType("probe");
        for (; probesAnswered < sent.size(); probesAnswered++)
        {
            final RecordingChannels.Sent probe = sent.get(probesAnswered);
            if (answering.contains(probe.to()))
            {
                probes.onAck(probe.to(), probe.value(), nowNs);
            }
        }
    }
}
