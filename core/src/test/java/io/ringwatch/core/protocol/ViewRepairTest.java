package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static io.ringwatch.core.protocol.SixteenNodes.DELTA;
import static io.ringwatch.core.protocol.SixteenNodes.ETA;
import static io.ringwatch.core.protocol.SixteenNodes.SETTINGS;
import static io.ringwatch.core.protocol.SixteenNodes.START;

/**
 * One node's side of view repair: the digests it sends, the view it answers a differing digest with, and how it
 * merges a neighbour's view. That views converge across a cluster is checked in the simulator
 * (BootJoinSimulationTest, with a negative control).
 */
class ViewRepairTest
{
    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = SixteenNodes.node(5, 0, io);

    private static long digestOf(final RankArray dead, final IncarnationTable incarnations)
    {
        return ViewRepair.digest(dead, incarnations);
    }

    private long ownDigest()
    {
        Deliver.viewDigest(node, 4, 0, 0, START);
        io.sent.clear();
        final RankArray dead = io.lastViewDead;
        return dead == null ? 0 : digestOf(dead, io.lastViewIncarnations);
    }

    @Test
    void shouldHashEqualViewsAlikeWhateverTheOrderTheyWereLearnedIn()
    {
        final IncarnationTable a = new IncarnationTable(4);
        a.raise(3, 7);
        a.raise(9, 2);
        final IncarnationTable b = new IncarnationTable(4);
        b.raise(9, 2);
        b.raise(3, 7);

        assertEquals(digestOf(RankArray.of(1, 9), a), digestOf(RankArray.of(9, 1), b));
        assertNotEquals(digestOf(RankArray.of(1, 9), a), digestOf(RankArray.of(1), a), "a death changes it");
        final IncarnationTable newer = IncarnationTable.copyOf(a);
        newer.raise(3, 8);
        assertNotEquals(digestOf(RankArray.of(1), a), digestOf(RankArray.of(1), newer), "an incarnation changes it");
        assertEquals(0, digestOf(new RankArray(4), new IncarnationTable(4)), "a boot view with nobody dead is 0");
    }

    @Test
    void shouldSendItsDigestToBothNeighboursEveryPeriod()
    {
        final long period = SETTINGS.viewDigestPeriodNs();
        assertEquals(4 * DELTA, period);

        long beats = 0;
        for (long t = START; t <= START + period; t += ETA)
        {
            io.deposit(4, ++beats);
            node.doWork(t);
        }

        assertEquals(List.of(4, 6), io.viewDigests.stream().map(RecordingChannels.Sent::to).sorted().toList());
        assertEquals(1, io.viewDigests.stream().map(RecordingChannels.Sent::value).distinct().count());
        assertEquals(2, node.counter(ProtocolCounter.VIEW_DIGESTS_SENT));
    }

    @Test
    void shouldAnswerADifferingDigestWithItsViewAndAMatchingOneWithNothing()
    {
        Deliver.notice(node, new ReusableNotice().set(9, 1, 0, 1, RankArray.of(9)).subject(0, false), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        final long digest = digestOf(RankArray.of(9), new IncarnationTable(4));

        Deliver.viewDigest(node, 6, 0, digest, START + 1);
        assertTrue(io.sentOfType("view").isEmpty());

        Deliver.viewDigest(node, 6, 0, digest ^ 1, START + 2);
        assertEquals(1, io.sentOfType("view").size());
        assertEquals(6, io.sentOfType("view").get(0).to());
        assertEquals(1, io.lastViewDead.size());
        assertTrue(io.lastViewDead.contains(9));
        assertEquals(1, node.counter(ProtocolCounter.VIEW_DIGEST_MISMATCHES));
    }

    @Test
    void shouldAdmitARankItMissedTheJoinOfAndLearnADeathItMissed()
    {
        final IncarnationTable incarnations = new IncarnationTable(4);
        incarnations.raise(6, 3);

        Deliver.view(node, 4, 0, RankArray.of(11), incarnations, START + 1);

        assertTrue(node.isAlive(6));
        assertEquals(3, node.incarnationOf(6));
        assertFalse(node.isAlive(11));
        assertTrue(io.events.stream().anyMatch((e) -> e.startsWith("join 6/3")), io.events.toString());
        assertTrue(io.events.stream().anyMatch((e) -> e.startsWith("failure 11")), io.events.toString());
        assertEquals(1, node.counter(ProtocolCounter.VIEWS_REPAIRED));
        assertTrue(io.sentOfType("view").isEmpty(), "a view never answers a view");
        assertEquals(ownDigest(), digestOf(RankArray.of(11), incarnations), "the views now hash alike");
    }

    @Test
    void shouldKeepANewerLifeAgainstAnOlderDeathAndItsOwnEntry()
    {
        final IncarnationTable newer = new IncarnationTable(4);
        newer.raise(6, 3);
        Deliver.view(node, 4, 0, new RankArray(4), newer, START + 1);
        io.events.clear();

        // a stale view: 6 dead at its boot life, and this node dead
        Deliver.view(node, 4, 0, RankArray.of(5, 6), new IncarnationTable(4), START + 2);

        assertTrue(node.isAlive(6), "the death of an older life does not end the newer one");
        assertTrue(io.events.isEmpty(), io.events.toString());
        assertEquals(NodeState.ACTIVE, node.state(), "a node takes no view's word about itself");
    }

    @Test
    void shouldRefuseDeathsThatLeaveNoMajority()
    {
        final RankArray most = new RankArray(16);
        for (int r = 6; r < 15; r++)
        {
            most.add(r);
        }

        Deliver.view(node, 4, 0, most, new IncarnationTable(4), START + 1);

        for (int r = 6; r < 15; r++)
        {
            assertTrue(node.isAlive(r), "a minority's view is never merged: " + r);
        }
        assertEquals(1, node.counter(ProtocolCounter.VIEW_REPAIRS_REFUSED));
        assertEquals(0, node.counter(ProtocolCounter.VIEWS_REPAIRED));
        assertEquals(NodeState.ACTIVE, node.state());
    }

    @Test
    void shouldIgnoreAViewFromARankItHoldsDead()
    {
        Deliver.notice(node, new ReusableNotice().set(4, 1, 0, 1, RankArray.of(4)).subject(0, false), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        io.events.clear();

        Deliver.view(node, 4, 0, RankArray.of(11), new IncarnationTable(4), START + 1);

        assertTrue(node.isAlive(11));
        assertTrue(io.events.isEmpty(), io.events.toString());
    }
}
