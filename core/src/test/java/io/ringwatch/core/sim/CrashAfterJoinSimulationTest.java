package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A second crash right after a join (issue 29): a 3-node cluster as the operator runs it (δ = 250 ms, η = 25 ms, a 3 s
 * grace), rank 1 crashed and restarted long enough later that the others' M settled without it, then rank 0 crashed
 * soon after rank 1 was admitted. The two survivors must carry on. Before joins counted towards M 2δ after their
 * JOIN, rank 2 (M = {0, 2}) took rank 1's notice of 0's death for a minority's (a tie without the lowest rank),
 * stopped, and left rank 1 alone, which stopped too: live in 2 of 8 runs at 0.75 s.
 */
class CrashAfterJoinSimulationTest
{
    private static final long MS = OperatorRun.MS;
    private static final long DELTA_NS = OperatorRun.DELTA_NS;

    private static SimConfig crashAfterJoin(final long seed, final long afterAskNs, final int brokenRules)
    {
        return OperatorRun.withRejoin(3, 1, seed, brokenRules)
            .inject(Injection.crash(0, OperatorRun.ASKS_NS + afterAskNs));
    }

    @Test
    void shouldKeepBothSurvivorsWhenTheLowestRankDiesThreeQuartersOfASecondAfterAJoin()
    {
        for (long seed = 1; seed <= 8; seed++)
        {
            final SimResult result = Simulation.run(crashAfterJoin(seed, 750 * MS, 0));
            assertTrue(result.violations().isEmpty(), "seed=" + seed + " " + result.violations());
            assertTrue(result.exclusions() == 0, "seed=" + seed + ": a survivor stopped: " + result);
        }
    }

    @Test
    void shouldStopTheSurvivorsWhenJoinsCountOnlyAfterTheSettlePeriod()
    {
        // negative control: the old rule, the live failure
        for (long seed = 1; seed <= 8; seed++)
        {
            final SimResult result = Simulation.run(
                crashAfterJoin(seed, 750 * MS, BrokenRules.BREAK_JOIN_SETTLE));
            assertTrue(result.exclusions() == 2, "seed=" + seed + ": " + result);
        }
    }

    @Test
    void shouldKeepBothSurvivorsWheneverTheLowestRankDiesMoreThanADeltaAfterAJoin()
    {
        // Within about δ of the join the survivors stop, as the rule has it: rank 0 may not have the JOIN yet, and cut
        // off it would win the tie of M = {0, 2} with its lowest rank. From then on, up to past the settle period:
        final long batchSeed = Long.getLong("ringwatch.swarm.seed", 1);
        final SplittableRandom seeds = new SplittableRandom(batchSeed);
        for (int i = 0; i < 60; i++)
        {
            final long seed = seeds.nextLong();
            final long afterAskNs = 5 * DELTA_NS / 4 + seeds.nextLong(1_750 * MS);
            final SimResult result = Simulation.run(crashAfterJoin(seed, afterAskNs, 0));
            final String shape = "batch seed " + batchSeed + " (rerun with -Dringwatch.swarm.seed=" + batchSeed +
                "), run seed " + seed + ", rank 0 crashed " + afterAskNs / MS + " ms after rank 1 asked: ";
            assertTrue(result.violations().isEmpty(), shape + result.violations());
            assertTrue(result.exclusions() == 0, shape + "a survivor stopped: " + result);
        }
    }
}
