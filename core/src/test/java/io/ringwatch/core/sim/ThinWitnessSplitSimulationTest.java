package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A split that leaves a node's witnesses all on its own side (issue 31, the 30-minute nemesis's run 6, mono 57211.9):
 * 8 nodes, ranks 0 and 4 dead, the others split into {1, 5, 7} and {2, 3, 6}. Rank 2's witnesses are the ranks 1, 2
 * and 4 away on either side; without the dead ones and its silent emitter (rank 1) they were ranks 3 and 6, both on
 * its side. Both answered, so it took the split for its emitter's crash and declared rank 1, while rank 1's side,
 * which holds half of M with its lowest rank, declared rank 2's side.
 */
class ThinWitnessSplitSimulationTest
{
    private static final long MS = 1_000_000L;
    private static final long DELTA_NS = 250 * MS;
    private static final int[] SIDE_A = {1, 5, 7};
    private static final int[] SIDE_B = {2, 3, 6};

    private static SimConfig split(final long seed, final long splitAtNs, final int brokenRules)
    {
        final SimConfig config = new SimConfig()
            .brokenRules(brokenRules)
            .nodes(8)
            .heartbeatPeriodNs(25 * MS)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(MS)
            .inject(Injection.crash(0, 1_000 * MS))
            .inject(Injection.crash(4, 1_500 * MS))
            .seed(seed);
        Injection.cutsBetween(SIDE_A, SIDE_B, splitAtNs, 4_000 * MS).forEach(config::inject);
        return config;
    }

    @Test
    void shouldNeverHaveTwoSidesDeclaringEachOtherWhenAWitnessSampleLiesOnOneSide()
    {
        for (long seed = 1; seed <= 8; seed++)
        {
            for (long atMs = 8_000; atMs <= 8_200; atMs += 25)
            {
                final SimResult result = Simulation.run(split(seed, atMs * MS, 0));
                assertTrue(result.violations().isEmpty(),
                    "seed=" + seed + ", split at " + atMs + " ms: " + result.violations());
            }
        }
    }

    @Test
    void shouldSplitWhenTheDeadThinTheWitnesses()
    {
        // negative control: the witnesses exactly 2^i away, as in run 6
        int split = 0;
        for (long seed = 1; seed <= 8; seed++)
        {
            for (long atMs = 8_000; atMs <= 8_200; atMs += 25)
            {
                final SimResult result = Simulation.run(split(seed, atMs * MS, BrokenRules.BREAK_THIN_WITNESSES));
                split += result.violations().stream().anyMatch(v -> v.contains("split brain")) ? 1 : 0;
            }
        }
        System.out.println("thin-witnesses split " + split + " of 72 runs");
        assertTrue(split >= 8, "split in only " + split + " of 72 runs");
    }
}
