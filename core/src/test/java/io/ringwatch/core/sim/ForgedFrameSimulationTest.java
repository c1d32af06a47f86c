package io.ringwatch.core.sim;

import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The forged-frame rule in the simulator: an outsider without the key sends one node a FAILURE_NOTICE naming a live
 * rank (while a real crash is also being handled). With authentication the receiver's decoder refuses it and the
 * accuracy checker finds nothing; with authentication off (the negative control) the live rank is excluded and the
 * checker must say so.
 */
class ForgedFrameSimulationTest
{
    private static final long MS = 1_000_000L;
    private static final long DELTA_NS = 1000 * MS;
    private static final int VICTIM = 5;
    private static final int RECEIVER = 20;
    private static final int CRASHED = 12;

    private static SimConfig scenario(final long seed)
    {
        return new SimConfig()
            .nodes(32)
            .heartbeatPeriodNs(100 * MS)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(MS)
            .seed(seed)
            .inject(Injection.crash(CRASHED, 2 * DELTA_NS))
            .inject(Injection.forge(VICTIM, RECEIVER, 2 * DELTA_NS + 300 * MS));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldRefuseAForgedNoticeAndKeepTheNamedRankAlive(final long seed)
    {
        final Simulation sim = new Simulation(scenario(seed));
        final SimResult result = sim.run();

        assertTrue(result.passed(), () -> "seed=" + seed + " violations: " + result.violations());
        assertEquals(1, sim.forgedFrames(RejectReason.BAD_MAC), "seed=" + seed);
        assertEquals(0, sim.forgedFrames(RejectReason.NONE), "seed=" + seed);
        assertEquals(NodeState.ACTIVE, sim.node(VICTIM).state(), "seed=" + seed);
        for (int rank = 0; rank < 32; rank++)
        {
            if (rank != CRASHED)
            {
                assertTrue(sim.node(rank).isAlive(VICTIM), "seed=" + seed + ": node " + rank + " holds 5 dead");
                assertFalse(sim.node(rank).isAlive(CRASHED), "seed=" + seed + ": node " + rank + " missed the crash");
            }
        }
    }

    /**
     * Negative control: the same run without authentication believes the forgery, the named rank is declared dead
     * while it runs and is then fenced, and the accuracy checker reports it.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldReportTheExclusionOfALiveRankWhenAuthenticationIsOff(final long seed)
    {
        final Simulation sim = new Simulation(scenario(seed).authentication(false));
        final SimResult result = sim.run();

        assertEquals(1, sim.forgedFrames(RejectReason.NONE), "seed=" + seed);
        assertTrue(result.violations().stream()
                .anyMatch((v) -> v.contains("accuracy: node " + RECEIVER + " declared " + VICTIM + " dead")),
            () -> "seed=" + seed + ": " + result.violations());
        assertEquals(NodeState.EXCLUDED, sim.node(VICTIM).state(), "seed=" + seed);
        assertEquals(ExclusionCause.FENCED, sim.exclusionCause(VICTIM), "seed=" + seed);
    }

    @Test
    void shouldNameAnotherRankAsTheReceiverOfAForgery()
    {
        assertThrows(IllegalArgumentException.class, () -> Injection.forge(3, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> Simulation.run(
            scenario(1).inject(Injection.forge(VICTIM, 32, DELTA_NS))));
    }
}
