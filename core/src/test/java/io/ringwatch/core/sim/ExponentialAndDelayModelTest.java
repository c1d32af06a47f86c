package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExponentialAndDelayModelTest
{
    private static final long MS = 1_000_000L;

    @Test
    void shouldStabilizeWhenTheNextPoissonArrivalIsFarInTheFuture()
    {
        final long seed = 5;
        // μ_ind of a year on 256 nodes: the second crash would come after ~1.4 days; the run must not wait for it
        final SimResult result = Simulation.run(new SimConfig()
            .nodes(256)
            .heartbeatPeriodNs(100 * MS)
            .suspicionTimeoutNs(1_000 * MS)
            .maxDelayNs(MS)
            .onePort(true)
            .placement(FailurePlacement.EXPONENTIAL)
            .mtbfNs(365L * 24 * 3600 * 1_000 * MS)
            .failures(64)
            .seed(seed));

        assertTrue(result.passed(), "seed=" + seed + " " + result.violations());
        assertEquals(1, result.crashes(), "seed=" + seed);
        assertTrue(result.stabilizationNs() > 0 && result.endTimeNs() < 10_000 * MS, "seed=" + seed + " " + result);
    }

    @Test
    void shouldKeepUniformDelaysWithinTau()
    {
        final DelayModel uniform = DelayModel.uniform(MS);
        final SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++)
        {
            final long d = uniform.delayNs(random);
            assertTrue(d >= 1 && d <= MS, "delay " + d);
        }
    }

    @Test
    void shouldPutTheRequestedShareOfHeavyTailDelaysAboveTauAndBelowTheCap()
    {
        final long seed = 2;
        final DelayModel tail = DelayModel.heavyTail(MS, 0.1, 1.0, 1_000 * MS);
        final SplittableRandom random = new SplittableRandom(seed);
        int above = 0;
        final int samples = 100_000;
        for (int i = 0; i < samples; i++)
        {
            final long d = tail.delayNs(random);
            assertTrue(d >= 1 && d <= 1_000 * MS, "seed=" + seed + " delay " + d);
            if (d > MS)
            {
                above++;
            }
        }
        assertEquals(0.1, (double)above / samples, 0.01, "seed=" + seed);
    }
}
