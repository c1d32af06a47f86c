package io.ringwatch.core.protocol;

import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.START;

/**
 * Repair after a cut heals, on one node (rank 5 of 16): a node whose emitter beats again after a silence announces
 * the heal and retells what it learned meanwhile; a node that hears a heal notice retells what it originated.
 */
class HealRetellTest
{
    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = SixteenNodes.node(5, 0, io);

    private static ReusableNotice join(final int joiner, final long incarnation, final int source, final long seq)
    {
        return new ReusableNotice().set(joiner, source, 0, seq, RankArray.of(joiner)).subject(incarnation, true);
    }

    /** A heal notice as {@code source} sends it: a JOIN of its emitter (its predecessor here) at incarnation 0. */
    private static ReusableNotice heal(final int source, final long seq)
    {
        final int emitter = source - 1;
        return new ReusableNotice().set(emitter, source, 0, NoticeSequences.HEAL_BASE + seq,
            RankArray.of(emitter)).subject(0, true);
    }

    private List<RecordingChannels.SentNotice> healNotices()
    {
        return io.notices.stream().filter((n) -> n.sequence() >= NoticeSequences.HEAL_BASE &&
            n.sequence() < NoticeSequences.MINORITY_BASE).toList();
    }

    private List<RecordingChannels.SentNotice> joinsOf(final int rank)
    {
        return io.notices.stream().filter((n) -> n.join() && n.deadRank() == rank &&
            n.sequence() < NoticeSequences.HEAL_BASE).toList();
    }

    /** This node's duty cycle runs on time through a silence of its emitter. */
    private void watch(final long fromNs, final long untilNs)
    {
        for (long t = fromNs; t < untilNs; t += ETA)
        {
            node.doWork(t);
        }
    }

    private void beat(final long counter, final long nowNs)
    {
        io.deposit(4, counter);
        node.doWork(nowNs);
    }

    @Test
    void shouldAnnounceTheHealAndRetellAJoinItAdmittedWhileTheEmitterWasSilent()
    {
        beat(1, START);
        // the emitter falls silent (a cut) and this node admits a new life of rank 9 meanwhile
        Deliver.provenJoinRequest(node, io, 9, 1, START + 2 * ETA);
        assertEquals(1, node.incarnationOf(9));
        io.notices.clear();

        watch(START + ETA, START + DELTA / 2 + ETA);
        // the emitter went on beating through the cut: its counter moved on by the beats the cut swallowed
        beat(2 + (DELTA / 2 + ETA) / ETA, START + DELTA / 2 + ETA);

        assertEquals(1, node.counter(ProtocolCounter.HEALS_ANNOUNCED));
        assertEquals(1, healNotices().stream().map(RecordingChannels.SentNotice::sequence).distinct().count());
        assertTrue(healNotices().stream().allMatch((n) -> n.join() && n.deadRank() == 4 && n.sourceRank() == 5 &&
            n.subjectIncarnation() == 0), "a JOIN of the emitter at the incarnation held: a no-op wherever it lands");
        assertTrue(healNotices().stream().anyMatch((n) -> n.to() == 4), "the emitter is told too");
        assertTrue(io.wireVerdicts.stream().allMatch((verdict) -> verdict == RejectReason.NONE),
            "every notice sent passes a receiver's codec: " + io.wireVerdicts);
        final List<RecordingChannels.SentNotice> retold = joinsOf(9);
        assertTrue(!retold.isEmpty(), "the JOIN the far side may have missed is told again");
        assertTrue(retold.stream().allMatch((n) -> n.subjectIncarnation() == 1 && n.sourceRank() == 5));
    }

    @Test
    void shouldNotTakeAnEmitterThatStoodStillForACut()
    {
        beat(1, START);
        Deliver.provenJoinRequest(node, io, 9, 1, START + 2 * ETA);
        io.notices.clear();

        watch(START + ETA, START + DELTA / 2 + 3 * ETA);
        // a stalled emitter skips the beats it missed: one beat on after the whole silence
        beat(2, START + DELTA / 2 + 3 * ETA);

        assertEquals(0, node.counter(ProtocolCounter.HEALS_ANNOUNCED), "a stall of the emitter lost nothing on the wire");
        assertTrue(healNotices().isEmpty());
        assertTrue(joinsOf(9).isEmpty(), "nothing retold: " + io.notices);
    }

    @Test
    void shouldNotTakeItsOwnStallForACut()
    {
        beat(1, START);
        Deliver.provenJoinRequest(node, io, 9, 1, START + 2 * ETA);
        io.notices.clear();

        // this node's duty cycle stood still past its deadlines while the emitter went on beating
        beat(2 + (DELTA / 2 + 3 * ETA) / ETA, START + DELTA / 2 + 3 * ETA);

        assertEquals(0, node.counter(ProtocolCounter.HEALS_ANNOUNCED), "a node that was not watching cannot tell a cut from its own stall");
        assertTrue(joinsOf(9).isEmpty(), "nothing retold: " + io.notices);
    }

    @Test
    void shouldNotAnnounceAHealAnotherNodeAnnouncedJustBefore()
    {
        beat(1, START);
        watch(START + ETA, START + DELTA / 2);
        Deliver.notice(node, heal(3, 1), 3, InboundFrame.UNKNOWN_INCARNATION, START + DELTA / 2);

        beat(2 + (DELTA / 2 + ETA) / ETA, START + DELTA / 2 + ETA);

        assertEquals(0, node.counter(ProtocolCounter.HEALS_ANNOUNCED), "one announcement per heal is enough");
    }

    @Test
    void shouldNotAnnounceAnythingWhileTheEmitterOnlyMissesBeats()
    {
        Deliver.notice(node, join(9, 1, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        for (int k = 1; k <= 10; k++)
        {
            // every other beat lost: gaps of 2η
            beat(k, START + 2 * k * ETA);
        }

        assertEquals(0, node.counter(ProtocolCounter.HEALS_ANNOUNCED));
        assertTrue(healNotices().isEmpty());
        assertTrue(joinsOf(9).stream().noneMatch((n) -> n.sourceRank() == 5), "nothing is retold without a silence");
    }

    @Test
    void shouldRetellAJoinItAdmittedAsContactOnAHealNoticeOncePerHalfDelta()
    {
        Deliver.provenJoinRequest(node, io, 9, 1, START + 1);
        assertEquals(1, node.counter(ProtocolCounter.JOINS_ADMITTED));
        io.notices.clear();

        Deliver.notice(node, heal(1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START + 10);
        assertEquals(1, joinsOf(9).stream().map(RecordingChannels.SentNotice::sequence).distinct().count(),
            "the contact retells the JOIN it broadcast");

        Deliver.notice(node, heal(2, 1), 2, InboundFrame.UNKNOWN_INCARNATION, START + 20);
        assertEquals(1, joinsOf(9).stream().map(RecordingChannels.SentNotice::sequence).distinct().count(),
            "a second heal notice within δ/2 retells nothing more");

        Deliver.notice(node, heal(3, 1), 3, InboundFrame.UNKNOWN_INCARNATION, START + 20 + DELTA / 2);
        assertEquals(2, joinsOf(9).stream().map(RecordingChannels.SentNotice::sequence).distinct().count());
    }

    @Test
    void shouldRetellWhenItIsTheEmitterNamedByAHealNotice()
    {
        Deliver.provenJoinRequest(node, io, 9, 1, START + 1);
        io.notices.clear();

        // node 6's emitter is this node: the heal notice names it and reaches it directly
        Deliver.notice(node, heal(6, 1), 6, InboundFrame.UNKNOWN_INCARNATION, START + 10);

        assertEquals(1, joinsOf(9).stream().map(RecordingChannels.SentNotice::sequence).distinct().count());
        assertEquals(0, node.counter(ProtocolCounter.STALE_FRAMES), "not taken for this node's own JOIN passed back");
        assertEquals(NodeState.ACTIVE, node.state());
    }

    @Test
    void shouldRetellNothingOnAHealNoticeForAJoinItOnlyLearned()
    {
        Deliver.notice(node, join(9, 1, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        io.notices.clear();

        Deliver.notice(node, heal(2, 1), 2, InboundFrame.UNKNOWN_INCARNATION, START + 10);

        assertTrue(joinsOf(9).stream().noneMatch((n) -> n.sourceRank() == 5), "its contact retells it");
        assertEquals(1, node.incarnationOf(9));
        assertTrue(node.isAlive(1), "a heal notice is a JOIN of a live rank at the incarnation known: no change");
        assertEquals(0, node.incarnationOf(1));
    }
}
