package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The majority rule alone: a minority notice is checked by probing a sample of its D_msg, refuted by one answer, and
 * ends in a stop when the sample stays silent for δ; a node whose view leaves no majority stops and tells its side.
 */
class MajorityRuleTest
{
    private static final int N = 8;
    private static final int RANK = 3;
    private static final long DELTA = 100;
    private static final long NOW = 1_000;

    private final RecordingChannels io = new RecordingChannels();
    private final RankArray dead = new RankArray(4);
    private final Ring ring = new Ring(RANK, N, dead);
    private final Membership membership = new Membership(DELTA / 2);
    private final ProtocolCounters counters = new ProtocolCounters();
    private final ProtocolSettings settings = ProtocolSettings.of(N, 10, DELTA)
        .withPartitionPolicy(PartitionPolicy.MAJORITY).withProbeTimeoutNs(20);
    private final Quorum quorum = new Quorum(N, settings.settlePeriodNs(), 0);
    private final LocalView view = new LocalView(RANK, dead, membership, quorum, io, DELTA);
    private final Observation observation = new Observation(RANK, settings, io, io, membership, counters);
    private final Notices notices = new Notices(RANK, 0, settings, new DoubleHypercubeSchedule(), io, membership,
        dead, counters);
    private final ProbeSession probes = new ProbeSession(RANK, ring, observation, dead, quorum, io, settings, counters);
    private final MajorityRule rule = new MajorityRule(view, notices, counters, ring, observation, dead, quorum,
        probes, settings);

    @Test
    void shouldProbeASampleOfAMinorityNoticeAndTakeOneAnswerAsItsRefutation()
    {
        observation.rebase(0);
        rule.verifyMinority(RankArray.of(0, 1, 2, 4, 5, 6), 7, NOW);

        assertTrue(rule.verifying());
        final List<RecordingChannels.Sent> sample = io.sentOfType("probe");
        assertEquals(4, sample.size(), "at most four of D_msg, spread over it");
        final long token = sample.get(0).value();
        assertEquals(ProbeSession.VERIFY, token & ProbeSession.VERIFY);

        assertTrue(rule.refutedBy(token));
        assertFalse(rule.verifying());
        assertEquals(0, rule.checkVerification(NOW + DELTA));
        assertEquals(NodeState.ACTIVE, view.state());
    }

    @Test
    void shouldStopAsAMinorityWhenTheSampleStaysSilentForDelta()
    {
        observation.rebase(0);
        rule.verifyMinority(RankArray.of(0, 1, 2, 4, 5, 6), 7, NOW);

        assertEquals(0, rule.checkVerification(NOW + 1));
        assertEquals(1, rule.checkVerification(NOW + DELTA));
        assertEquals(NodeState.EXCLUDED, view.state());
        assertTrue(io.events.contains("excluded by 7 at " + (NOW + DELTA)), io.events.toString());
        assertTrue(io.events.contains("exclusion cause MINORITY"));
    }

    @Test
    void shouldRefuseANoticeNamingOnlyRanksItHoldsDeadWhileItsViewLeavesAMajority()
    {
        dead.add(6);
        rule.verifyMinority(RankArray.of(6), 7, NOW);

        assertFalse(rule.verifying());
        assertEquals(1, counters.get(ProtocolCounter.NOTICES_REFUSED));
        assertEquals(NodeState.ACTIVE, view.state());
    }

    @Test
    void shouldTellItsSideAndStopWhenItsViewLeavesNoMajority()
    {
        for (final int r : new int[] {4, 5, 6, 7})
        {
            dead.add(r);
        }
        assertTrue(rule.viewHoldsMajority(), "4 of 8 with the lowest member, rank 0, on this side");
        dead.add(0);
        assertFalse(rule.viewHoldsMajority());

        rule.stopAsMinority(NOW, 0, 0);

        assertEquals(NodeState.EXCLUDED, view.state());
        assertTrue(io.events.contains("exclusion cause MINORITY"));
        assertFalse(io.notices.isEmpty(), "its side is told first");
        assertTrue(io.notices.stream().allMatch((n) -> n.deadSet().contains(0) && n.deadSet().contains(7) &&
            NoticeSequences.MINORITY_BASE <= n.sequence()), io.notices.toString());
    }

    @Test
    void shouldLetMGrowByAJoiner2DeltaAfterItsJoinButNotWhileCheckingAMinorityNotice()
    {
        observation.rebase(0);
        dead.add(5);
        quorum.adopt(dead);
        dead.remove(5);
        quorum.viewChanged(NOW);

        rule.growWithJoins(NOW + 2 * DELTA - 1);
        assertTrue(quorum.isOutside(5), "not before the JOIN is 2δ old");
        rule.verifyMinority(RankArray.of(0, 1, 2, 4), 7, NOW + 2 * DELTA - 1);
        rule.growWithJoins(NOW + 2 * DELTA);
        assertTrue(quorum.isOutside(5), "M is held as it is while a silence is judged");

        rule.refutedBy(io.sentOfType("probe").get(0).value());
        rule.growWithJoins(NOW + 2 * DELTA + 1);
        assertFalse(quorum.isOutside(5), "the joiner is a member");
    }

    @Test
    void shouldLetMGrowOnlyAfterTheSettlePeriodWhenTheRuleIsBroken()
    {
        // negative control, the old rule: joiners wait for the whole settle period
        final MajorityRule broken = new MajorityRule(view, notices, counters, ring, observation, dead, quorum, probes,
            settings.withBrokenRules(BrokenRules.BREAK_JOIN_SETTLE));
        dead.add(5);
        quorum.adopt(dead);
        dead.remove(5);
        quorum.viewChanged(NOW);

        broken.growWithJoins(NOW + 2 * DELTA);
        assertTrue(quorum.isOutside(5));
        quorum.settleIfDue(dead, NOW + settings.settlePeriodNs());
        assertFalse(quorum.isOutside(5));
    }
}
