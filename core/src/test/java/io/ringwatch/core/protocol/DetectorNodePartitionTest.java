package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.NoticeSequences;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The majority rule on one node (rank 5 of 16): suspicions confirmed by probes, runs of silent predecessors,
 * the quorum and its tie-break, minority notices, fences between nodes that hold each other dead.
 */
class DetectorNodePartitionTest
{
    private static final int N = 16;
    private static final long ETA = 10;
    private static final long DELTA = 100;
    private static final long START = 1_000;

    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = new DetectorNode(
        5, 7, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);

    private int answered;

    private void runUntil(final long fromNs, final long toNs)
    {
        for (long t = fromNs; t < toNs; t += ETA / 2)
        {
            node.doWork(t);
        }
        node.doWork(toNs);
    }

    /**
     * Drive {@code n} from {@code fromNs} to {@code toNs}, every rank but the silent ones answering each probe
     * within the same half period.
     */
    private void runAnswering(final DetectorNode n, final long fromNs, final long toNs, final Set<Integer> silent)
    {
        for (long t = fromNs; t <= toNs; t += ETA / 2)
        {
            n.doWork(t);
            final List<RecordingChannels.Sent> probes = io.sentOfType("probe");
            for (; answered < probes.size(); answered++)
            {
                final RecordingChannels.Sent probe = probes.get(answered);
                if (!silent.contains(probe.to()) && n.state() == NodeState.ACTIVE)
                {
                    Deliver.probeAck(n, probe.to(), InboundFrame.UNKNOWN_INCARNATION, probe.value(), t + 1);
                }
            }
        }
    }

    private List<Integer> probed()
    {
        return io.sentOfType("probe").stream().map(RecordingChannels.Sent::to).distinct().toList();
    }

    private long token()
    {
        return io.sentOfType("probe").get(0).value();
    }

    @Test
    void shouldProbeTheSuspectItsPredecessorAndWitnessesAndDeclareOnceTheyAnswer()
    {
        runUntil(START, START + DELTA);
        assertTrue(probed().containsAll(List.of(4, 3)), "the suspect and the suspect's other ring neighbour");
        assertTrue(probed().containsAll(List.of(6, 7, 9, 1, 13)), "the observer and ranks 2^i away: " + probed());
        assertTrue(node.isAlive(4), "no answer yet: no accusation");
        assertTrue(io.sentOfType("notice").isEmpty());

        final long answeredAt = START + DELTA + 2;
        runAnswering(node, answeredAt, answeredAt + ETA - 1, Set.of(4));
        assertTrue(node.isAlive(4), "the emitter gets one more heartbeat period once we know we hear");
        runAnswering(node, answeredAt + ETA - 1, answeredAt + 2 * ETA, Set.of(4));

        assertFalse(node.isAlive(4));
        assertEquals(3, node.emitter());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_ORIGINATED));
        assertTrue(node.counter(ProtocolCounter.PROBES_SENT) < 16, "a single crash asks the witnesses, not the cluster: " + node.counter(ProtocolCounter.PROBES_SENT));
    }

    @Test
    void shouldCancelTheSuspicionWhenTheSuspectAnswers()
    {
        runUntil(START, START + DELTA);
        Deliver.probeAck(node, 4, InboundFrame.UNKNOWN_INCARNATION, token(), START + DELTA + 1);
        runUntil(START + DELTA + 1, START + DELTA + DELTA / 2);
        assertTrue(node.isAlive(4));
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
        assertEquals(NodeState.ACTIVE, node.state());
    }

    @Test
    void shouldStopAsIsolatedWithoutAccusingAnyoneWhenNobodyAnswers()
    {
        runUntil(START, START + 4 * DELTA);

        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("exclusion cause ISOLATED"), io.events::toString);
        assertEquals(0, node.deadSet().size(), "a node that cannot hear accuses nobody");
        assertTrue(io.sentOfType("notice").isEmpty());
        assertEquals(N - 1, probed().size(), "every other rank was asked");
    }

    @Test
    void shouldDeclareARunOfSilentPredecessorsInOneNoticeOnceItWasSilentForDelta()
    {
        runUntil(START, START + DELTA - 1);
        runAnswering(node, START + DELTA, START + 2 * DELTA - ETA, Set.of(4, 3, 2));
        assertTrue(node.isAlive(2), "2 and 3 were asked less than δ ago");
        assertTrue(io.sentOfType("probe").stream().filter((s) -> s.to() == 2).count() > 1, "the run is asked again");

        runAnswering(node, START + 2 * DELTA - ETA, START + 3 * DELTA, Set.of(4, 3, 2));
        assertFalse(node.isAlive(4));
        assertFalse(node.isAlive(3));
        assertFalse(node.isAlive(2));
        assertTrue(node.isAlive(1));
        assertEquals(1, node.emitter());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_ORIGINATED), "one notice for the whole run");
        assertEquals(1, node.viewEpoch());
    }

    @Test
    void shouldCountAnswersToProbesAskedAgainWhenACutHealsWhileItProbes()
    {
        // every probe of the first rounds is lost in a cut; the cut heals while the run is asked again, and the
        // answers to those second probes are the only evidence there is: counted once per rank, they show a majority
        runUntil(START, START + DELTA + 6 * ETA);
        assertTrue(probed().size() >= N - 2, "everyone was asked during the cut: " + probed());
        answered = io.sentOfType("probe").size();
        runAnswering(node, START + DELTA + 6 * ETA, START + 4 * DELTA, Set.of(4));

        assertEquals(NodeState.ACTIVE, node.state(), io.events::toString);
        assertFalse(node.isAlive(4), "the silent emitter is declared once the others are heard");
        assertEquals(1, node.deadSet().size());
    }

    @Test
    void shouldRefuseAMinorityNoticeNamingOnlyRanksItHoldsDeadWhileItsViewLeavesAMajority()
    {
        Deliver.notice(node, TestNotice.of(1, 7, 1, 2, 3), 7, InboundFrame.UNKNOWN_INCARNATION, START);
        assertEquals(3, node.deadSet().size());

        // a node that wrongly thinks itself cut off names only ranks everybody knows are dead: nothing to probe, and
        // this node's own count (13 of 16) decides, not the notice's mark
        Deliver.notice(node, TestNotice.of(1, 6, NoticeSequences.MINORITY_BASE + 1, 2, 3), 6, InboundFrame.UNKNOWN_INCARNATION, START + 1);

        assertEquals(NodeState.ACTIVE, node.state(), io.events::toString);
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_REFUSED));
        assertTrue(probed().isEmpty(), "no rank of the notice is alive here to ask: " + probed());
    }

    @Test
    void shouldSampleOnlyRanksItHoldsAliveWhenCheckingAMinorityNotice()
    {
        Deliver.notice(node, TestNotice.of(8, 7, 1, 9, 10, 11), 7, InboundFrame.UNKNOWN_INCARNATION, START);

        Deliver.notice(node, TestNotice.of(8, 6, NoticeSequences.MINORITY_BASE + 1, 9, 10, 11, 12, 13, 14, 15, 0), 6, InboundFrame.UNKNOWN_INCARNATION,
            START + 1);

        // of the notice's nine dead, 8..11 are dead here too: the four probes go to the five it holds alive
        assertEquals(Set.of(0, 12, 13, 14), Set.copyOf(probed()));
    }

    @Test
    void shouldStopAsMinorityWhenOnlyHalfTheClusterWithoutTheLowestRankAnswers()
    {
        // 5 hears only 6..12: with itself 8 of 16, and rank 0 is on the other side
        runUntil(START, START + DELTA - 1);
        runAnswering(node, START + DELTA, START + 4 * DELTA, Set.of(4, 3, 2, 1, 0, 15, 14, 13));

        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("exclusion cause MINORITY"), io.events::toString);
        assertEquals(0, node.deadSet().size(), "a minority declares nobody");
        assertFalse(io.notices.isEmpty(), "it tells its own side");
        assertTrue(io.notices.stream().allMatch((s) -> s.to() >= 6 && s.to() <= 12), io.notices::toString);
        assertTrue(io.notices.stream().allMatch((s) -> s.sequence() >= NoticeSequences.MINORITY_BASE &&
            s.sequence() < NoticeSequences.FENCE_BASE), "marked, so no receiver merges it");
    }

    @Test
    void shouldDeclareTheRunWhenExactlyHalfAnswersWithTheLowestRank()
    {
        final DetectorNode high = new DetectorNode(
            13, 7, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);
        for (long t = START; t < START + DELTA; t += ETA / 2)
        {
            high.doWork(t);
        }
        // the run 12..5 is 8 of 16; 13's side keeps 4..0 and 15, 14
        runAnswering(high, START + DELTA, START + 4 * DELTA, Set.of(12, 11, 10, 9, 8, 7, 6, 5));

        assertEquals(NodeState.ACTIVE, high.state());
        assertEquals(8, high.deadSet().size());
        assertEquals(4, high.emitter());
    }

    @Test
    void shouldNotMergeANoticeThatLeavesNoMajorityAndStopWhenItsDeadStaySilent()
    {
        Deliver.notice(node, TestNotice.of(7, 6, 1, 8, 9, 10, 11, 12, 13, 14, 15), 6, InboundFrame.UNKNOWN_INCARNATION, START);

        assertEquals(0, node.deadSet().size(), "never merged");
        assertEquals(NodeState.ACTIVE, node.state());
        assertEquals(4, probed().size(), "a sample of the notice's dead set is asked");
        assertTrue(probed().stream().allMatch((r) -> r >= 7));
        runUntil(START, START + DELTA);
        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("exclusion cause MINORITY"), io.events::toString);
    }

    @Test
    void shouldRefuseAMinorityNoticeWhenOneOfItsDeadAnswers()
    {
        Deliver.notice(node, TestNotice.of(7, 6, 1, 8, 9, 10, 11, 12, 13, 14, 15), 6, InboundFrame.UNKNOWN_INCARNATION, START);
        Deliver.probeAck(node, probed().get(1), InboundFrame.UNKNOWN_INCARNATION, token(), START + 3);
        runUntil(START + 3, START + 2 * DELTA / 3);

        assertEquals(NodeState.ACTIVE, node.state());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_REFUSED));
        assertEquals(0, node.deadSet().size());
    }

    @Test
    void shouldProbeTheDeadOfAMinorityNoticeThatAreAliveHereInsteadOfStoppingAtOnce()
    {
        // this node holds 7, 9, 11 and 13 dead (at a boot through joins: ranks it has not yet seen admitted) and
        // still counts 12 of 16 alive; 6's notice also holds 8, 10, 12, 14 and 15 dead, which leaves no majority
        Deliver.notice(node, TestNotice.of(7, 6, 1, 9, 11, 13), 6, InboundFrame.UNKNOWN_INCARNATION, START);
        assertEquals(4, node.deadSet().size());
        Deliver.notice(node, TestNotice.of(7, 6, 2, 8, 9, 10, 11, 12, 13, 14, 15), 6, InboundFrame.UNKNOWN_INCARNATION, START + 1);

        // the evenly spaced sample of the notice's dead set (7, 9, 11, 13) is all dead here: that is no sign that
        // this node is on the notice's side, the ranks it holds alive must be asked
        assertEquals(NodeState.ACTIVE, node.state(), io.events::toString);
        assertEquals(4, probed().size());
        assertTrue(probed().stream().allMatch((r) -> Set.of(8, 10, 12, 14, 15).contains(r)), probed()::toString);
        Deliver.probeAck(node, probed().get(2), InboundFrame.UNKNOWN_INCARNATION, token(), START + 3);
        runUntil(START + 3, START + 2 * DELTA);
        assertEquals(NodeState.ACTIVE, node.state());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_REFUSED));
        assertEquals(4, node.deadSet().size(), "never merged");
    }

    @Test
    void shouldNotStopOnAnUnansweredMinorityNoticeBeforeδAfterItsGraceEnds()
    {
        final RecordingChannels gracedIo = new RecordingChannels();
        final DetectorNode graced = new DetectorNode(5, 7, ProtocolSettings.of(N, ETA, DELTA)
            .withStartupGraceNs(10 * DELTA), new DoubleHypercubeSchedule(), gracedIo, gracedIo, gracedIo, START);
        Deliver.notice(graced, TestNotice.of(7, 6, 1, 8, 9, 10, 11, 12, 13, 14, 15), 6, InboundFrame.UNKNOWN_INCARNATION, START + DELTA);
        assertFalse(gracedIo.sentOfType("probe").isEmpty(), "the notice's dead are probed at once");

        // nobody answers: while JVMs start, silence is no evidence, so the verdict waits as a suspicion would
        for (long t = START + DELTA; t < START + 11 * DELTA; t += ETA / 2)
        {
            graced.doWork(t);
        }
        assertEquals(NodeState.ACTIVE, graced.state(), "unanswered only within the grace and δ after it");
        graced.doWork(START + 11 * DELTA);
        assertEquals(NodeState.EXCLUDED, graced.state(), "still unanswered δ after the grace");
        assertTrue(gracedIo.events.contains("exclusion cause MINORITY"), gracedIo.events::toString);
    }

    @Test
    void shouldObeyAFenceFromARankItHoldsDeadOnlyIfTheFencersViewLeavesAMajority()
    {
        Deliver.notice(node, TestNotice.of(6, 7, 1), 7, InboundFrame.UNKNOWN_INCARNATION, START);
        assertFalse(node.isAlive(6));

        // 6 was cut off with a minority: its fence names us but holds most of the cluster dead
        Deliver.notice(node, TestNotice.of(5, 6, NoticeSequences.FENCE_BASE + 1, 7, 8, 9, 10, 11, 12, 13, 14, 15), 6, InboundFrame.UNKNOWN_INCARNATION,
            START + 1);
        assertEquals(NodeState.ACTIVE, node.state(), "a minority's fence is refused");

        Deliver.notice(node, TestNotice.of(5, 6, NoticeSequences.FENCE_BASE + 2), 6, InboundFrame.UNKNOWN_INCARNATION, START + 2);
        assertEquals(NodeState.EXCLUDED, node.state(), "a majority's fence crosses although we hold its sender dead");
        assertTrue(io.events.contains("exclusion cause FENCED"), io.events::toString);
    }

    @Test
    void shouldKeepThePapersBehaviourUnderPolicyNone()
    {
        final RecordingChannels paperIo = new RecordingChannels();
        final DetectorNode paper = new DetectorNode(5, 7,
            ProtocolSettings.of(N, ETA, DELTA).withPartitionPolicy(PartitionPolicy.NONE),
            new DoubleHypercubeSchedule(), paperIo, paperIo, paperIo, START);
        Deliver.notice(paper, TestNotice.of(6, 7, 1), 7, InboundFrame.UNKNOWN_INCARNATION, START);
        Deliver.notice(paper, TestNotice.of(5, 6, NoticeSequences.FENCE_BASE + 1), 6, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertEquals(NodeState.ACTIVE, paper.state(), "a fence from a rank held dead is dropped");

        for (long t = START; t <= START + DELTA; t += ETA / 2)
        {
            paper.doWork(t);
        }
        assertFalse(paper.isAlive(4), "declared at δ, without probing");
        assertTrue(paperIo.sentOfType("probe").isEmpty());
    }
}
