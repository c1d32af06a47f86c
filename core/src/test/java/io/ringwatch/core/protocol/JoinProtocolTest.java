package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.START;

class JoinProtocolTest
{
    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = newNode(5, 0);

    private DetectorNode newNode(final int rank, final long incarnation)
    {
        return SixteenNodes.node(rank, incarnation, io);
    }

    private static ReusableNotice failure(final int dead, final int source, final long seq, final int subject)
    {
        return new ReusableNotice().set(dead, source, 0, seq, RankArray.of(dead)).subject(subject, false);
    }

    private static ReusableNotice join(final int joiner, final int source, final long seq, final long incarnation)
    {
        return new ReusableNotice().set(joiner, source, 0, seq, RankArray.of(joiner)).subject(incarnation, true);
    }

    private void learnDead(final int rank)
    {
        Deliver.notice(node, failure(rank, 1, 1, 0), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        assertFalse(node.isAlive(rank));
        io.sent.clear();
        io.notices.clear();
        io.events.clear();
    }

    @Test
    void shouldAdmitANewerIncarnationOfADeadRankBroadcastTheJoinAndSendItTheView()
    {
        learnDead(6);

        Deliver.provenJoinRequest(node, io, 6, 1, START + 10);

        assertTrue(node.isAlive(6));
        assertEquals(1, node.incarnationOf(6));
        assertEquals(0, node.counter(ProtocolCounter.FENCES_SENT), "a JOIN_REQUEST from a dead rank's newer life is not fenced");
        assertEquals(List.of("view"), io.sentOfType("view").stream().map(RecordingChannels.Sent::type).toList());
        assertEquals(6, io.sentOfType("view").get(0).to());
        assertEquals(1, io.lastViewIncarnations.incarnationOf(6));
        assertFalse(io.notices.isEmpty());
        assertTrue(io.notices.stream().allMatch((n) -> n.join() && n.deadRank() == 6 && n.subjectIncarnation() == 1));
        assertTrue(io.notices.stream().noneMatch((n) -> n.to() == 6), "the joiner is no participant of its JOIN");
        assertEquals(6, node.observer(), "its predecessor takes the joiner as observer");
        assertTrue(io.sentOfType("heartbeat").stream().anyMatch((s) -> s.to() == 6), "and beats it at once");
        assertTrue(io.events.contains("join 6/1 at " + (START + 10)));
        assertEquals(1, node.counter(ProtocolCounter.JOINS_ADMITTED));
    }

    @Test
    void shouldTakeTheJoinerAsEmitterWhenItIsTheNearestLivePredecessor()
    {
        learnDead(4);
        assertEquals(3, node.emitter());

        Deliver.notice(node, join(4, 9, 1, 2), 9, InboundFrame.UNKNOWN_INCARNATION, START + 20);

        assertEquals(4, node.emitter());
        assertTrue(io.sentOfType("newObserver").stream().anyMatch((s) -> s.to() == 4));
        for (long t = START + 20; t < START + 20 + 2 * DELTA; t += ETA / 2)
        {
            node.doWork(t);
        }
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS), "no suspicion of an admitted node during its 2δ grace");
        assertEquals(0, node.counter(ProtocolCounter.PROBES_SENT));
        node.doWork(START + 20 + 2 * DELTA);
        // under the majority rule a suspicion starts with probes, the silent emitter first
        assertTrue(io.sentOfType("probe").stream().anyMatch((s) -> s.to() == 4),
            "a joiner that never beats is suspected once the grace ends");
    }

    @Test
    void shouldDropEverythingFromOrAboutAnOlderIncarnation()
    {
        learnDead(6);
        Deliver.provenJoinRequest(node, io, 6, 2, START + 10);
        io.sent.clear();
        final long epoch = node.viewEpoch();

        Deliver.provenJoinRequest(node, io, 6, 1, START + 11);
        Deliver.notice(node, failure(6, 9, 5, 1), 9, InboundFrame.UNKNOWN_INCARNATION, START + 12);
        Deliver.leave(node, 6, 1, START + 13);
        Deliver.notice(node, join(6, 9, 6, 1), 9, InboundFrame.UNKNOWN_INCARNATION, START + 14);

        assertTrue(node.isAlive(6));
        assertEquals(2, node.incarnationOf(6));
        assertEquals(epoch, node.viewEpoch(), "a stale frame never changes the view");
        assertTrue(node.counter(ProtocolCounter.STALE_FRAMES) >= 3, "stale frames are counted: " + node.counter(ProtocolCounter.STALE_FRAMES));
        assertTrue(io.sentOfType("view").isEmpty());

        Deliver.notice(node, failure(6, 9, 7, 2), 9, InboundFrame.UNKNOWN_INCARNATION, START + 15);
        assertFalse(node.isAlive(6), "the death of the current incarnation applies");
        Deliver.provenJoinRequest(node, io, 6, 2, START + 16);
        assertFalse(node.isAlive(6), "and that incarnation cannot come back");
    }

    @Test
    void shouldConvergeWhateverTheOrderOfAnOldDeathAndANewJoin()
    {
        Deliver.notice(node, join(6, 9, 1, 1), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        Deliver.notice(node, failure(6, 10, 1, 0), 10, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertTrue(node.isAlive(6), "the death of the boot life after the JOIN of life 1 is stale");
        assertEquals(1, node.incarnationOf(6));
    }

    @Test
    void shouldAnnounceTheOldLifeDeadWhenANewerOneAsksWhileItIsStillHeldAlive()
    {
        Deliver.provenJoinRequest(node, io, 6, 1, START + 10);

        assertTrue(node.isAlive(6));
        assertTrue(io.notices.stream().anyMatch((n) -> !n.join() && n.deadRank() == 6 && n.subjectIncarnation() == 0));
        assertTrue(io.notices.stream().anyMatch((n) -> n.join() && n.deadRank() == 6 && n.subjectIncarnation() == 1));
        assertTrue(io.events.contains("failure 6 DETECTED by 5 at " + (START + 10)));
    }

    @Test
    void shouldFenceOtherFramesFromADeadRankNamingTheIncarnationHeldDead()
    {
        learnDead(6);
        Deliver.newObserver(node, 6, 1, 5, 0, 0L, 0, START + 10);
        assertEquals(1, node.counter(ProtocolCounter.FENCES_SENT));
        assertEquals(0, io.notices.get(0).subjectIncarnation(), "names the boot life held dead, not the newer one");
    }

    @Test
    void shouldAskContactsNeighboursFirstThenInClusterOrderUntilItGetsAView()
    {
        final DetectorNode joiner = newNode(6, 3);
        joiner.join(START);
        assertEquals(NodeState.JOINING, joiner.state());

        final long retryNs = DELTA / 2;
        for (long t = START; t <= START + 3 * retryNs; t += ETA)
        {
            joiner.doWork(t);
        }
        assertEquals(List.of(7, 5, 8, 9), io.sentOfType("joinRequest").stream().map(RecordingChannels.Sent::to)
            .toList());
        assertTrue(io.sentOfType("heartbeat").isEmpty(), "nobody is beaten before admission");

        final long viewNs = START + 3 * retryNs + 1;
        Deliver.view(joiner, 7, 0, RankArray.of(6, 11), io.lastViewIncarnations == null ?
            new IncarnationTable(1) : io.lastViewIncarnations, viewNs);
        assertEquals(NodeState.JOINING, joiner.state(), "a view that does not admit this incarnation is ignored");

        final IncarnationTable incarnations = new IncarnationTable(2);
        incarnations.raise(6, 3);
        Deliver.view(joiner, 7, 0, RankArray.of(6, 11), incarnations, viewNs);
        assertEquals(NodeState.ACTIVE, joiner.state());
        assertFalse(joiner.isAlive(11));
        assertTrue(joiner.isAlive(6));
        assertEquals(5, joiner.emitter());
        assertEquals(7, joiner.observer());
        assertTrue(io.events.contains("join 6/3 at " + viewNs), "reports itself up once it has the view");
        assertTrue(io.sentOfType("newObserver").stream().anyMatch((s) -> s.to() == 5));

        joiner.doWork(viewNs + ETA);
        assertTrue(io.sentOfType("heartbeat").isEmpty(), "no beats until the successor adopts it");
        Deliver.newObserver(joiner, 7, 0, 6, 0, 0L, 0, viewNs + ETA + 1);
        assertEquals(1, io.sentOfType("heartbeat").size());
        assertFalse(joiner.joinConfirmed(), "confirmed only once its emitter beat too");
    }

    @Test
    void shouldCheckAnObserverTakenWhileJoiningAgainstTheViewOnceItComes()
    {
        final DetectorNode joiner = newNode(6, 3);
        joiner.join(START);
        // a NEW_OBSERVER from rank 9 before the view (replayed, or sent by a node that holds 7 and 8 dead): the joiner
        // beats 9 on trust until it knows better
        Deliver.newObserver(joiner, 9, 0, 6, 0x42, 4096, 64, START + 1);
        assertEquals(9, joiner.observer());

        final IncarnationTable incarnations = new IncarnationTable(2);
        incarnations.raise(6, 3);
        Deliver.view(joiner, 5, 0, RankArray.of(6), incarnations, START + 2);
        assertEquals(NodeState.ACTIVE, joiner.state());
        assertEquals(7, joiner.observer(), "the view's nearest live successor, not the frame's sender");
        assertEquals(1, joiner.counter(ProtocolCounter.NEW_OBSERVER_DEFERRED));
        final int beats = io.sentOfType("heartbeat").size();
        joiner.doWork(START + 2 + 3 * ETA);
        assertEquals(beats, io.sentOfType("heartbeat").size(), "no beats until rank 7 adopts it");

        Deliver.newObserver(joiner, 7, 0, 6, 0, 0L, 0, START + 3 * ETA + 3);
        assertEquals(7, io.sentOfType("heartbeat").get(io.sentOfType("heartbeat").size() - 1).to());

        // 7 and 8 die after all: the held offer of 9, with its slot descriptor, is taken
        Deliver.notice(joiner, failure(7, 9, 1, 0), 9, InboundFrame.UNKNOWN_INCARNATION, START + 4 * ETA);
        Deliver.notice(joiner, failure(8, 9, 2, 0), 9, InboundFrame.UNKNOWN_INCARNATION, START + 4 * ETA + 1);
        assertEquals(9, joiner.observer());
        assertEquals("observer 9 rkey 66 address 4096 length 64 at " + (START + 4 * ETA + 1),
            io.observersOffered.get(io.observersOffered.size() - 1));
    }

    @Test
    void shouldIgnoreAFenceForAnOlderLifeButStopOnADeathOfItsOwn()
    {
        final DetectorNode joiner = newNode(6, 3);
        joiner.join(START);
        final IncarnationTable incarnations = new IncarnationTable(2);
        incarnations.raise(6, 3);
        Deliver.view(joiner, 7, 0, RankArray.of(6), incarnations, START + 1);

        Deliver.notice(joiner, new ReusableNotice().set(6, 9, 0, NoticeSequences.FENCE_BASE + 1, RankArray.of(6))
            .subject(0, false), 9, InboundFrame.UNKNOWN_INCARNATION, START + 2);
        assertEquals(NodeState.ACTIVE, joiner.state());
        Deliver.notice(joiner, failure(6, 9, 2, 3), 9, InboundFrame.UNKNOWN_INCARNATION, START + 3);
        assertEquals(NodeState.EXCLUDED, joiner.state());
    }

    @Test
    void shouldRefuseToJoinUnderTheBootIncarnation()
    {
        assertThrows(IllegalArgumentException.class, () -> newNode(6, 0).join(START));
    }
}
