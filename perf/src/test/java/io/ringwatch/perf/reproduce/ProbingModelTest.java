package io.ringwatch.perf.reproduce;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProbingModelTest
{
    @Test
    void shouldGiveThePapersClosedFormsAtOneHundredThousandNodes()
    {
        assertEquals(0.367881, ProbingModel.notPingedProbability(100_000), 1e-6);
        assertEquals(20.7, ProbingModel.roundsForNode(100_000, 1e-9), 0.05);
        assertEquals(4.7, ProbingModel.loadOrder(100_000), 0.05);
    }

    @Test
    void shouldCoverEveryNodeInAboutTheClosedFormNumberOfRounds()
    {
        final long seed = 3;
        final int n = 2_000;
        final ProbingModel.Simulator simulator = new ProbingModel.Simulator(n);
        final SplittableRandom random = new SplittableRandom(seed);
        double rounds = 0;
        final int runs = 200;
        for (int r = 0; r < runs; r++)
        {
            final ProbingModel.Run run = simulator.run(random.split());
            assertTrue(run.firstRoundMaxLoad() >= 2 && run.maxLoadMax() >= run.firstRoundMaxLoad(), "seed=" + seed);
            rounds += run.rounds() / (double)runs;
        }
        assertEquals(ProbingModel.expectedRoundsToCoverAll(n), rounds, 0.4, "seed=" + seed);
    }

    @Test
    void shouldNeverLetANodePingItself()
    {
        // with two nodes each round is forced: both ping the other, so one round covers both with load 1
        final ProbingModel.Run run = new ProbingModel.Simulator(2).run(new SplittableRandom(1));
        assertEquals(1, run.rounds());
        assertEquals(1, run.maxLoadMax());
    }
}
