package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import org.junit.jupiter.api.Test;

import java.util.List;

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
    private static final long PROBE = ProtocolSettings.defaultProbeTimeoutNs(ETA, DELTA);

    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = new DetectorNode(
        5, 7, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);

    private void runUntil(final long fromNs, final long toNs)
    {
        for (long t = fromNs; t < toNs; t += ETA / 2)
        {
            node.doWork(t);
        }
        node.doWork(toNs);
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
    void shouldProbeTheSuspectAndItsPredecessorBeforeDeclaringAndDeclareOnceThePredecessorAnswers()
    {
        runUntil(START, START + DELTA);
        assertEquals(List.of(4, 3), probed(), "round one: the suspect and the suspect's other ring neighbour");
        assertTrue(node.isAlive(4), "no answer yet: no accusation");
        assertTrue(io.sentOfType("notice").isEmpty());

        final long answeredAt = START + DELTA + 2;
        node.onProbeAck(3, token(), answeredAt);
        runUntil(answeredAt, answeredAt + ETA - 1);
        assertTrue(node.isAlive(4), "the emitter gets one more heartbeat period once we know we hear");
        node.doWork(answeredAt + ETA);

        assertFalse(node.isAlive(4));
        assertEquals(3, node.emitter());
        assertEquals(1, node.noticesOriginated());
        assertTrue(io.events.contains("failure 4 DETECTED by 5 at " + (answeredAt + ETA)));
    }

    @Test
    void shouldCancelTheSuspicionWhenTheSuspectAnswers()
    {
        runUntil(START, START + DELTA);
        node.onProbeAck(4, token(), START + DELTA + 1);
        runUntil(START + DELTA + 1, START + DELTA + DELTA / 2);
        assertTrue(node.isAlive(4));
        assertEquals(0, node.suspicions());
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
        assertEquals(List.of(4, 3, 2, 1, 0, 15, 14, 13), probed().subList(0, 8), "predecessors, nearest first");
    }

    @Test
    void shouldDeclareARunOfSilentPredecessorsInOneNoticeOnceItWasSilentForDelta()
    {
        runUntil(START, START + DELTA + PROBE);
        assertEquals(List.of(4, 3, 2, 1, 0, 15), probed(), "second round, twice as large");
        final long answeredAt = START + DELTA + PROBE + 2;
        node.onProbeAck(1, token(), answeredAt);
        runUntil(answeredAt, START + DELTA + PROBE + DELTA - 1);
        assertTrue(node.isAlive(2), "2 and 3 were asked less than δ ago");
        assertTrue(io.sentOfType("probe").stream().filter((s) -> s.to() == 3).count() > 1, "the run is asked again");

        node.doWork(START + DELTA + PROBE + DELTA);
        assertFalse(node.isAlive(4));
        assertFalse(node.isAlive(3));
        assertFalse(node.isAlive(2));
        assertTrue(node.isAlive(1));
        assertEquals(1, node.emitter());
        assertEquals(1, node.noticesOriginated(), "one notice for the whole run");
        assertEquals(1, node.viewEpoch());
    }

    @Test
    void shouldStopAsMinorityWhenTheSilentRunLeavesExactlyHalfWithoutTheLowestRank()
    {
        // 5 hears only 12 and what lies between: the run 4..0, 15..13 is 8 of 16, and it holds rank 0
        runUntil(START, START + DELTA + 3 * PROBE);
        node.onProbeAck(12, token(), START + DELTA + 3 * PROBE + 1);
        runUntil(START + DELTA + 3 * PROBE + 1, START + 3 * DELTA);

        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("exclusion cause MINORITY"), io.events::toString);
        assertEquals(0, node.deadSet().size(), "a minority declares nobody");
        assertFalse(io.notices.isEmpty(), "it tells its own side");
        assertTrue(io.notices.stream().allMatch((s) -> s.to() >= 6 && s.to() <= 12), io.notices::toString);
    }

    @Test
    void shouldDeclareTheRunWhenExactlyHalfRemainsWithTheLowestRank()
    {
        final DetectorNode high = new DetectorNode(
            13, 7, ProtocolSettings.of(N, ETA, DELTA), new DoubleHypercubeSchedule(), io, io, io, START);
        for (long t = START; t <= START + DELTA + 3 * PROBE; t += ETA / 2)
        {
            high.doWork(t);
        }
        // the run 12..5 is 8 of 16; 13's side keeps 4 and 0
        high.onProbeAck(4, io.sentOfType("probe").get(0).value(), START + DELTA + 3 * PROBE + 1);
        for (long t = START + DELTA + 3 * PROBE + 1; t <= START + 3 * DELTA; t += ETA / 2)
        {
            high.doWork(t);
        }
        assertEquals(NodeState.ACTIVE, high.state());
        assertEquals(8, high.deadSet().size());
        assertEquals(4, high.emitter());
    }

    @Test
    void shouldNotMergeANoticeThatLeavesNoMajorityAndStopWhenItsDeadStaySilent()
    {
        node.onNotice(TestNotice.of(7, 6, 1, 8, 9, 10, 11, 12, 13, 14, 15), 6, START);

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
        node.onNotice(TestNotice.of(7, 6, 1, 8, 9, 10, 11, 12, 13, 14, 15), 6, START);
        node.onProbeAck(probed().get(1), token(), START + 3);
        runUntil(START + 3, START + 2 * DELTA / 3);

        assertEquals(NodeState.ACTIVE, node.state());
        assertEquals(1, node.noticesRefused());
        assertEquals(0, node.deadSet().size());
    }

    @Test
    void shouldObeyAFenceFromARankItHoldsDeadOnlyIfTheFencersViewLeavesAMajority()
    {
        node.onNotice(TestNotice.of(6, 7, 1), 7, START);
        assertFalse(node.isAlive(6));

        // 6 was cut off with a minority: its fence names us but holds most of the cluster dead
        node.onNotice(TestNotice.of(5, 6, DetectorNode.FENCE_SEQUENCE_BASE + 1, 7, 8, 9, 10, 11, 12, 13, 14, 15), 6,
            START + 1);
        assertEquals(NodeState.ACTIVE, node.state(), "a minority's fence is refused");

        node.onNotice(TestNotice.of(5, 6, DetectorNode.FENCE_SEQUENCE_BASE + 2), 6, START + 2);
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
        paper.onNotice(TestNotice.of(6, 7, 1), 7, START);
        paper.onNotice(TestNotice.of(5, 6, DetectorNode.FENCE_SEQUENCE_BASE + 1), 6, START + 1);
        assertEquals(NodeState.ACTIVE, paper.state(), "a fence from a rank held dead is dropped");

        for (long t = START; t <= START + DELTA; t += ETA / 2)
        {
            paper.doWork(t);
        }
        assertFalse(paper.isAlive(4), "declared at δ, without probing");
        assertTrue(paperIo.sentOfType("probe").isEmpty());
    }
}
