package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deaths and JOINs broadcast while a cut lasts reach the far side once it heals: a node crashing during a cut and
 * restarting before the far side noticed must end admitted at its new incarnation everywhere. Without the heal
 * retell (before it) the bar case below failed 199 of 200 runs: the far side held the old life alive for good.
 */
class HealRepairSimulationTest
{
    private static final long ETA_NS = 100_000_000L;
    private static final long DELTA_NS = 1_000_000_000L;

    private static SimConfig joinCutOff(final long seed)
    {
        final SimConfig config = new SimConfig()
            .nodes(64)
            .failures(3)
            .placement(FailurePlacement.RANDOM)
            .heartbeatPeriodNs(ETA_NS)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(1_000_000L)
            .seed(seed);
        config.restartAfterNs(500_000_000L);
        config.partition(new Partition(DELTA_NS + ETA_NS, 2 * DELTA_NS, new int[]{40, 24}, false, false));
        return config;
    }

    @Test
    void shouldAdmitARankThatRestartedDuringACutOnBothSidesOnceItHeals()
    {
        // the bar: simulate --nodes 64 --failures 3 --partition 40:24 --partition-for 2s --restart-after 500ms --seed 3
        for (int i = 0; i < 40; i++)
        {
            final long seed = Seeds.forRun(3, i);
            final SimResult result = Simulation.run(joinCutOff(seed));
            assertTrue(result.violations().isEmpty(), "run seed " + seed + ": " + result.violations());
            assertEquals(result.restarts(), result.rejoined(), "run seed " + seed);
        }
    }

    @Test
    void shouldNotStormWhenAZombieBackFromACutProbesEveryone()
    {
        // batch seed 20, run 12 of the swarm below: rank 36, cut off alone for 1.5 s, is still probing when the cut
        // heals; its probes reach all 80 others, which hold it dead
        final SimResult result = Simulation.run(zombieProbesEveryone());
        assertTrue(result.violations().isEmpty(), result.violations().toString());
    }

    @Test
    void shouldStormWhenEveryFrameOfAZombieAnnouncesItsDeathAgain()
    {
        // negative control: every node that hears its probes announces its death, 80 broadcasts of one death at once
        // overrun the 64 remembered broadcast ids, and forgotten broadcasts are forwarded again without end
        final SimResult result = Simulation.run(
            zombieProbesEveryone().brokenRules(BrokenRules.BREAK_QUIET_ZOMBIE_FRAMES));
        assertTrue(result.violations().stream().anyMatch((v) -> v.contains("flood")), result.violations().toString());
    }

    @Test
    void shouldCountTheFarSideAgainWhenACutHealsBeforeTheSilenceIsConfirmed()
    {
        // δ 100 ms, 74 nodes scattered 51:23, cut for 189 ms: nodes whose emitter was across the cut asked everyone
        // while it lasted; when it healed, one that did not ask the unanswered again could count no majority, stopped
        // as MINORITY, and its minority notice took the whole cluster down
        final SimResult result = Simulation.run(farSideAskedDuringTheCut());
        assertTrue(result.violations().isEmpty(), result.violations().toString());
    }

    @Test
    void shouldStopTheWholeClusterWithoutCountingTheFarSideAgain()
    {
        // negative control
        final SimResult result = Simulation.run(
            farSideAskedDuringTheCut().brokenRules(BrokenRules.BREAK_COUNT_AGAIN));
        assertTrue(result.exclusions() > 60, "exclusions " + result.exclusions() + ": " + result.violations());
        // the whole cluster stops and (rank 0 polling every restarted rank) re-forms, so it ends whole: the majority
        // checker, which judges each exclusion when it happens, is what shows the broken rule
        assertTrue(result.violations().stream().anyMatch((v) -> v.contains(": majority: ")), result.violations().toString());
    }

    private static SimConfig farSideAskedDuringTheCut()
    {
        return cutAfterCrashes(10_000_000L, 100_000_000L, new int[]{51, 23}, true, 188_971_233L, 2,
            -7435162317778352466L, 938_393_084L).eventBudget(20_000_000L);
    }

    private static SimConfig zombieProbesEveryone()
    {
        return cutAfterCrashes(ETA_NS, DELTA_NS, new int[]{80, 1}, false, 1_504_129_651L, 3, -2186797656568674479L,
            867_664_040L).eventBudget(5_000_000L);
    }

    /**
     * The heal swarm's shape: random crashes restarted after a while, and a cut starting at δ + η.
     */
    static SimConfig cutAfterCrashes(final long etaNs, final long deltaNs, final int[] groups,
        final boolean scattered, final long cutNs, final int failures, final long seed, final long restartAfterNs)
    {
        final SimConfig config = new SimConfig()
            .nodes(Arrays.stream(groups).sum())
            .heartbeatPeriodNs(etaNs)
            .suspicionTimeoutNs(deltaNs)
            .maxDelayNs(1_000_000L)
            .placement(FailurePlacement.RANDOM)
            .failures(failures)
            .seed(seed);
        config.restartAfterNs(restartAfterNs);
        config.partition(new Partition(deltaNs + etaNs, cutNs, groups, scattered, false));
        return config;
    }

    @Test
    void shouldPassASeededSwarmOfCutsHealedAfterCrashesAndRestarts()
    {
        // a fixed batch by default: batch seed 1 finds the case left open (docs/partitions.md), see its run 31
        final long batchSeed = Long.getLong("ringwatch.swarm.seed", 2);
        cutSwarm("heal swarm", batchSeed, ETA_NS, DELTA_NS, DELTA_NS, DELTA_NS, DELTA_NS, false,
            (shape, result) -> assertEquals(result.restarts(), result.rejoined(), shape));
    }

    /**
     * Up to 40 runs (20 s at most) of random crashes, restarts and one cut of two groups starting at δ + η; every run
     * must pass the checkers, and {@code extra} checks each result further.
     *
     * @return clusters re-formed over the runs.
     */
    static long cutSwarm(final String name, final long batchSeed, final long etaNs, final long deltaNs,
        final long minCutNs, final long cutSpanNs, final long restartSpanNs, final boolean scattered,
        final BiConsumer<String, SimResult> extra)
    {
        final SplittableRandom shapes = new SplittableRandom(batchSeed);
        int runs = 0;
        long reforms = 0;
        while (runs < 40)
        {
            final int nodes = 16 + shapes.nextInt(81);
            final int minority = 1 + shapes.nextInt((nodes - 1) / 2);
            final long cutNs = minCutNs + shapes.nextLong(cutSpanNs);
            // drawn in this order, so every batch seed keeps its runs
            final int failures = 1 + shapes.nextInt(3);
            final long runSeed = shapes.nextLong();
            final long restartAfterNs = 100_000_000L + shapes.nextLong(restartSpanNs);
            final SimConfig config = cutAfterCrashes(etaNs, deltaNs, new int[]{nodes - minority, minority}, scattered,
                cutNs, failures, runSeed, restartAfterNs).eventBudget(20_000_000L);
            final SimResult result = Simulation.run(config);
            final String shape = "batch seed " + batchSeed + " (rerun with -Dringwatch.swarm.seed=" + batchSeed +
                "), run " + runs + ", run seed " + config.seed() + ", nodes " + nodes + ", cut " + (nodes - minority) +
                ":" + minority + (scattered ? " scattered" : "") + " for " + cutNs + "ns, failures " +
                config.faults().failures() + ", restart after " + config.boot().restartAfterNs() + "ns";
            assertTrue(result.violations().isEmpty(), shape + ": " + result.violations());
            extra.accept(shape, result);
            reforms += result.reforms();
            runs++;
        }
        System.out.println(name + ": " + runs + " runs, " + reforms + " re-formed, batch seed " + batchSeed);
        assertEquals(40, runs, "batch seed " + batchSeed + ": every run of the swarm ran");
        return reforms;
    }

    /**
     * A stall is not a cut: pauses shorter than δ, of emitters and observers alike, lose nothing on the wire, and
     * under the heal rule they announce no heal (each would cost a broadcast per recent change); the same silences
     * as cuts of the network do announce heals, which shows the count can fail. Under the rule before (any silence
     * over δ/2 a heal) seed 1 announced 7 heals from the pauses alone.
     */
    @Test
    void shouldAnnounceHealsForShortCutsButNotForShortStalls()
    {
        for (long seed = 1; seed <= 5; seed++)
        {
            final SimConfig stalls = new SimConfig()
                .nodes(32)
                .failures(1)
                .heartbeatPeriodNs(ETA_NS)
                .suspicionTimeoutNs(DELTA_NS)
                .maxDelayNs(1_000_000L)
                .seed(seed)
                .randomPauses(8, DELTA_NS * 4 / 5);
            final SimResult stalled = Simulation.run(stalls);
            assertTrue(stalled.violations().isEmpty(), "seed " + seed + ": " + stalled.violations());
            assertEquals(0, stalled.healsAnnounced(), "seed " + seed + ": pauses of 0.8δ announced heals");

            final SimConfig cuts = new SimConfig()
                .nodes(32)
                .failures(1)
                .heartbeatPeriodNs(ETA_NS)
                .suspicionTimeoutNs(DELTA_NS)
                .maxDelayNs(1_000_000L)
                .seed(seed);
            cuts.partition(new Partition(2 * DELTA_NS, DELTA_NS * 4 / 5, new int[]{20, 12}, false, false));
            final SimResult cut = Simulation.run(cuts);
            assertTrue(cut.violations().isEmpty(), "seed " + seed + ": " + cut.violations());
            assertTrue(cut.healsAnnounced() > 0, "seed " + seed + ": a cut of 0.8δ announced no heal");
        }
    }
}
