package io.ringwatch.core.sim;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulationTest
{
    private static final long MS = 1_000_000L;
    private static final long ETA_NS = 100 * MS;
    private static final long DELTA_NS = 1000 * MS;
    private static final long TAU_NS = MS;

    private static SimConfig lowLat(final int nodes, final long seed)
    {
        return SimConfigs.timing(nodes, ETA_NS, DELTA_NS, TAU_NS, seed);
    }

    private static void assertPassed(final SimResult result)
    {
        assertTrue(result.passed(), () -> "seed=" + result.seed() + " violations: " + result.violations() +
            " bound: " + result.boundViolations());
    }

    private static void assertDeadSet(final Simulation sim, final int rank, final int... expected)
    {
        final RankSet dead = sim.node(rank).deadSet();
        final StringBuilder actual = new StringBuilder();
        for (int i = 0; i < dead.size(); i++)
        {
            actual.append(dead.rankAt(i)).append(' ');
        }
        final StringBuilder wanted = new StringBuilder();
        for (final int r : expected)
        {
            wanted.append(r).append(' ');
        }
        assertEquals(wanted.toString(), actual.toString(), "dead set of node " + rank);
    }

    @ParameterizedTest
    @CsvSource({"1", "2", "3"})
    void shouldDetectSingleCrashAtEverySurvivorWithoutFalseSuspicion(final long seed)
    {
        final Simulation sim = new Simulation(lowLat(64, seed).placement(FailurePlacement.RANDOM).failures(1));
        final SimResult result = sim.run();

        assertPassed(result);
        assertEquals(1, result.crashes(), "seed=" + seed);
        int crashed = -1;
        for (int rank = 0; rank < 64; rank++)
        {
            if (sim.isStopped(rank))
            {
                crashed = rank;
            }
        }
        for (int rank = 0; rank < 64; rank++)
        {
            if (rank != crashed)
            {
                assertDeadSet(sim, rank, crashed);
            }
        }
        // the observer needs between δ - η and δ + τ to notice, then the broadcast takes a few τ
        assertTrue(result.firstKnownNs() >= DELTA_NS - ETA_NS && result.firstKnownNs() < DELTA_NS + 100 * TAU_NS,
            "seed=" + seed + " firstKnownNs=" + result.firstKnownNs());
        assertEquals(result.stabilizationNs(), result.firstKnownNs(), "seed=" + seed);
    }

    @ParameterizedTest
    @CsvSource({
        "64, RANDOM, 11", "128, RANDOM, 12", "256, RANDOM, 13",
        "64, CONTIGUOUS, 21", "128, CONTIGUOUS, 22", "256, CONTIGUOUS, 23"})
    void shouldStabilizeWithinTheoremOneBoundForMaximumTolerableCrashes(
        final int nodes, final FailurePlacement placement, final long seed)
    {
        final int f = (31 - Integer.numberOfLeadingZeros(nodes)) - 1;
        final SimResult result = Simulation.run(lowLat(nodes, seed).onePort(true).placement(placement).failures(f));

        assertPassed(result);
        assertEquals(f, result.crashes(), "seed=" + seed);
        assertEquals(f, result.failuresDuringStabilization(), "seed=" + seed);
        assertTrue(result.boundNs() > 0, "bound was not checked, seed=" + seed);
        assertTrue(result.stabilizationNs() <= result.boundNs(), "seed=" + seed);
        if (placement == FailurePlacement.CONTIGUOUS)
        {
            // the segment's observer probes back in doubling rounds and declares the whole run at once, after δ
            // of suspicion and δ of confirmed silence
            assertTrue(result.stabilizationNs() < 3 * DELTA_NS,
                "seed=" + seed + " stabilizationNs=" + result.stabilizationNs());

            // the paper's rule finds the members one at a time, 2δ apart (Lemma 1)
            final SimResult paper = Simulation.run(lowLat(nodes, seed).onePort(true).placement(placement).failures(f)
                .partitionPolicy(PartitionPolicy.NONE));
            assertPassed(paper);
            assertTrue(paper.stabilizationNs() > 2 * (f - 2) * DELTA_NS,
                "seed=" + seed + " stabilizationNs=" + paper.stabilizationNs());
        }
    }

    @Test
    void shouldExcludeNodePausedLongerThanTimeoutAndSuspectNobodyElse()
    {
        final long seed = 5;
        final int paused = 10;
        final Simulation sim = new Simulation(
            lowLat(32, seed).inject(Injection.pause(paused, 2 * DELTA_NS, 2 * DELTA_NS)));
        final SimResult result = sim.run();

        assertPassed(result);
        assertEquals(NodeState.EXCLUDED, sim.node(paused).state(), "seed=" + seed);
        assertEquals(1, result.exclusions(), "seed=" + seed);
        assertEquals(0, sim.node(paused).counter(ProtocolCounter.SUSPICIONS), "the paused node suspected someone, seed=" + seed);
        for (int rank = 0; rank < 32; rank++)
        {
            if (rank != paused)
            {
                assertDeadSet(sim, rank, paused);
                assertEquals(NodeState.ACTIVE, sim.node(rank).state(), "seed=" + seed);
            }
        }
        assertEquals(paused + 1, sim.node(paused - 1).observer(), "seed=" + seed);
        assertEquals(paused - 1, sim.node(paused + 1).emitter(), "seed=" + seed);
    }

    @Test
    void shouldNotSuspectAnyoneWhenAnObserverPausesBriefly()
    {
        final long seed = 6;
        final Simulation sim = new Simulation(
            lowLat(32, seed).inject(Injection.pause(10, 2 * DELTA_NS, 4 * DELTA_NS / 10)));
        final SimResult result = sim.run();

        assertPassed(result);
        for (int rank = 0; rank < 32; rank++)
        {
            assertEquals(0, sim.node(rank).deadSet().size(), "node " + rank + " suspected someone, seed=" + seed);
            assertEquals(NodeState.ACTIVE, sim.node(rank).state(), "seed=" + seed);
        }
    }

    /**
     * Emitter 7 goes quiet one period before its observer 8 pauses, and stays paused until just after 8 resumes.
     * When 8 resumes its suspicion deadline has passed with no progress in its slot; only its pause guard
     * (a late duty cycle restarts the window) keeps it from declaring 7 dead. 9 hears from 8 in time. The paper's
     * rule: under the majority rule the probe that confirms a suspicion would reach 7 as it resumes and hide a blind
     * guard.
     */
    private static SimConfig observerResumesBeforeItsSilentEmitter(final long pauseThresholdNs)
    {
        final long beatNs = 20 * ETA_NS;
        return lowLat(16, 7)
            .partitionPolicy(PartitionPolicy.NONE)
            .startJitter(false)
            .pauseThresholdNs(pauseThresholdNs)
            .inject(Injection.pause(7, beatNs - ETA_NS + 5 * MS, DELTA_NS + ETA_NS))
            .inject(Injection.pause(8, beatNs + 5 * MS, DELTA_NS - ETA_NS / 2));
    }

    @Test
    void shouldNotLetObserversOwnPauseMakeItSuspectItsEmitter()
    {
        final Simulation sim = new Simulation(observerResumesBeforeItsSilentEmitter(DELTA_NS / 2));
        final SimResult result = sim.run();

        assertPassed(result);
        assertTrue(sim.node(8).counter(ProtocolCounter.PAUSES_DETECTED) > 0, "the guard never ran");
        for (int rank = 0; rank < 16; rank++)
        {
            assertEquals(0, sim.node(rank).counter(ProtocolCounter.SUSPICIONS), "node " + rank + " suspected its emitter");
        }
    }

    @Test
    void shouldSuspectTheEmitterInTheSameScenarioWhenThePauseGuardIsBlind()
    {
        final Simulation sim = new Simulation(observerResumesBeforeItsSilentEmitter(DELTA_NS - 1));
        sim.run();

        assertEquals(1, sim.node(8).counter(ProtocolCounter.SUSPICIONS));
        assertTrue(sim.node(8).deadSet().contains(7));
    }

    @Test
    void shouldPropagateGracefulLeaveWithoutWaitingForTimeout()
    {
        final long seed = 8;
        final int leaver = 20;
        final Simulation sim = new Simulation(lowLat(64, seed).inject(Injection.leave(leaver, 2 * DELTA_NS)));
        final SimResult result = sim.run();

        assertPassed(result);
        assertEquals(1, result.leaves(), "seed=" + seed);
        assertEquals(NodeState.LEFT, sim.node(leaver).state(), "seed=" + seed);
        assertTrue(result.stabilizationNs() < 100 * TAU_NS, "seed=" + seed + " took " + result.stabilizationNs());
        for (int rank = 0; rank < 64; rank++)
        {
            if (rank != leaver)
            {
                assertDeadSet(sim, rank, leaver);
                assertEquals(0, sim.node(rank).counter(ProtocolCounter.SUSPICIONS), "seed=" + seed);
            }
        }
    }

    @Test
    void shouldStabilizeAfterOverlappingExponentialArrivals()
    {
        final long seed = 9;
        final int nodes = 256;
        // μ_ind chosen so crashes arrive every δ/2 on average: several overlap before the ring settles
        final SimResult result = Simulation.run(lowLat(nodes, seed)
            .onePort(true)
            .placement(FailurePlacement.EXPONENTIAL)
            .failures(7)
            .mtbfNs(nodes * DELTA_NS / 2));

        assertPassed(result);
        assertTrue(result.failuresDuringStabilization() >= 2,
            "seed=" + seed + " failures=" + result.failuresDuringStabilization());
    }

    @Test
    void shouldProduceIdenticalResultsForTheSameSeedAndDifferentTimingsForAnother()
    {
        final SimConfig config = lowLat(128, 77).onePort(true).placement(FailurePlacement.RANDOM).failures(4);
        final SimResult first = Simulation.run(config.copy());
        final SimResult again = Simulation.run(config.copy());
        final SimResult other = Simulation.run(config.copy().seed(78));

        assertEquals(first, again);
        assertPassed(first);
        assertPassed(other);
        assertNotEquals(first.stabilizationNs(), other.stabilizationNs());
        assertNotEquals(first.eventsProcessed(), other.eventsProcessed());
    }

    @Test
    void shouldReportBoundViolationWhenTheBoundIsWrong()
    {
        final long seed = 10;
        final SimResult result = Simulation.run(lowLat(64, seed)
            .onePort(true)
            .placement(FailurePlacement.RANDOM)
            .failures(2)
            .bound((f, n, delta, tau) -> delta / 2));

        assertTrue(result.violations().isEmpty(), "seed=" + seed + " " + result.violations());
        assertEquals(1, result.boundViolations().size(), "seed=" + seed);
        assertTrue(result.boundViolations().get(0).contains("seed=" + seed));
        assertFalse(result.passed());
    }

    @Test
    void shouldReportNeverStabilizingWhenTheTimeCapIsTooShort()
    {
        final long seed = 12;
        final SimResult result = Simulation.run(lowLat(64, seed)
            .placement(FailurePlacement.RANDOM)
            .failures(1)
            .firstFailureNs(2 * DELTA_NS)
            .timeCapNs(2 * DELTA_NS + DELTA_NS / 2));

        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("liveness")), result.violations()::toString);
        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("completeness")),
            result.violations()::toString);
    }

    @Test
    void shouldDeliverEveryMessageKindAndCountThem()
    {
        final SimResult result = Simulation.run(lowLat(64, 13)
            .placement(FailurePlacement.RANDOM)
            .failures(1)
            .inject(Injection.leave(3, 5 * DELTA_NS)));

        assertPassed(result);
        assertTrue(result.heartbeatMessages() > 64 * (result.endTimeNs() / ETA_NS - 2));
        assertTrue(result.newObserverMessages() >= 2);
        assertTrue(result.noticeMessages() >= 2 * 62);
        assertEquals(1, result.leaveMessages());
        assertTrue(result.vanishedMessages() > 0);
    }

    /**
     * Node 10 pauses for 3δ. Its observer 11 declares it dead and sends it the fence of task T3, which a cut of the
     * link 11→10 loses. When 10 resumes it beats into 11's slot; 11 holds it dead, so it fences it again, and 10
     * excludes itself before its own pause guard runs out and it suspects anyone.
     */
    @Test
    void shouldResendALostFenceWhenTheZombieIsHeardFromAgain()
    {
        final long seed = 12;
        final Simulation sim = new Simulation(lostFenceScenario(seed));
        final SimResult result = sim.run();

        assertPassed(result);
        assertEquals(NodeState.EXCLUDED, sim.node(10).state(), "seed=" + seed);
        assertEquals(ExclusionCause.FENCED, sim.exclusionCause(10), "seed=" + seed);
        assertTrue(sim.node(11).counter(ProtocolCounter.FENCES_SENT) >= 1, "seed=" + seed);
        assertEquals(0, sim.node(10).counter(ProtocolCounter.SUSPICIONS), "the zombie suspected someone, seed=" + seed);
    }

    /**
     * Negative control for the fencing and accuracy checkers: the same run with a rule that never re-sends a fence
     * leaves 10 a zombie long enough to declare its live emitter dead, and the checkers must say so. View repair is
     * off too: the zombie's digest to its emitter, which also holds it dead, would draw that node's first fence.
     */
    @Test
    void shouldReportAZombieWhenLostFencesAreNeverResent()
    {
        final long seed = 12;
        final SimResult result = Simulation.run(
            lostFenceScenario(seed).fenceIntervalNs(Long.MAX_VALUE).viewDigestPeriodNs(0));

        assertFalse(result.violations().isEmpty(), "seed=" + seed);
        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("accuracy: node 10 declared 9 dead")),
            "seed=" + seed + ": " + result.violations());
    }

    /**
     * The paper's rule: under the majority rule the zombie's own probes reach nodes that hold it dead, which fence it,
     * so a fence that is never re-sent would not show.
     */
    private static SimConfig lostFenceScenario(final long seed)
    {
        return lowLat(32, seed)
            .partitionPolicy(PartitionPolicy.NONE)
            .inject(Injection.pause(10, 2 * DELTA_NS, 3 * DELTA_NS))
            .inject(Injection.cut(11, 10, 2 * DELTA_NS, 5 * DELTA_NS / 2));
    }

    /**
     * A cut shorter than δ changes nothing: heartbeats resume before anyone's suspicion deadline.
     */
    @Test
    void shouldExcludeNobodyWhenAPartitionIsShorterThanTheTimeout()
    {
        for (long seed = 20; seed < 30; seed++)
        {
            final Simulation sim = new Simulation(lowLat(64, seed)
                .partition(new Partition(3 * DELTA_NS, DELTA_NS / 2, new int[]{40, 24}, false, false)));
            final SimResult result = sim.run();

            assertPassed(result);
            assertEquals(0, result.exclusions(), "seed=" + seed);
            assertEquals(0, result.majorityLost(), "seed=" + seed);
            for (int rank = 0; rank < 64; rank++)
            {
                assertEquals(0, sim.node(rank).deadSet().size(), "node " + rank + " suspected someone, seed=" + seed);
            }
        }
    }

    /**
     * Negative control: what the paper's protocol (policy none) does with a long partition, and why a partition rule
     * is needed: both sides go on holding each other dead after the network heals. The split-brain checker must see it.
     */
    @Test
    void shouldReportSplitBrainWhenBothSidesOfALongPartitionGoOn()
    {
        final long seed = 31;
        final SimResult result = Simulation.run(lowLat(16, seed).partitionPolicy(PartitionPolicy.NONE)
            .partition(new Partition(3 * DELTA_NS, 40 * DELTA_NS, new int[]{10, 6}, false, false)));

        assertTrue(result.splitBrainPairs() > 0, "seed=" + seed + ": " + result.violations());
        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("split brain")), "seed=" + seed);
    }
}
