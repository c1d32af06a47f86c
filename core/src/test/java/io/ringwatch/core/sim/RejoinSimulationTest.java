package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.NodeState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RejoinSimulationTest
{

    private static SimConfig base(final long seed)
    {
        return new SimConfig()
            .nodes(64)
            .heartbeatPeriodNs(10_000_000L)
            .suspicionTimeoutNs(100_000_000L)
            .maxDelayNs(1_000_000L)
            .restartAfterNs(200_000_000L)
            .seed(seed);
    }

    @Test
    void shouldAdmitRestartedNodesAfterRandomCrashes()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final SimConfig config = base(seed).placement(FailurePlacement.RANDOM).failures(4);
            final Simulation simulation = new Simulation(config);
            final SimResult result = simulation.run();
            assertTrue(result.violations().isEmpty(), "seed=" + seed + " " + result.violations());
            assertEquals(4, result.restarts(), "seed=" + seed);
            assertEquals(4, result.rejoined(), "seed=" + seed);
        }
    }

    @Test
    void shouldAdmitOneRestartedNode()
    {
        final SimConfig config = base(1).nodes(8).inject(Injection.crash(3, 200_000_000L));
        final Simulation simulation = new Simulation(config);
        final SimResult result = simulation.run();
        for (int r = 0; r < 8; r++)
        {
            System.out.println(r + " state=" + simulation.node(r).state() + " D=" + simulation.node(r).deadSet() +
                " inc=" + simulation.node(r).incarnations() + " e=" + simulation.node(r).emitter() + " o=" +
                simulation.node(r).observer() + " stale=" + simulation.node(r).staleFrames() + " joinsLearned=" +
                simulation.node(r).joinsLearned() + " req=" + simulation.node(r).joinRequestsSent() +
                "");
        }
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        assertEquals(1, result.rejoined());
    }
}
