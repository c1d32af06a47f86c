package io.ringwatch.core.protocol;

import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start = join, as one rule: a restart joins whatever the rank's role at first boot.
 */
class BootPlanTest
{
    @Test
    void shouldBootSeedsAsSeedsAndTheOthersByJoiningAtOnce()
    {
        assertEquals(BootPlan.SEED, BootPlan.decide(0, 3, 8, false, false));
        assertEquals(BootPlan.SEED, BootPlan.decide(2, 3, 8, false, false));
        assertEquals(BootPlan.JOIN_AT_BOOT, BootPlan.decide(3, 3, 8, false, false));
    }

    @Test
    void shouldStartEveryRankAsAMemberWhenAllAreSeeds()
    {
        assertEquals(BootPlan.MEMBER, BootPlan.decide(1, 3, 3, false, false));
        assertFalse(BootPlan.MEMBER.joins());
    }

    @Test
    void shouldJoinOnEveryRestartWhateverTheRoleAtFirstBoot()
    {
        assertEquals(BootPlan.JOIN, BootPlan.decide(0, 3, 3, false, true), "a seed of an all-seed cluster");
        assertEquals(BootPlan.JOIN, BootPlan.decide(1, 3, 8, false, true), "a seed");
        assertEquals(BootPlan.JOIN, BootPlan.decide(5, 3, 8, false, true), "any other rank");
        assertEquals(BootPlan.JOIN, BootPlan.decide(0, 3, 8, true, false), "told to join");
        assertTrue(BootPlan.JOIN.joins());
        assertTrue(BootPlan.JOIN_AT_BOOT.joins());
    }

    @Test
    void shouldStartTheNodeByThePlan()
    {
        final RecordingChannels io = new RecordingChannels();
        final ProtocolSettings settings = ProtocolSettings.of(8, 10, 100);
        final DetectorNode seed = new DetectorNode(1, 0, settings, new DoubleHypercubeSchedule(), io, io, io, 0);
        BootPlan.SEED.start(seed, 3, 5);
        assertFalse(seed.isAlive(5), "a seed holds the others not yet admitted");
        assertEquals(NodeState.ACTIVE, seed.state());

        final DetectorNode joiner = new DetectorNode(5, 7, settings, new DoubleHypercubeSchedule(), io, io, io, 0);
        BootPlan.JOIN.start(joiner, 3, 5);
        assertEquals(NodeState.JOINING, joiner.state());
    }
}
