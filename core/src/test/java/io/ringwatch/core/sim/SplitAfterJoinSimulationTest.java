package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An even split right after a join (issue 31, the 30-minute nemesis's run 5): 8 nodes as the operator runs them
 * ({@link OperatorRun}), rank 5 crashed and restarted long enough later that the members' M settled without it, then
 * the ring split into ranks 1–4 and ranks 5, 6, 7, 0 before the view had been quiet for a join's time. Rank 5 watches
 * rank 4 across the cut, and rank 0, the lowest, is on its side. The members count M = 7 without the joiner, so its
 * side holds 3 of 7 and must stop, while ranks 1–4 hold 4 of 7 and declare it. When the joiner counted itself in its
 * own M at once, it held 4 of 8 with the lowest rank, won the tie and declared ranks 1–4: two sides, each declaring
 * the other (caught by the simulator's split brain at a moment, which the live nemesis judges too).
 */
class SplitAfterJoinSimulationTest
{
    private static final long MS = OperatorRun.MS;
    private static final int JOINER = 5;
    private static final long SPLIT_NS = 4_000 * MS;

    private static SimConfig splitAfterJoin(final long seed, final long afterAskNs, final int brokenRules)
    {
        final SimConfig config = OperatorRun.withRejoin(8, JOINER, seed, brokenRules);
        Injection.cutsBetween(new int[]{1, 2, 3, 4}, new int[]{5, 6, 7, 0}, OperatorRun.ASKS_NS + afterAskNs, SPLIT_NS)
            .forEach(config::inject);
        return config;
    }

    @Test
    void shouldNeverHaveTwoSidesDeclaringEachOtherWhenTheRingSplitsWithinAJoinsTime()
    {
        // from before the JOIN reached every member (0 ms) to past the 2δ after which the members count the joiner
        for (long seed = 1; seed <= 8; seed++)
        {
            for (long afterAskMs = 0; afterAskMs <= 700; afterAskMs += 100)
            {
                final SimResult result = Simulation.run(splitAfterJoin(seed, afterAskMs * MS, 0));
                // open, not this rule's: when both sides stop (each member grew M on its own clock) and the cluster
                // re-forms, a JOIN can miss a rank admitted a moment before and reach it by view repair ~1 s later
                // (seed 8 at 100 ms; docs/status.md)
                final List<String> violations = result.violations().stream()
                    .filter(v -> !v.contains("to reach every node, above the broadcast bound")).toList();
                assertTrue(violations.isEmpty(),
                    "seed=" + seed + ", split " + afterAskMs + " ms after the join: " + violations);
            }
        }
    }

    @Test
    void shouldSplitWhenTheJoinerCountsItselfAtOnce()
    {
        // negative control: the rule of run 5, found in every seed while the split comes within 2δ of the JOIN
        int split = 0;
        final StringBuilder runs = new StringBuilder();
        for (long seed = 1; seed <= 8; seed++)
        {
            for (long afterAskMs = 0; afterAskMs <= 300; afterAskMs += 100)
            {
                final SimResult result = Simulation.run(
                    splitAfterJoin(seed, afterAskMs * MS, BrokenRules.BREAK_JOINER_COUNTS_ITSELF));
                if (result.violations().stream().anyMatch(v -> v.contains("split brain")))
                {
                    split++;
                    runs.append(" seed ").append(seed).append(" at ").append(afterAskMs).append(" ms;");
                }
            }
        }
        System.out.println("joiner-counts-itself split " + split + " of 32 runs:" + runs);
        assertTrue(split >= 8, "split in only " + split + " of 32 runs:" + runs);
    }
}
