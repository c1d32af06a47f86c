package io.ringwatch.core.sim;

import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.ProtocolCounter;
import io.ringwatch.core.spi.ExclusionCause;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The majority rule in whole simulated clusters: every partition check of {@link Checks} runs on each of these
 * ({@link Simulation} applies them to runs whose only faults are partitions), plus what each test asserts itself.
 */
class PartitionSimulationTest
{
    private static final long MS = 1_000_000L;
    private static final long ETA_NS = 10 * MS;
    private static final long DELTA_NS = 100 * MS;
    private static final long TAU_NS = MS;
    private static final int SWARM_RUNS = 1_200;

    private static SimConfig config(final int nodes, final long seed)
    {
        return SimConfigs.timing(nodes, ETA_NS, DELTA_NS, TAU_NS, seed);
    }

    private static void assertPassed(final SimResult result, final String what)
    {
        assertTrue(result.passed(), () -> what + " seed=" + result.seed() + " violations: " + result.violations());
    }

    @Test
    void shouldStopTheMinorityWithinTheBoundAndKeepEveryMajorityNodeAfterALongCut()
    {
        final long seed = 3;
        final Simulation sim = new Simulation(config(64, seed)
            .partition(new Partition(5 * DELTA_NS, 50 * DELTA_NS, new int[]{40, 24}, false, false)));
        final SimResult result = sim.run();

        assertPassed(result, "40:24");
        assertEquals(0, result.splitBrainPairs());
        assertEquals(0, result.majorityLost());
        assertEquals(24, result.exclusions(), "the minority, and nobody else");
        assertTrue(result.minorityFenceNs() > 0 &&
            result.minorityFenceNs() <= PartitionCheck.minorityBoundNs(64, DELTA_NS),
            "seed=" + seed + " minorityFenceNs=" + result.minorityFenceNs());
        int minority = 0;
        for (int rank = 0; rank < 64; rank++)
        {
            minority += sim.exclusionCause(rank) == ExclusionCause.MINORITY ? 1 : 0;
        }
        assertEquals(24, minority, "every minority node stopped for want of a majority");
    }

    @Test
    void shouldStopAnIsolatedNodeAsIsolatedWithoutItAccusingAnyone()
    {
        for (long seed = 1; seed <= 5; seed++)
        {
            final Simulation sim = new Simulation(config(128, seed).partition(
                Partition.isolate(1, 128, 5 * DELTA_NS, 30 * DELTA_NS)));
            final SimResult result = sim.run();

            assertPassed(result, "isolate 1 of 128");
            assertEquals(1, result.exclusions(), "seed=" + seed);
            int isolated = 0;
            for (int rank = 0; rank < 128; rank++)
            {
                if (sim.exclusionCause(rank) == ExclusionCause.ISOLATED)
                {
                    isolated++;
                    assertEquals(0, sim.node(rank).counter(ProtocolCounter.SUSPICIONS), "the isolated node accused someone, seed=" + seed);
                }
            }
            assertEquals(1, isolated, "seed=" + seed);
        }
    }

    @Test
    void shouldLoseOnlyTheDeafHostsNodesInAOneWayFault()
    {
        for (long seed = 1; seed <= 10; seed++)
        {
            final SimResult result = Simulation.run(config(16, seed)
                .partition(new Partition(5 * DELTA_NS, 40 * DELTA_NS, new int[]{2, 14}, false, true)));

            assertPassed(result, "one-way 2:14");
            assertEquals(0, result.majorityLost(), "seed=" + seed);
            assertEquals(2, result.exclusions(), "seed=" + seed);
        }
    }

    @Test
    void shouldChangeNothingWhenTheCutIsShorterThanHalfTheTimeout()
    {
        for (long seed = 1; seed <= 10; seed++)
        {
            final SimResult result = Simulation.run(config(64, seed)
                .partition(new Partition(5 * DELTA_NS, DELTA_NS / 2 - 1, new int[]{40, 24}, false, false)));

            assertPassed(result, "a cut of δ/2");
            assertEquals(0, result.exclusions(), "seed=" + seed);
            assertEquals(-1, result.minorityFenceNs(), "seed=" + seed);
        }
    }

    @Test
    void shouldBreakAnExactTieForTheHalfHoldingRankZero()
    {
        for (long seed = 1; seed <= 10; seed++)
        {
            final Simulation sim = new Simulation(config(32, seed)
                .partition(new Partition(5 * DELTA_NS, 40 * DELTA_NS, new int[]{16, 16}, false, false)));
            final SimResult result = sim.run();

            assertPassed(result, "16:16");
            assertEquals(16, result.exclusions(), "seed=" + seed);
            assertTrue(!sim.isStopped(0), "the half holding rank 0 goes on, seed=" + seed);
        }
    }

    /**
     * Negative control for the deaf-accuser and majority checkers: without the ear check (probe timeout 0, a
     * suspicion is a notice at once) a host that can send but not hear accuses healthy nodes, and its notices reach
     * them.
     */
    @Test
    void shouldReportADeafAccuserWhenTheEarCheckIsSkipped()
    {
        final long seed = 4;
        final SimResult result = Simulation.run(config(16, seed).probeTimeoutNs(0)
            .partition(new Partition(5 * DELTA_NS, 40 * DELTA_NS, new int[]{2, 14}, false, true)));

        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("deaf accuser")),
            "seed=" + seed + ": " + result.violations());
        assertTrue(result.majorityLost() > 0, "seed=" + seed);
    }

    /**
     * Negative control for the split-brain checker: policy none under a long cut leaves two clusters holding each
     * other dead; the same run under the majority rule does not.
     */
    @Test
    void shouldReportSplitBrainUnderPolicyNoneAndNotUnderMajority()
    {
        for (long seed = 31; seed < 36; seed++)
        {
            final SimConfig cut = config(16, seed)
                .partition(new Partition(5 * DELTA_NS, 40 * DELTA_NS, new int[]{10, 6}, false, false));
            final SimResult none = Simulation.run(cut.copy().partitionPolicy(PartitionPolicy.NONE));
            assertTrue(none.splitBrainPairs() > 0, "seed=" + seed + ": " + none.violations());

            final SimResult majority = Simulation.run(cut);
            assertPassed(majority, "10:6");
            assertEquals(0, majority.splitBrainPairs(), "seed=" + seed);
        }
    }

    /**
     * Swarm: the seed picks the cluster size, the partition's shape (two or three contiguous groups, two groups
     * scattered over the ring, up to three isolated nodes, a deaf host of one or two neighbouring ranks) and its length
     * (from a fifth of δ to ten δ); every run must pass every check. Failures name the seed and the shape.
     */
    @Test
    void shouldPassEveryCheckInASeededPartitionSwarm()
    {
        final List<String> failures = new ArrayList<>();
        for (long seed = 1; seed <= SWARM_RUNS; seed++)
        {
            final SimConfig config = swarmConfig(seed);
            final SimResult result = Simulation.run(config);
            if (!result.passed() || result.splitBrainPairs() > 0)
            {
                failures.add("seed=" + seed + " " + config.network().partitions() + " nodes=" + config.nodes() + ": " +
                    result.violations());
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " of " + SWARM_RUNS + " runs failed, first: " +
            failures.subList(0, Math.min(5, failures.size())));
    }

    private static SimConfig swarmConfig(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(Seeds.forRun(0x5A12_7E57L, (int)seed));
        final int n = 4 + random.nextInt(21);
        final long startNs = 3 * DELTA_NS + random.nextLong(DELTA_NS);
        final long durationNs = DELTA_NS / 5 + random.nextLong(10 * DELTA_NS);
        final Partition partition;
        switch (random.nextInt(5))
        {
            case 0 ->
            {
                final int a = 1 + random.nextInt(n - 1);
                partition = new Partition(startNs, durationNs, new int[]{a, n - a}, false, false);
            }
            case 1 ->
            {
                final int a = 1 + random.nextInt(n - 2);
                final int b = 1 + random.nextInt(n - a - 1);
                partition = new Partition(startNs, durationNs, new int[]{a, b, n - a - b}, false, false);
            }
            case 2 ->
            {
                final int a = 1 + random.nextInt(n - 1);
                partition = new Partition(startNs, durationNs, new int[]{a, n - a}, true, false);
            }
            case 3 -> partition = Partition.isolate(1 + random.nextInt(Math.min(3, n - 1)), n, startNs, durationNs);
            default ->
            {
                final int host = 1 + random.nextInt(Math.min(2, n / 3));
                partition = new Partition(startNs, durationNs, new int[]{host, n - host}, false, true);
            }
        }
        return config(n, seed).partition(partition);
    }
}
