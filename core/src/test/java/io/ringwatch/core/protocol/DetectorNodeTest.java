package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.NoticeSequences;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tasks T1–T5 as paper 002 states them: these nodes run {@link PartitionPolicy#NONE}, where a suspicion is a notice
 * at once. What the majority rule adds (probes, runs, quorum) is tested in {@link DetectorNodePartitionTest}.
 */
class DetectorNodeTest
{
    private static final int N = 16;
    private static final long ETA = 10;
    private static final long DELTA = 100;
    private static final long START = 1_000;

    private final RecordingChannels io = new RecordingChannels();
    private final DetectorNode node = newNode(5, paper(N));

    /** Drives a node every η/2 from {@code fromNs} to {@code toNs} inclusive, as a healthy duty cycle would. */
    private static void runUntil(final DetectorNode n, final long fromNs, final long toNs)
    {
        for (long t = fromNs; t < toNs; t += ETA / 2)
        {
            n.doWork(t);
        }
        n.doWork(toNs);
    }

    private static ProtocolSettings paper(final int clusterSize)
    {
        return ProtocolSettings.of(clusterSize, ETA, DELTA).withPartitionPolicy(PartitionPolicy.NONE);
    }

    private DetectorNode newNode(final int rank, final ProtocolSettings settings)
    {
        return new DetectorNode(rank, 7, settings, new DoubleHypercubeSchedule(), io, io, io, START);
    }

    @Test
    void shouldStartWithRingNeighbours()
    {
        assertEquals(4, node.emitter());
        assertEquals(6, node.observer());
        assertEquals(0, newNode(0, paper(N)).observer() - 1);
        assertEquals(N - 1, newNode(0, paper(N)).emitter());
    }

    @Test
    void shouldRejectRankOutsideCluster()
    {
        assertThrows(IllegalArgumentException.class, () -> newNode(N, paper(N)));
        assertThrows(IllegalArgumentException.class, () -> newNode(-1, paper(N)));
    }

    @Test
    void shouldKeepHeartbeatsOnAbsoluteDeadlinesWhenCalledLate()
    {
        node.doWork(START);
        node.doWork(START + ETA + 3);
        node.doWork(START + 2 * ETA + 1);
        node.doWork(START + 2 * ETA + 9);

        final List<RecordingChannels.Sent> beats = io.sentOfType("heartbeat");
        assertEquals(3, beats.size(), "one beat per period, late calls do not add or shift beats");
        assertEquals(List.of(1L, 2L, 3L), beats.stream().map(RecordingChannels.Sent::value).toList());
        assertTrue(beats.stream().allMatch((s) -> s.to() == 6));
        assertEquals(START + 3 * ETA, node.nextDeadlineNs());
        assertEquals(0, node.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED));
    }

    @Test
    void shouldCountMissedHeartbeatDeadlinesAndSkipThemRatherThanBurst()
    {
        node.doWork(START);
        node.doWork(START + 3 * ETA + 2);

        assertEquals(2, io.sentOfType("heartbeat").size());
        assertEquals(2, node.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED));
        assertEquals(START + 4 * ETA, node.nextDeadlineNs());
        assertEquals(3 * ETA + 2, node.counter(ProtocolCounter.MAX_HEARTBEAT_GAP_NS));
    }

    @Test
    void shouldNotCountTheWaitBeforeTheFirstBeatAsLateness()
    {
        node.doWork(START + 5 * ETA + 1);
        node.doWork(START + 6 * ETA + 1);

        assertEquals(2, io.sentOfType("heartbeat").size());
        assertEquals(0, node.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED), "the driver starting late is not a missed deadline");
        assertEquals(ETA, node.counter(ProtocolCounter.MAX_HEARTBEAT_GAP_NS), "only gaps between beats count");
    }

    @Test
    void shouldNotSuspectEmitterWhileSlotProgresses()
    {
        for (long t = START, counter = 1; t < START + 10 * DELTA; t += ETA, counter++)
        {
            io.deposit(4, counter);
            node.doWork(t);
        }
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
        assertTrue(node.isAlive(4));
    }

    @Test
    void shouldIgnoreSlotWritesFromAnotherRank()
    {
        for (long t = START; t <= START + DELTA; t += ETA)
        {
            io.deposit(3, t);
            node.doWork(t);
        }
        assertEquals(1, node.counter(ProtocolCounter.SUSPICIONS), "heartbeats from rank 3 do not vouch for emitter 4");
        assertFalse(node.isAlive(4));
    }

    @Test
    void shouldDeclareEmitterDeadAfterTimeoutThenMendRingAndBroadcast()
    {
        io.deposit(4, 1);
        runUntil(node, START, START + DELTA - 1);
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));

        node.doWork(START + DELTA);

        assertEquals(1, node.counter(ProtocolCounter.SUSPICIONS));
        assertFalse(node.isAlive(4));
        assertEquals(3, node.emitter());
        assertEquals(List.of(new RecordingChannels.Sent("newObserver", 3, 0)), io.sentOfType("newObserver"));
        assertTrue(io.events.contains("failure 4 DETECTED by 5 at " + (START + DELTA)));
        assertTrue(io.events.contains("view 1 dead=1"));
        final List<RecordingChannels.Sent> notices = io.sentOfType("notice");
        assertTrue(notices.size() >= 2, notices::toString);
        assertTrue(notices.stream().allMatch((s) -> s.value() == 4 && s.to() != 5));
        // the broadcast skips the dead rank; one last copy goes to the suspect itself to fence it if it lives
        assertEquals(new RecordingChannels.Sent("notice", 4, 4), notices.get(notices.size() - 1));
        assertEquals(1, notices.stream().filter((s) -> s.to() == 4).count());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_ORIGINATED));
    }

    @Test
    void shouldGiveNewEmitterTwiceTheTimeout()
    {
        runUntil(node, START, START + DELTA);
        final long mendedAt = START + DELTA;
        assertEquals(3, node.emitter());

        runUntil(node, mendedAt, mendedAt + 2 * DELTA - 1);
        assertTrue(node.isAlive(3));
        node.doWork(mendedAt + 2 * DELTA);
        assertFalse(node.isAlive(3));
        assertEquals(2, node.emitter());
    }

    @Test
    void shouldSkipKnownDeadRanksWhenMendingTheRing()
    {
        Deliver.notice(node, TestNotice.of(3, 9, 1, 2), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        runUntil(node, START, START + DELTA);
        assertEquals(1, node.emitter(), "3 and 2 are known dead, so after 4 the nearest live predecessor is 1");
    }

    @Test
    void shouldNotSuspectOnFirstCheckAfterItsOwnPause()
    {
        io.deposit(4, 1);
        node.doWork(START);
        node.doWork(START + 5);

        // descheduled from START + 5 until resumedAt: far past its own next deadline
        final long resumedAt = START + 3 * DELTA;
        node.doWork(resumedAt);
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS), "the node itself was descheduled; it must look at the slot afresh");
        assertEquals(1, node.counter(ProtocolCounter.PAUSES_DETECTED));

        runUntil(node, resumedAt, resumedAt + DELTA / 2);
        io.deposit(4, 2);
        runUntil(node, resumedAt + DELTA / 2, resumedAt + DELTA / 2 + DELTA - 1);
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
    }

    @Test
    void shouldStillDetectAfterItsOwnPauseWhenEmitterStaysSilent()
    {
        io.deposit(4, 1);
        node.doWork(START);
        final long resumedAt = START + 3 * DELTA;
        node.doWork(resumedAt);
        for (long t = resumedAt; t < resumedAt + DELTA; t += ETA / 2)
        {
            node.doWork(t);
        }
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
        node.doWork(resumedAt + DELTA);
        assertEquals(1, node.counter(ProtocolCounter.SUSPICIONS));
    }

    @Test
    void shouldHeartbeatAtOnceForNewObserverWithoutMovingTheSchedule()
    {
        node.doWork(START);
        Deliver.newObserver(node, 6, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START + 3);

        final List<RecordingChannels.Sent> beats = io.sentOfType("heartbeat");
        assertEquals(new RecordingChannels.Sent("heartbeat", 6, 2), beats.get(1));
        assertEquals(6, node.observer());
        assertEquals(START + ETA, node.nextDeadlineNs());
    }

    @Test
    void shouldIgnoreNewObserverFromRankItKnowsDeadOrOutOfRange()
    {
        Deliver.notice(node, TestNotice.of(9, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        Deliver.newObserver(node, 9, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START);
        Deliver.newObserver(node, N + 3, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START);
        Deliver.newObserver(node, -2, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START);
        assertEquals(6, node.observer());
    }

    @Test
    void shouldMergeWholeDeadSetAndForwardEachBroadcastOnce()
    {
        final TestNotice notice = TestNotice.of(11, 12, 1, 13, 14);
        Deliver.notice(node, notice, 12, InboundFrame.UNKNOWN_INCARNATION, START);
        final int firstCopies = io.sentOfType("notice").size();
        Deliver.notice(node, notice, 10, InboundFrame.UNKNOWN_INCARNATION, START + 1);

        assertFalse(node.isAlive(11));
        assertFalse(node.isAlive(13));
        assertFalse(node.isAlive(14));
        assertTrue(firstCopies > 0);
        assertEquals(firstCopies, io.sentOfType("notice").size(), "a duplicate copy is not forwarded again");
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_DUPLICATE));
        assertEquals(1, node.viewEpoch(), "one view change for the whole merged set");
        assertTrue(io.sentOfType("notice").stream().noneMatch((s) -> s.to() == 12), "never back to the sender");
    }

    @Test
    void shouldForwardASecondBroadcastOfTheSameDeath()
    {
        Deliver.notice(node, TestNotice.of(11, 12, 1), 12, InboundFrame.UNKNOWN_INCARNATION, START);
        final int afterFirst = io.sentOfType("notice").size();
        Deliver.notice(node, TestNotice.of(11, 13, 1), 13, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertTrue(io.sentOfType("notice").size() > afterFirst,
            "re-detection by another observer is a new broadcast and its paths must be walked");
        assertEquals(1, node.viewEpoch(), "but the view did not change");
    }

    @Test
    void shouldExcludeItselfWhenANoticeNamesIt()
    {
        Deliver.notice(node, TestNotice.of(2, 9, 1, 5), 9, InboundFrame.UNKNOWN_INCARNATION, START);

        assertEquals(NodeState.EXCLUDED, node.state());
        assertTrue(io.events.contains("excluded by 9 at " + START));
        assertEquals(0, io.sentOfType("notice").size());
        assertEquals(0, node.doWork(START + ETA));
        assertEquals(Long.MAX_VALUE, node.nextDeadlineNs());
    }

    @Test
    void shouldMendRingAtOnceWhenANoticeReportsItsEmitter()
    {
        Deliver.notice(node, TestNotice.of(4, 9, 1), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        assertEquals(3, node.emitter());
        assertEquals(List.of(new RecordingChannels.Sent("newObserver", 3, 0)), io.sentOfType("newObserver"));
        assertEquals(0, node.counter(ProtocolCounter.NOTICES_ORIGINATED), "learning by notice starts no new broadcast");
    }

    @Test
    void shouldMoveHeartbeatsToNextLiveSuccessorWhenObserverIsReportedDead()
    {
        Deliver.notice(node, TestNotice.of(6, 9, 1, 7), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        assertEquals(8, node.observer());
        assertEquals(8, io.sentOfType("heartbeat").get(0).to());
    }

    @Test
    void shouldBroadcastAtOnceOnLeaveWithoutWaitingForTimeout()
    {
        Deliver.leave(node, 4, InboundFrame.UNKNOWN_INCARNATION, START + 1);

        assertFalse(node.isAlive(4));
        assertTrue(io.events.contains("failure 4 LEFT by 4 at " + (START + 1)));
        assertEquals(3, node.emitter());
        assertEquals(1, node.counter(ProtocolCounter.NOTICES_ORIGINATED));
        assertEquals(0, node.counter(ProtocolCounter.SUSPICIONS));
    }

    @Test
    void shouldTellObserverAndStopOnGracefulLeave()
    {
        node.leave(START);
        assertEquals(List.of(new RecordingChannels.Sent("leave", 6, 0)), io.sentOfType("leave"));
        assertEquals(NodeState.LEFT, node.state());
    }

    @Test
    void shouldHonourStartupGraceOnlyForTheFirstWindow()
    {
        final DetectorNode graced = newNode(5, paper(N).withStartupGraceNs(500));
        runUntil(graced, START, START + DELTA + 499);
        assertEquals(0, graced.counter(ProtocolCounter.SUSPICIONS));
        graced.doWork(START + DELTA + 500);
        assertEquals(1, graced.counter(ProtocolCounter.SUSPICIONS));
    }

    @Test
    void shouldSuspectNobodyBeforeTheStartupGraceEndsEvenAfterAFirstBeat()
    {
        final DetectorNode graced = newNode(5, paper(N).withStartupGraceNs(10 * DELTA));
        io.deposit(4, 1);
        graced.doWork(START + ETA);
        assertEquals(1, graced.counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN));

        runUntil(graced, START + 2 * ETA, START + 10 * DELTA - 1);
        assertEquals(0, graced.counter(ProtocolCounter.SUSPICIONS), "silent for 9δ, but inside the grace");
        // a silence that began in the grace is not held against the emitter: it gets a whole δ once judging starts
        runUntil(graced, START + 10 * DELTA, START + 11 * DELTA - 1);
        assertEquals(0, graced.counter(ProtocolCounter.SUSPICIONS), "less than δ since the grace ended");
        graced.doWork(START + 11 * DELTA);
        assertEquals(1, graced.counter(ProtocolCounter.SUSPICIONS), "still silent δ after the grace ended");
    }

    @Test
    void shouldCountTheGraceFromStartWhenTheDriverStartsTheNodeLate()
    {
        final DetectorNode late = newNode(5, paper(N).withStartupGraceNs(500));
        final long startedNs = START + 100 * DELTA;
        late.start(startedNs);

        runUntil(late, startedNs, startedNs + DELTA + 499);
        assertEquals(0, late.counter(ProtocolCounter.SUSPICIONS));
        assertEquals(0, late.counter(ProtocolCounter.HEARTBEAT_DEADLINES_MISSED), "time before start is not lateness");
        late.doWork(startedNs + DELTA + 500);
        assertEquals(1, late.counter(ProtocolCounter.SUSPICIONS));
        assertThrows(IllegalStateException.class, () -> late.start(startedNs + 2 * DELTA));
    }

    @Test
    void shouldWatchNobodyWhenLastAlive()
    {
        final DetectorNode pair = newNode(1, paper(2));
        runUntil(pair, START, START + DELTA);
        assertFalse(pair.isAlive(0));
        assertEquals(1, pair.emitter());
        assertEquals(Long.MAX_VALUE, pair.nextDeadlineNs());
    }

    @Test
    void shouldRejectInconsistentSettingsWithTheOffendingValue()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> ProtocolSettings.of(8, 10, 10));
        assertTrue(ex.getMessage().contains("suspicionTimeoutNs (10)"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProtocolSettings.of(0, 10, 100));
    }

    @Test
    void shouldDropFramesFromARankHeldDeadAndFenceItOncePerInterval()
    {
        Deliver.notice(node, TestNotice.of(9, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        io.notices.clear();

        Deliver.leave(node, 9, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        Deliver.notice(node, TestNotice.of(3, 9, 4), 9, InboundFrame.UNKNOWN_INCARNATION, START + 2);
        Deliver.heartbeat(node, 9, 7, 12, 0, START + 3);

        assertEquals(3, node.counter(ProtocolCounter.FRAMES_FROM_DEAD));
        assertEquals(1, node.counter(ProtocolCounter.FENCES_SENT));
        assertEquals(1, io.notices.size());
        final RecordingChannels.SentNotice fence = io.notices.get(0);
        assertEquals(9, fence.to());
        assertEquals(9, fence.deadRank());
        assertEquals(5, fence.sourceRank());
        assertTrue(fence.sequence() >= NoticeSequences.FENCE_BASE);
        assertTrue(node.isAlive(3), "a dead sender's notice changes nothing");
        assertEquals(-1, io.slotWriter, "a dead sender's heartbeat never reaches the slot");

        Deliver.heartbeat(node, 9, 7, 13, 0, START + 1 + DELTA);
        assertEquals(2, node.counter(ProtocolCounter.FENCES_SENT), "the zombie is still talking a fence interval later: fence it again");
        assertTrue(io.notices.get(1).sequence() > fence.sequence());
    }

    @Test
    void shouldFenceARankHeldDeadThatStillWritesItsSlot()
    {
        Deliver.notice(node, TestNotice.of(9, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        io.notices.clear();
        io.deposit(9, 40);

        node.doWork(START + 1);
        node.doWork(START + 2);

        assertEquals(1, node.counter(ProtocolCounter.FENCES_SENT));
        assertEquals(9, io.notices.get(0).to());
    }

    @Test
    void shouldDepositHeartbeatFramesFromLiveRanksOnly()
    {
        Deliver.heartbeat(node, 4, 7, 21, 0, START);
        assertEquals(4, io.slotWriter);
        assertEquals(21, io.slotCounter);

        io.acceptsFrames = false;
        Deliver.heartbeat(node, 4, 7, 22, 0, START + 1);
        assertEquals(1, node.counter(ProtocolCounter.HEARTBEAT_FRAMES_REFUSED));
        assertEquals(21, io.slotCounter);
    }

    @Test
    void shouldDropNewObserverAddressedToAnotherRank()
    {
        Deliver.newObserver(node, 8, InboundFrame.UNKNOWN_INCARNATION, 7, 0, 0L, 0, START);

        assertEquals(1, node.counter(ProtocolCounter.MISADDRESSED));
        assertEquals(6, node.observer());
        assertEquals(0, io.sentOfType("heartbeat").size());
    }

    @Test
    void shouldOfferTheSlotDescriptorToTheChannelThenAdoptTheObserver()
    {
        node.doWork(START);
        Deliver.newObserver(node, 6, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0x42, 4096, 64, START + 3);

        assertEquals(List.of("observer 6 rkey 66 address 4096 length 64 at " + (START + 3)), io.observersOffered);
        assertEquals(6, node.observer());
        assertEquals(new RecordingChannels.Sent("heartbeat", 6, 2), io.sentOfType("heartbeat").get(1));
        assertEquals(0, node.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
    }

    @Test
    void shouldOfferZerosForANewObserverFrameWithoutADescriptor()
    {
        Deliver.newObserver(node, 6, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START);

        assertEquals(List.of("observer 6 rkey 0 address 0 length 0 at " + START), io.observersOffered);
        assertEquals(6, node.observer());
    }

    @Test
    void shouldDropNewObserverWhoseDescriptorTheChannelRefusesAndKeepItsObserver()
    {
        node.doWork(START);
        Deliver.notice(node, TestNotice.of(6, 7, 1), 7, InboundFrame.UNKNOWN_INCARNATION, START + 1);
        assertEquals(7, node.observer(), "beats go to the next live successor once the observer is known dead");
        final int beatsBefore = io.sentOfType("heartbeat").size();
        io.acceptsObservers = false;
        Deliver.newObserver(node, 7, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0x42, 4096, 64, START + 3);

        assertEquals(1, node.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
        assertEquals(beatsBefore, io.sentOfType("heartbeat").size(), "no immediate beat for a refused descriptor");
    }

    @Test
    void shouldHoldANewObserverFromAFartherSuccessorUntilTheViewHoldsTheRanksBetweenDead()
    {
        node.doWork(START);
        // rank 8 declared 6 and 7 dead; its NEW_OBSERVER overtook the notice
        Deliver.newObserver(node, 8, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0x42, 4096, 64, START + 3);

        assertEquals(6, node.observer(), "a farther successor does not take this node's heartbeats on its word");
        assertEquals(1, node.counter(ProtocolCounter.NEW_OBSERVER_DEFERRED));
        assertEquals(List.of(), io.observersOffered);
        assertEquals(8, io.viewDigests.get(0).to(), "the offerer is asked for its view, in case the notice was lost");
        node.doWork(START + ETA);
        assertEquals(6, io.sentOfType("heartbeat").get(1).to());

        Deliver.notice(node, TestNotice.of(6, 8, 1, 7), 8, InboundFrame.UNKNOWN_INCARNATION, START + ETA + 1);

        assertEquals(8, node.observer());
        assertEquals(List.of("observer 8 rkey 66 address 4096 length 64 at " + (START + ETA + 1)),
            io.observersOffered, "the held descriptor is taken once the view agrees");
    }

    @Test
    void shouldNeverLetAReplayedNewObserverFromAFartherSuccessorRedirectItsHeartbeats()
    {
        // negative control: without the check, this frame alone would move every beat to 8 and leave 6 starving
        node.doWork(START);
        for (int i = 0; i < 3; i++)
        {
            Deliver.newObserver(node, 8, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0, 0L, 0, START + 1 + i);
        }
        runUntil(node, START + 4, START + 5 * ETA);

        assertEquals(6, node.observer());
        assertTrue(io.sentOfType("heartbeat").stream().allMatch(beat -> beat.to() == 6), "every beat to rank 6");
        assertEquals(1, io.viewDigests.stream().filter(d -> d.to() == 8).count(), "one view request per offer");

        // the offerer dies: its offer goes with it, and the deaths of 6 and 7 then hand the ring to 9
        Deliver.notice(node, TestNotice.of(8, 10, 1), 10, InboundFrame.UNKNOWN_INCARNATION, START + 5 * ETA + 1);
        Deliver.notice(node, TestNotice.of(6, 10, 2, 7), 10, InboundFrame.UNKNOWN_INCARNATION, START + 5 * ETA + 2);
        assertEquals(9, node.observer());
        assertEquals(List.of(), io.observersOffered, "a dead offerer's descriptor is never used");
    }

    @Test
    void shouldNotOfferTheDescriptorOfAFrameItDoesNotAdmit()
    {
        Deliver.notice(node, TestNotice.of(9, 1, 1), 1, InboundFrame.UNKNOWN_INCARNATION, START);
        Deliver.newObserver(node, 9, InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0x42, 4096, 64, START);
        Deliver.newObserver(node, 8, InboundFrame.UNKNOWN_INCARNATION, 7, 0x42, 4096, 64, START);
        Deliver.newObserver(node, node.rank(), InboundFrame.UNKNOWN_INCARNATION, node.rank(), 0x42, 4096, 64, START);

        assertEquals(List.of(), io.observersOffered, "dead sender, another addressee, itself: never offered");
        assertEquals(1, node.counter(ProtocolCounter.FRAMES_FROM_DEAD));
        assertEquals(1, node.counter(ProtocolCounter.MISADDRESSED));
        assertEquals(0, node.counter(ProtocolCounter.NEW_OBSERVER_REFUSED));
        assertEquals(6, node.observer());
    }

    @Test
    void shouldTellFencedFromNamedInANotice()
    {
        final DetectorNode fenced = newNode(2, paper(N));
        Deliver.notice(fenced, TestNotice.of(2, 9, NoticeSequences.FENCE_BASE + 1), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        assertEquals(NodeState.EXCLUDED, fenced.state());
        assertTrue(io.events.contains("exclusion cause FENCED"));

        io.events.clear();
        Deliver.notice(node, TestNotice.of(5, 9, 3), 9, InboundFrame.UNKNOWN_INCARNATION, START);
        assertTrue(io.events.contains("exclusion cause NOTICE"));

        io.events.clear();
        newNode(3, paper(N)).leave(START);
        assertTrue(io.events.contains("exclusion cause LEFT"));
    }

    @Test
    void shouldNeverForwardAFenceNamingAnotherRank()
    {
        Deliver.notice(node, TestNotice.of(9, 1, NoticeSequences.FENCE_BASE + 3), 1, InboundFrame.UNKNOWN_INCARNATION, START);

        assertEquals(1, node.counter(ProtocolCounter.STRAY_FENCES));
        assertEquals(0, io.sentOfType("notice").size());
        assertTrue(node.isAlive(9), "a fence is not a broadcast: it teaches nobody else anything");
    }
}
