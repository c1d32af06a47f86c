package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.SETTINGS;
import static io.ringwatch.core.protocol.SixteenNodes.START;

/**
 * Where the join protocol meets the majority rule, on one node (rank 5 of 16): who may admit a joiner, probes from
 * and to lives of different incarnations, a joining node's silence, fences and re-announcements naming a life.
 */
class JoinPartitionTest
{
    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = newNode(0);

    private DetectorNode newNode(final long incarnation)
    {
        return SixteenNodes.node(5, incarnation, io);
    }

    private static ReusableNotice failure(final int dead, final int source, final long seq, final RankArray deadSet)
    {
        return new ReusableNotice().set(dead, source, 0, seq, deadSet).subject(0, false);
    }

    private void learnDead(final int rank)
    {
        Deliver.notice(node, failure(rank, 1, 1, RankArray.of(rank)), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        assertFalse(node.isAlive(rank));
        io.sent.clear();
        io.notices.clear();
    }

    private void answerProbes(final DetectorNode n, final int silent, final long nowNs)
    {
        for (final RecordingChannels.Sent probe : io.sentOfType("probe"))
        {
            if (probe.to() != silent && n.state() == NodeState.ACTIVE)
            {
                Deliver.probeAck(n, probe.to(), InboundFrame.UNKNOWN_INCARNATION, probe.value(), nowNs);
            }
        }
    }

    @Test
    void shouldRefuseAJoinWhileProbingASilentEmitterWithoutAMajorityHeardAndAdmitItOnceOneIs()
    {
        learnDead(6);
        for (long t = START; t <= START + DELTA; t += ETA / 2)
        {
            node.doWork(t);
        }
        assertTrue(node.counter(ProtocolCounter.PROBES_SENT) > 0, "the emitter fell silent: the node is probing");

        Deliver.provenJoinRequest(node, io, 6, 1, START + DELTA + 1);

        assertEquals(1, node.counter(ProtocolCounter.JOINS_REFUSED), "a contact that cannot count a majority admits nobody");
        assertTrue(io.sentOfType("view").isEmpty());
        assertFalse(node.isAlive(6));
        assertEquals(0, node.incarnationOf(6));

        answerProbes(node, 4, START + DELTA + 2);
        Deliver.provenJoinRequest(node, io, 6, 1, START + DELTA + 3);

        assertEquals(1, node.counter(ProtocolCounter.JOINS_REFUSED));
        assertEquals(1, node.counter(ProtocolCounter.JOINS_ADMITTED), "every witness answered: this side holds a majority");
        assertTrue(node.isAlive(6));
        assertEquals(1, node.incarnationOf(6));
        assertEquals(6, io.sentOfType("view").get(0).to());
    }

    @Test
    void shouldRefuseAJoinWhileCheckingAMinorityNoticeAndAdmitItOnceTheNoticeIsRefuted()
    {
        final RankArray otherSide = RankArray.of(8, 9, 10, 11, 12, 13, 14, 15);
        Deliver.notice(node, failure(9, 1, NoticeSequences.MINORITY_BASE + 1, otherSide), 1, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertTrue(node.counter(ProtocolCounter.PROBES_SENT) > 0, "a minority notice is checked by probing its D_msg");

        Deliver.provenJoinRequest(node, io, 3, 1, START + 2);

        assertEquals(1, node.counter(ProtocolCounter.JOINS_REFUSED));
        assertTrue(node.isAlive(3));
        assertEquals(0, node.incarnationOf(3), "the old life is not even declared dead");
        assertTrue(io.sentOfType("view").isEmpty());
        assertTrue(io.notices.stream().noneMatch((n) -> n.deadRank() == 3));

        answerProbes(node, -1, START + 3);
        assertEquals(NodeState.ACTIVE, node.state(), "a rank of D_msg answered: the notice is not about this side");
        Deliver.provenJoinRequest(node, io, 3, 1, START + 4);

        assertEquals(1, node.counter(ProtocolCounter.JOINS_ADMITTED));
        assertEquals(1, node.incarnationOf(3));
        assertEquals(3, io.sentOfType("view").get(0).to());
    }

    @Test
    void shouldAdmitWhileProbingUnderThePapersRule()
    {
        final DetectorNode paper = new DetectorNode(5, 0, SETTINGS.withPartitionPolicy(PartitionPolicy.NONE),
            new DoubleHypercubeSchedule(), io, io, io, START);
        Deliver.notice(paper, failure(6, 1, 1, RankArray.of(6)), 1, InboundFrame.UNKNOWN_INCARNATION, START);

        Deliver.provenJoinRequest(paper, io, 6, 1, START + 1);

        assertEquals(0, paper.counter(ProtocolCounter.JOINS_REFUSED));
        assertTrue(paper.isAlive(6));
    }

    @Test
    void shouldNeitherProbeNorAccuseNorAnswerWhileJoining()
    {
        final DetectorNode joiner = newNode(3);
        joiner.join(START);
        for (long t = START; t <= START + 10 * DELTA; t += ETA / 2)
        {
            joiner.doWork(t);
        }
        Deliver.probe(joiner, 4, 0, 77, START + 10 * DELTA);

        assertEquals(NodeState.JOINING, joiner.state());
        assertTrue(joiner.counter(ProtocolCounter.JOIN_REQUESTS_SENT) > 0);
        assertEquals(0, joiner.counter(ProtocolCounter.PROBES_SENT));
        assertEquals(0, joiner.counter(ProtocolCounter.SUSPICIONS));
        assertTrue(io.sentOfType("probe").isEmpty());
        assertTrue(io.sentOfType("probeAck").isEmpty(), "a joining node answers no probe");
        assertTrue(io.notices.isEmpty());
    }

    @Test
    void shouldKeepTheNearestSuccessorThatAdoptedItWhileJoining()
    {
        // many ranks rejoining at once (a minority side back after a cut): a farther successor that has not yet
        // learned the joins between must not take the joiner from the nearer one, which would never send again
        final DetectorNode joiner = newNode(3);
        joiner.join(START);

        Deliver.newObserver(joiner, 7, 1, 5, 0, 0L, 0, START + 1);
        Deliver.newObserver(joiner, 9, 0, 5, 0, 0L, 0, START + 2);

        assertEquals(7, joiner.observer());
        assertEquals(1, joiner.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
    }

    @Test
    void shouldAnswerProbesFromTheCurrentLifeOfARankOnly()
    {
        learnDead(6);
        Deliver.notice(node, new ReusableNotice().set(6, 9, 0, 2, RankArray.of(6)).subject(2, true), 9, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertTrue(node.isAlive(6));
        final long stale = node.counter(ProtocolCounter.STALE_FRAMES);

        Deliver.probe(node, 6, 1, 42, START + 2);
        assertTrue(io.sentOfType("probeAck").isEmpty(), "an older life of 6 is not answered");
        assertEquals(stale + 1, node.counter(ProtocolCounter.STALE_FRAMES));
        assertEquals(0, node.counter(ProtocolCounter.FENCES_SENT), "nor fenced: it is stale, not dead in this view");

        Deliver.probe(node, 6, 2, 43, START + 3);
        assertEquals(1, io.sentOfType("probeAck").size());
        assertEquals(43, io.sentOfType("probeAck").get(0).value());
        assertEquals(6, io.sentOfType("probeAck").get(0).to());
    }

    @Test
    void shouldObeyACrossingFenceOnlyWhenItNamesThisLife()
    {
        final DetectorNode joined = newNode(3);
        joined.join(START);
        final IncarnationTable incarnations = new IncarnationTable(1);
        incarnations.raise(5, 3);
        Deliver.view(joined, 7, 0, RankArray.of(9), incarnations, START + 1);
        assertEquals(NodeState.ACTIVE, joined.state());

        final long fenceSeq = NoticeSequences.FENCE_BASE + 1;
        Deliver.notice(joined, new ReusableNotice().set(5, 9, 0, fenceSeq, RankArray.of(5)).subject(0, false), 9, 0,
            START + 2);
        assertEquals(NodeState.ACTIVE, joined.state(), "a fence naming the boot life of 5 is stale to its new life");

        Deliver.notice(joined, new ReusableNotice().set(5, 9, 0, fenceSeq + 1, RankArray.of(5)).subject(3, false), 9, 0,
            START + 3);
        assertEquals(NodeState.EXCLUDED, joined.state(), "one naming this life crosses: it leaves a majority alive");
    }

    @Test
    void shouldFenceANewerLifeWithoutReannouncingItsDeath()
    {
        learnDead(6);
        final long originated = node.counter(ProtocolCounter.NOTICES_ORIGINATED);

        Deliver.heartbeat(node, 6, 1, 1, START, START + 1);

        assertEquals(1, node.counter(ProtocolCounter.FENCES_SENT));
        assertEquals(0, io.notices.stream().filter((n) -> n.to() == 6).findFirst().orElseThrow().subjectIncarnation(),
            "the fence names the life held dead");
        assertEquals(originated, node.counter(ProtocolCounter.NOTICES_ORIGINATED), "a newer life's JOIN is on its way: no re-announcement");
    }

    @Test
    void shouldReannounceTheDeathOfAZombieOfTheLifeHeldDead()
    {
        learnDead(6);
        final long originated = node.counter(ProtocolCounter.NOTICES_ORIGINATED);

        Deliver.heartbeat(node, 6, 0, 1, START, START + 1);

        assertEquals(1, node.counter(ProtocolCounter.FENCES_SENT));
        assertEquals(originated + 1, node.counter(ProtocolCounter.NOTICES_ORIGINATED));
    }
}
