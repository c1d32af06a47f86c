package io.ringwatch.core.sim;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's codec: what a node is handed is what the real decoder made of the real encoder's bytes, and a frame
 * either refuses is counted and fails the run.
 */
class WireTest
{
    private static final long REFORM_SEED = 551_233_995_032_619_522L;
    private static final int N = 16;

    private static Wire wire(final boolean authentication)
    {
        return new Wire(new SimConfig().nodes(N).authentication(authentication).conclude());
    }

    @Test
    void shouldHandEachFrameTypeToItsReceiverAsTheDecoderReadIt()
    {
        final Wire wire = wire(true);
        assertTrue(wire.keyring().authenticates(), "authentication is the simulator's default");

        InboundFrame frame = wire.newObserver(3, 7, 4);
        assertFrame(frame, FrameType.NEW_OBSERVER, 3, 7);
        assertEquals(4, frame.newObserverEmitterRank());
        assertEquals(4, wire.decoded().destinationRank());

        assertFrame(wire.leave(5, 1, 6), FrameType.LEAVE, 5, 1);
        frame = wire.challenge(0, 0, 9, 0x77, 0x88);
        assertFrame(frame, FrameType.JOIN_CHALLENGE, 0, 0);
        assertEquals(0x77, frame.probeToken());
        assertEquals(0x88, frame.joinerNonce());
        for (final int type : new int[]{FrameType.PROBE, FrameType.PROBE_ACK, FrameType.VIEW_DIGEST,
            FrameType.REFORM_POLL, FrameType.REFORM_ACK, FrameType.JOIN_PROOF})
        {
            frame = wire.token(type, 2, 3, 11, 0x1234_5678_9ABCL);
            assertFrame(frame, type, 2, 3);
            assertEquals(0x1234_5678_9ABCL, frame.probeToken());
        }
        assertFrame(wire.token(FrameType.JOIN_REQUEST, 9, 2, 0, 0x99), FrameType.JOIN_REQUEST, 9, 2);
        assertEquals(0x99, wire.decoded().joinerNonce());

        final SimNotice notice = new SimNotice(8, 1, 0, 42, RankArray.of(7, 8, 12), 0, false);
        frame = wire.notice(1, 0, 2, notice);
        assertFrame(frame, FrameType.FAILURE_NOTICE, 1, 0);
        assertEquals(8, frame.notice().deadRank());
        assertEquals(42, frame.notice().sequence());
        assertEquals(RankArray.of(7, 8, 12).toString(), RankArray.copyOf(frame.notice().deadSet()).toString());

        final SimNotice join = new SimNotice(8, 1, 0, 43, RankArray.of(8), 3, true);
        frame = wire.notice(1, 0, 2, join);
        assertFrame(frame, FrameType.JOIN, 1, 0);
        assertEquals(3, frame.notice().subjectIncarnation());

        final IncarnationTable known = new IncarnationTable(2);
        known.raise(4, 2);
        known.raise(9, 5);
        frame = wire.view(0, 1, 4, RankArray.of(3, 10, 11), known);
        assertFrame(frame, FrameType.VIEW, 0, 1);
        assertEquals(3, frame.viewDead().size());
        assertEquals(2, frame.viewIncarnations().size());
        assertEquals(5, frame.viewIncarnations().incarnationOf(9));

        assertEquals(0, wire.refusedFrames());
        assertEquals(1, wire.accepted(FrameType.JOIN));
        assertEquals(1, wire.accepted(FrameType.PROBE));
    }

    @Test
    void shouldRefuseAWireRuleBreachAndFailTheRun()
    {
        // the heal band's rule: a JOIN's subject incarnation is above 0 unless its sequence is a heal's
        final Wire wire = wire(true);
        final SimNotice heal = new SimNotice(8, 1, 0, NoticeSequences.HEAL_BASE + 1, RankArray.of(8), 0, true);
        assertNotNull(wire.notice(1, 0, 2, heal));

        final SimNotice badJoin = new SimNotice(8, 1, 0, 5, RankArray.of(8), 0, true);
        assertNull(wire.notice(1, 0, 2, badJoin));
        assertEquals(1, wire.rejected(RejectReason.BAD_INCARNATION));

        final SimNotice empty = new SimNotice(8, 1, 0, 6, new RankArray(1), 0, false);
        assertNull(wire.notice(1, 0, 2, empty), "the encoder refuses a notice without a dead set");
        assertEquals(2, wire.refusedFrames());

        final List<String> found = new ArrayList<>();
        wire.check(99, found);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("seed=99: wire: 2 genuine frames refused (BAD_INCARNATION=1 " +
            "UNENCODABLE=1); first: frame type 16 from 1 to 2"), found.get(0));
    }

    @Test
    void shouldFindNothingToReportWithoutRefusals()
    {
        final Wire wire = wire(false);
        assertNotNull(wire.leave(1, 0, 2));
        final List<String> found = new ArrayList<>();
        wire.check(1, found);
        assertTrue(found.isEmpty(), found.toString());
    }

    @Test
    void shouldKeepANodesDecoderToItsOwnRank()
    {
        final FrameDecoder node = new FrameDecoder(0, N, 3, 0, FrameAuthenticator.NONE, null);
        assertThrows(IllegalStateException.class, () -> node.receiver(4));
        final FrameDecoder shared = FrameDecoder.forAnyReceiver(0, N, 0, FrameAuthenticator.NONE);
        assertThrows(IllegalArgumentException.class, () -> shared.receiver(N));
    }

    /**
     * Runs whose nodes between them exchange every control frame type: each went through the codec, none refused.
     */
    @Test
    void shouldPassEveryFrameOfARunThroughTheCodec()
    {
        final long seed = 3;
        final Simulation cutRun = new Simulation(cutAndLeave(seed));
        final SimResult cutResult = cutRun.run();
        assertTrue(cutResult.violations().isEmpty(), () -> "seed=" + seed + " " + cutResult.violations());
        assertEquals(0, cutResult.refusedFrames(), "seed=" + seed);

        // every rank stops and the cluster re-forms: the polls (see ReformSimulationTest)
        final long reformSeed = REFORM_SEED;
        final Simulation reformRun = new Simulation(noMemberLeft());
        final SimResult reformResult = reformRun.run();
        assertEquals(1, reformResult.reforms(), "seed=" + reformSeed);
        assertEquals(0, reformResult.refusedFrames(), "seed=" + reformSeed);

        for (final int type : new int[]{FrameType.NEW_OBSERVER, FrameType.FAILURE_NOTICE, FrameType.LEAVE,
            FrameType.PROBE, FrameType.PROBE_ACK, FrameType.JOIN, FrameType.JOIN_REQUEST, FrameType.VIEW,
            FrameType.VIEW_DIGEST, FrameType.REFORM_POLL, FrameType.REFORM_ACK})
        {
            assertTrue(cutRun.wire().accepted(type) + reformRun.wire().accepted(type) > 0,
                "seeds " + seed + ", " + reformSeed + ": no frame of type " + type + " went through the codec");
        }
    }

    @Test
    void shouldAdmitIncarnationsAsTheRuntimeDoesWithReplayGuards()
    {
        final Wire wire = new Wire(new SimConfig().nodes(N).replayGuards(true).conclude());
        assertNotNull(wire.newObserver(5, 0, 4), "the first life heard is admitted");
        wire.restarted(5, 0, true);

        assertNotNull(wire.token(FrameType.JOIN_REQUEST, 5, 1, 4, 1),
            "a JOIN_REQUEST is the frame taken from an unadmitted life");
        assertNull(wire.newObserver(5, 1, 4), "any other waits for the JOIN");
        assertEquals(1, wire.rejected(RejectReason.UNKNOWN_INCARNATION));

        wire.joined(4, 5, 1, new IncarnationTable(1));
        assertNotNull(wire.newObserver(5, 1, 4));
        assertNull(wire.leave(5, 0, 4), "the dead life is refused once the new one is admitted");
        assertEquals(1, wire.rejected(RejectReason.STALE_INCARNATION));

        assertEquals(0, wire.refusedFrames(), "the admission rule refuses genuine frames live too: no wire bug");
        final List<String> found = new ArrayList<>();
        wire.check(1, found);
        assertTrue(found.isEmpty(), found.toString());
        assertThrows(IllegalArgumentException.class,
            () -> new Wire(new SimConfig().nodes(Wire.MAX_GUARDED_NODES + 1).replayGuards(true).conclude()));
    }

    /**
     * The finding of issue 27's codec work: live, a node refuses a restarted rank's frames until it has applied that
     * rank's JOIN; without replay guards the simulator delivered them. The golden partition-restart,
     * no-majority-reform and stall-near-cut cases show it with {@code --replay-guards}; here a cut after crashes and
     * restarts (the heal swarm's shape) does. The run passes either way.
     */
    @Test
    void shouldRefuseARestartedRanksFrameBeforeItsJoinIsAppliedAsLive()
    {
        final long seed = 5;
        final Simulation guarded = new Simulation(cutAfterCrashes(seed).replayGuards(true));
        final SimResult result = guarded.run();
        assertTrue(result.violations().isEmpty(), () -> "seed=" + seed + " " + result.violations());
        assertEquals(1, guarded.wire().rejected(RejectReason.UNKNOWN_INCARNATION), "seed=" + seed);
        assertEquals(0, result.refusedFrames(), "seed=" + seed);

        final Simulation unguarded = new Simulation(cutAfterCrashes(seed));
        assertTrue(unguarded.run().violations().isEmpty(), "seed=" + seed);
        assertEquals(0, unguarded.wire().rejected(RejectReason.UNKNOWN_INCARNATION), "seed=" + seed);
    }

    /**
     * Issue 28, finding 3, simulated: with run binding every node boots under a candidate of its own and the seeds
     * agree on the highest during their grace, restarted ranks learn the run from their contact's challenge, and a
     * re-form starts a new run. The same runs as {@link #shouldPassEveryFrameOfARunThroughTheCodec}, bound.
     */
    @Test
    void shouldAgreeOnARunLearnItOnJoinsAndStartANewOneOnAReform()
    {
        final long seed = 3;
        final Simulation cutRun = new Simulation(cutAndLeave(seed).runBinding(true));
        final SimResult cutResult = cutRun.run();
        assertTrue(cutResult.violations().isEmpty(), () -> "seed=" + seed + " " + cutResult.violations());
        assertEquals(0, cutResult.refusedFrames(), "seed=" + seed);
        final long agreed = cutRun.wire().run(0);
        long learned = 0;
        for (int r = 0; r < 64; r++)
        {
            assertEquals(agreed, cutRun.wire().run(r), "seed=" + seed + ": rank " + r + " bound to another run");
            learned += cutRun.node(r).counter(ProtocolCounter.RUNS_LEARNED);
        }
        assertTrue(agreed != 0 && learned > 0, "seed=" + seed + ": run " + agreed + ", learned " + learned);
        assertTrue(cutRun.wire().rejected(RejectReason.WRONG_RUN) > 0,
            "seed=" + seed + ": the seeds' announcements under lower runs are refused while they agree");

        final long reformSeed = REFORM_SEED;
        final Simulation reformRun = new Simulation(noMemberLeft().runBinding(true));
        final long bootRun = reformRun.wire().runCandidate(0, 0, 0);
        final SimResult reformResult = reformRun.run();
        assertEquals(1, reformResult.reforms(), "seed=" + reformSeed);
        assertEquals(0, reformResult.refusedFrames(), "seed=" + reformSeed);
        assertTrue(reformRun.wire().run(0) > bootRun, "seed=" + reformSeed + ": the re-form's run " +
            reformRun.wire().run(0) + " is above the boot candidates' " + bootRun);
    }

    /** A 64-node cut of 40:24 for 4.5 s with restarts after 2 s, and a LEAVE before it. */
    private static SimConfig cutAndLeave(final long seed)
    {
        final SimConfig cut = new SimConfig().nodes(64).seed(seed).restartAfterNs(2_000_000_000L);
        cut.partition(new Partition(500_000_000L, 5_000_000_000L, new int[]{40, 24}, false, false));
        cut.inject(Injection.leave(7, 300_000_000L));
        return cut;
    }

    /** Every rank stops and the cluster re-forms: the polls (see ReformSimulationTest). */
    private static SimConfig noMemberLeft()
    {
        return HealRepairSimulationTest.cutAfterCrashes(10_000_000L, 100_000_000L, new int[]{11, 8}, true,
            220_867_078L, 3, REFORM_SEED, 211_094_944L).eventBudget(20_000_000L);
    }

    private static SimConfig cutAfterCrashes(final long seed)
    {
        return HealRepairSimulationTest.cutAfterCrashes(
            10_000_000L, 100_000_000L, new int[]{11, 8}, true, 220_867_078L, 3, seed, 211_094_944L);
    }

    private static void assertFrame(final InboundFrame frame, final int type, final int sender, final long incarnation)
    {
        assertNotNull(frame, "refused");
        assertEquals(type, frame.type());
        assertEquals(sender, frame.senderRank());
        assertEquals(incarnation, frame.senderIncarnation());
    }
}
