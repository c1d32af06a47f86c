package io.ringwatch.perf.swim;

import io.ringwatch.core.sim.DelayModel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SwimSimulationTest
{
    private static final DelayModel ONE_MS = DelayModel.uniform(1_000_000L);

    @Test
    void shouldHaveEveryLiveNodeDeclareTheCrashedNodeDeadAfterTheSuspicionTimeout()
    {
        final SwimConfig config = SwimConfig.scaledToLowLat();
        final int n = 500;
        for (long seed = 1; seed <= 3; seed++)
        {
            final SwimResult r = new SwimSimulation(config, n, ONE_MS, 1, 2 * config.probeIntervalNs(), 0,
                1_000 * config.probeIntervalNs(), seed).run();
            assertTrue(r.firstSuspectNs() >= 0 && r.firstDeadNs() >= r.firstSuspectNs() + config.suspicionMinNs(n),
                r + " seed=" + seed);
            assertTrue(r.allDeadNs() >= r.firstDeadNs(), r + " seed=" + seed);
            assertEquals(0, r.falseSuspicions() + r.falseDeaths(), "no false positives on a 1 ms network, " +
                r + " seed=" + seed);
        }
    }

    @Test
    void shouldSendAboutTwoMessagesPerNodePerPeriodWhenNothingFails()
    {
        final long seed = 4;
        final SwimConfig config = SwimConfig.memberlistLan();
        final SwimResult r = new SwimSimulation(config, 200, ONE_MS, 0, 0, 0, 50 * config.probeIntervalNs(), seed)
            .run();
        assertEquals(2.0, r.messagesPerNodePerSecond(), 0.1, r + " seed=" + seed);
        assertEquals(0, r.refutations(), "seed=" + seed);
    }

    @Test
    void shouldRefuteSuspicionsCausedBySlowAcks()
    {
        // every probe round trip exceeds the timeout when all delays are 60% of the period: live nodes get
        // suspected and must refute instead of being declared dead
        final long seed = 5;
        final SwimConfig config = SwimConfig.scaledToLowLat();
        final DelayModel slow = (random) -> 60_000_000L;
        final SwimResult r = new SwimSimulation(config, 50, slow, 0, 0, 0, 200 * config.probeIntervalNs(), seed)
            .run();
        assertTrue(r.falseSuspicions() > 0 && r.refutations() > 0, r + " seed=" + seed);
    }

    @Test
    void shouldScaleSuspicionAndRetransmissionsLikeMemberlist()
    {
        final SwimConfig lan = SwimConfig.memberlistLan();
        assertEquals(20_000_000_000L, lan.suspicionMinNs(100_000));
        assertEquals(120_000_000_000L, lan.suspicionMaxNs(100_000));
        assertEquals(24, lan.retransmitLimit(100_000));
        assertEquals(lan.suspicionMaxNs(100_000), lan.suspicionTimeoutNs(100_000, 0));
        assertEquals(lan.suspicionMinNs(100_000), lan.suspicionTimeoutNs(100_000, 2));
    }
}
