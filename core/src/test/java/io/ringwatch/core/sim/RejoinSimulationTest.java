package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.core.protocol.Theorem1;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Restarts in the simulator: every stopped node comes back under a new incarnation and joins; the checkers must
 * find every live node agreeing on membership and incarnations, the ring covering the joiners, no joiner suspected
 * while running, and each JOIN spread within the broadcast bound.
 */
class RejoinSimulationTest
{
    private static final int NODES = 32;
    private static final long DELTA_NS = 100_000_000L;
    private static final long RESTART_NS = 200_000_000L;
    private static final long CRASH_NS = 200_000_000L;
    private static final long RESTARTED_NS = CRASH_NS + RESTART_NS;

    private static SimConfig base(final long seed)
    {
        return new SimConfig()
            .nodes(NODES)
            .heartbeatPeriodNs(10_000_000L)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(1_000_000L)
            .restartAfterNs(RESTART_NS)
            .seed(seed);
    }

    private static Simulation runClean(final SimConfig config, final int restarts)
    {
        return runClean(config, restarts, restarts);
    }

    private static Simulation runClean(final SimConfig config, final int restarts, final int rejoinedRanks)
    {
        final Simulation simulation = new Simulation(config);
        final SimResult result = simulation.run();
        assertTrue(result.violations().isEmpty(), "seed=" + config.seed() + " " + result.violations());
        assertEquals(restarts, result.restarts(), "seed=" + config.seed());
        assertEquals(rejoinedRanks, result.rejoined(), "seed=" + config.seed());
        return simulation;
    }

    private static void assertEveryLiveNodeHolds(final Simulation simulation, final int rank, final long incarnation)
    {
        for (int viewer = 0; viewer < NODES; viewer++)
        {
            if (!simulation.isStopped(viewer))
            {
                assertEquals(incarnation, simulation.node(viewer).incarnationOf(rank), "viewer " + viewer);
                assertTrue(simulation.node(viewer).isAlive(rank), "viewer " + viewer);
            }
        }
    }

    @Test
    void shouldAdmitACrashedNodeRestartedUnderANewIncarnation()
    {
        final Simulation simulation = runClean(base(1).inject(Injection.crash(3, CRASH_NS)), 1);
        assertEveryLiveNodeHolds(simulation, 3, 1);
        assertEquals(NodeState.ACTIVE, simulation.node(3).state());
        assertEquals(2, simulation.node(3).emitter());
        assertEquals(4, simulation.node(3).observer());
    }

    @Test
    void shouldAdmitAJoinerWhileItsFirstContactAndAnotherNodeCrash()
    {
        // 4 (the joiner's successor, asked first) dies as the joiner starts, 20 while the JOIN spreads
        final Simulation simulation = runClean(base(2)
            .inject(Injection.crash(3, CRASH_NS))
            .inject(Injection.crash(4, RESTARTED_NS))
            .inject(Injection.crash(20, RESTARTED_NS + 500_000L)), 3);
        assertEveryLiveNodeHolds(simulation, 3, 1);
        assertTrue(simulation.node(3).counter(ProtocolCounter.JOIN_REQUESTS_SENT) >= 2, "asked another contact after the first died");
    }

    @Test
    void shouldRecoverFromAJoinerThatDiesMidJoin()
    {
        final Simulation simulation = runClean(base(3)
            .inject(Injection.crash(3, CRASH_NS))
            .inject(Injection.crash(3, RESTARTED_NS + 800_000L)), 2, 1);
        assertEveryLiveNodeHolds(simulation, 3, 2);
    }

    @Test
    void shouldAdmitTwoNeighboursJoiningAtOnceAndAThirdElsewhere()
    {
        final Simulation simulation = runClean(base(4)
            .inject(Injection.crash(3, CRASH_NS))
            .inject(Injection.crash(4, CRASH_NS))
            .inject(Injection.crash(10, CRASH_NS)), 3);
        assertEveryLiveNodeHolds(simulation, 3, 1);
        assertEveryLiveNodeHolds(simulation, 4, 1);
        assertEveryLiveNodeHolds(simulation, 10, 1);
    }

    @Test
    void shouldReadmitANodeThatLeftAndAZombieThatWasFenced()
    {
        final Simulation simulation = runClean(base(5)
            .inject(Injection.leave(7, CRASH_NS))
            .inject(Injection.pause(15, CRASH_NS, 3 * DELTA_NS)), 2);
        assertEveryLiveNodeHolds(simulation, 7, 1);
        assertEveryLiveNodeHolds(simulation, 15, 1);
    }

    @Test
    void shouldFailTheCheckersWhenARestartReusesItsIncarnation()
    {
        // negative control: a restart that keeps its incarnation breaks the rule, and must never be admitted
        final SimResult result = Simulation.run(base(6).restartIncarnationStep(0).inject(Injection.crash(3, CRASH_NS)));
        assertFalse(result.violations().isEmpty());
        assertTrue(result.restarts() > result.rejoined(), result.restarts() + " restarts, " + result.rejoined());
    }

    @Test
    void shouldHoldAJoinToTheBoundOfEveryBroadcastSharingItsPorts()
    {
        // Batch seed 2832027769566's run 68 first showed it: a JOIN whose contact still held the joiner's old life alive
        // announced that death and the JOIN at once, while retold JOINs of the other restarted ranks were on the way,
        // so 13 broadcasts shared the ports. Since NEW_OBSERVER is checked against the view that run no longer queues
        // so; a later one did (5 crashes, one-port, restarts after 178 ms). Joins are challenged since (one round trip
        // more), which moved that run's timing; this one, found by trying seeds of the same shape, has its slowest JOIN
        // take 66.7 ms, above B(71) = 49.2 ms alone.
        final SimConfig config = new SimConfig()
            .nodes(71)
            .heartbeatPeriodNs(10_000_000L)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(1_000_000L)
            .placement(FailurePlacement.RANDOM)
            .failures(5)
            .restartAfterNs(159_283_469L)
            .onePort(true)
            .seed(914_276_965_366_045_328L);
        final SimResult result = Simulation.run(config);
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        assertEquals(5, result.rejoined());
        assertTrue(result.joinSpreadMaxNs() > Theorem1.broadcast(71, 1_000_000L),
            "the run this reproduces has a JOIN slower than one broadcast alone: " + result.joinSpreadMaxNs());
    }

    @Test
    void shouldHoldAJoinToTheBroadcastBoundOnlyWhileItTravelsTheHypercube()
    {
        // negative control of the JOIN spread bound: in the one-port model a contact that sends the JOIN to the
        // 255 others itself queues them one behind another, about 255 τ/2 = 2 B(256); the double hypercube is within
        final SimConfig hypercube = new SimConfig()
            .nodes(256)
            .heartbeatPeriodNs(10_000_000L)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(1_000_000L)
            .onePort(true)
            .restartAfterNs(5 * DELTA_NS)
            .seed(8)
            .inject(Injection.crash(3, CRASH_NS));
        final SimResult clean = Simulation.run(hypercube);
        assertTrue(clean.violations().isEmpty(), clean.violations().toString());
        assertEquals(1, clean.rejoined());

        final SimResult star = Simulation.run(hypercube.copy().brokenRules(BrokenRules.BREAK_JOIN_STAR));
        assertTrue(star.violations().toString().contains("above the broadcast bound"), star.violations().toString());
        assertTrue(star.joinSpreadMaxNs() > clean.joinSpreadMaxNs());
    }

    @Test
    void shouldPassASeededSwarmOfShapesAndFaults()
    {
        final long batchSeed = Long.getLong("ringwatch.swarm.seed", 1);
        final SplittableRandom shapes = new SplittableRandom(batchSeed);
        int runs = 0;
        while (runs < 100)
        {
            final int nodes = 8 + shapes.nextInt(121);
            final int maxFailures = Math.max(1, (31 - Integer.numberOfLeadingZeros(nodes)) - 1);
            final SimConfig config = new SimConfig()
                .nodes(nodes)
                .heartbeatPeriodNs(10_000_000L)
                .suspicionTimeoutNs(DELTA_NS)
                .maxDelayNs(1_000_000L)
                .placement(shapes.nextBoolean() ? FailurePlacement.RANDOM : FailurePlacement.CONTIGUOUS)
                .failures(1 + shapes.nextInt(maxFailures))
                .restartAfterNs(20_000_000L + shapes.nextLong(2_000_000_000L))
                .onePort(shapes.nextInt(4) == 0)
                .seed(shapes.nextLong());
            if (shapes.nextInt(3) == 0)
            {
                config.randomPauses(1, 3 * DELTA_NS);
            }
            final SimResult result = Simulation.run(config);
            final String shape = "batch seed " + batchSeed + " (rerun with -Dringwatch.swarm.seed=" + batchSeed +
                "), run seed " + config.seed() + ", nodes " + nodes + ", failures " + config.faults().failures() + ", " +
                config.faults().placement() + ", restart after " + config.boot().restartAfterNs() + "ns";
            assertTrue(result.violations().isEmpty(), shape + ": " + result.violations());
            // the rejoin checker flags any restarted rank running but not admitted everywhere
            assertTrue(result.restarts() == 0 || result.rejoined() > 0, shape);
            runs++;
        }
        System.out.println("rejoin swarm: " + runs + " runs, batch seed " + batchSeed);
        assertEquals(100, runs, "batch seed " + batchSeed + ": every run of the swarm ran");
    }
}
