package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import org.junit.jupiter.api.Test;

import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The option groups of {@link SimConfig}: a copy carries every group and shares nothing mutable with its original,
 * each group fills its defaults from η and δ, and each rejects its own bad values naming them.
 */
class SimConfigOptionsTest
{
    private static final long MS = 1_000_000L;

    private static SimConfig everyGroupSet()
    {
        return new SimConfig()
            .nodes(32)
            .seed(5)
            .heartbeatPeriodNs(10 * MS)
            .suspicionTimeoutNs(100 * MS)
            .probeTimeoutNs(20 * MS)
            .brokenRules(BrokenRules.BREAK_COUNT_AGAIN)
            .partitionPolicy(PartitionPolicy.NONE)
            .broadcast(BroadcastKind.BINOMIAL_GRAPH)
            .maxDelayNs(MS / 2)
            .onePort(true)
            .lossProbability(0.01)
            .partition(new Partition(500 * MS, 300 * MS, new int[]{20, 12}, false, false))
            .flap(3, 200 * MS)
            .placement(FailurePlacement.RANDOM)
            .failures(3)
            .crashWindowNs(40 * MS)
            .randomPauses(2, 250 * MS)
            .inject(Injection.crash(7, 900 * MS))
            .processes(2, 4)
            .restartAfterNs(300 * MS)
            .quietMarginNs(400 * MS)
            .eventBudget(1_000_000);
    }

    @Test
    void shouldCopyEveryGroupSoTheCopyConcludesAlike()
    {
        final SimConfig original = everyGroupSet();
        final SimConfig copy = original.copy();
        original.conclude();
        copy.conclude();

        assertEquals(original.toString(), copy.toString());
        assertEquals(20 * MS, copy.protocol().probeTimeoutNs());
        assertEquals(BrokenRules.BREAK_COUNT_AGAIN, copy.protocol().brokenRules());
        assertEquals(PartitionPolicy.NONE, copy.protocol().partitionPolicy());
        assertEquals(BroadcastKind.BINOMIAL_GRAPH, copy.protocol().broadcast());
        assertEquals(original.network().partitions(), copy.network().partitions());
        assertEquals(3, copy.network().flaps());
        assertEquals(200 * MS, copy.network().flapUpNs());
        assertEquals(2, copy.faults().randomPauses());
        assertEquals(250 * MS, copy.faults().randomPauseNs());
        assertEquals(original.faults().injections(), copy.faults().injections());
        assertEquals(2, copy.processes().perNode());
        assertEquals(4, copy.processes().failures());
        assertEquals(300 * MS, copy.boot().restartAfterNs());
        assertEquals(400 * MS, copy.limits().quietMarginNs());
        assertEquals(1_000_000, copy.limits().eventBudget());
        assertEquals(original.limits().timeCapNs(), copy.limits().timeCapNs());
        assertNotSame(original.protocol(), copy.protocol());
    }

    @Test
    void shouldShareNoListWithTheOriginal()
    {
        final SimConfig original = everyGroupSet();
        final SimConfig copy = original.copy()
            .inject(Injection.pause(3, 700 * MS, 200 * MS))
            .partition(new Partition(2_000 * MS, 100 * MS, new int[]{16, 16}, false, false));

        assertEquals(1, original.faults().injections().size());
        assertEquals(1, original.network().partitions().size());
        assertEquals(2, copy.faults().injections().size());
        assertEquals(2, copy.network().partitions().size());
    }

    @Test
    void shouldFillTheDefaultsFromEtaAndDelta()
    {
        final SimConfig config = new SimConfig().heartbeatPeriodNs(10 * MS).suspicionTimeoutNs(100 * MS).conclude();

        assertEquals(50 * MS, config.protocol().pauseThresholdNs(), "delta/2");
        assertEquals(100 * MS, config.protocol().fenceIntervalNs(), "delta");
        assertEquals(50 * MS, config.faults().crashWindowNs(), "delta/2");
        assertEquals(110 * MS, config.faults().firstFailureNs(), "delta + eta");
        assertEquals(200 * MS, config.faults().randomPauseNs(), "2 delta");
        assertEquals(200 * MS, config.limits().quietMarginNs(), "2 delta");
        assertTrue(config.limits().timeCapNs() > config.faults().firstFailureNs());
        assertTrue(config.boot().seeds() >= 1);
        assertFalse(config.network().customDelays());
    }

    @Test
    void shouldRejectEachGroupsBadValueNamingIt()
    {
        assertRejected("suspicion timeout (delta) 10ns must exceed eta 100000000ns",
            () -> new SimConfig().suspicionTimeoutNs(10));
        assertRejected("loss must be in [0, 1): 1.0", () -> new SimConfig().lossProbability(1.0));
        assertRejected("failures must be in [0, nodes): 64", () -> new SimConfig().failures(64));
        assertRejected("process failures must be in [0, processes of the job]: 3", () -> new SimConfig().processes(0, 3));
        assertRejected("seeds must be in [1, 64]: 65", () -> new SimConfig().seeds(65));
        assertRejected("time cap 5ns must be after the first failure", () -> new SimConfig().timeCapNs(5));
        assertRejected("partition groups 30:30 must add up to 64 nodes",
            () -> new SimConfig().partition(new Partition(0, MS, new int[]{30, 30}, false, false)));
    }

    @Test
    void shouldRefuseChangesOnceConcluded()
    {
        final SimConfig config = new SimConfig().conclude();

        assertThrows(IllegalStateException.class, () -> config.lossProbability(0.1));
        assertThrows(IllegalStateException.class, () -> config.failures(1));
        assertThrows(IllegalStateException.class, () -> config.inject(Injection.crash(1, MS)));
        config.copy().lossProbability(0.1).conclude();
    }

    private static void assertRejected(final String message, final Supplier<SimConfig> config)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> config.get().conclude()).getMessage());
    }
}
