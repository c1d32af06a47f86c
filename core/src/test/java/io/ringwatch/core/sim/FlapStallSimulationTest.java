package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Short cuts that flap, with the nodes on the cut's edges stalled, as on a loaded host whose link goes down and up:
 * every running node must end with the same view (the completeness, accuracy, ring and no-split-brain checkers).
 * Before deaths were retold on a heal, the fixed case below left 3 of 200 runs with a stopped node that part of the
 * cluster still held alive and a hole in the ring (17 violations), as once seen live.
 */
class FlapStallSimulationTest
{
    private static final long ETA_NS = 25_000_000L;
    private static final long DELTA_NS = 250_000_000L;

    private static SimConfig shortCuts(final int nodes, final int minority, final long cutNs, final int flaps,
        final long upNs, final long stallNs, final boolean randomPlacement, final long seed)
    {
        final SimConfig config = new SimConfig()
            .nodes(nodes)
            .heartbeatPeriodNs(ETA_NS)
            .suspicionTimeoutNs(DELTA_NS)
            .maxDelayNs(2_000_000L)
            .seed(seed);
        config.partition(new Partition(1_000_000_000L, cutNs, new int[]{nodes - minority, minority},
            randomPlacement, false)).flap(flaps, upNs).stallsNearCut(stallNs);
        return config;
    }

    @Test
    void shouldAgreeOnEveryViewAfterAShortCutFlappingWithStallsOnItsEdges()
    {
        // simulate --nodes 8 --heartbeat-period 25ms --suspicion-timeout 250ms --tau 2ms --partition 5:3
        //   --partition-at 1s --partition-for 153ms --flap 4 --flap-up 60ms --stall-near-cut 400ms --seed 11
        for (int i = 0; i < 200; i++)
        {
            final long seed = Seeds.forRun(11, i);
            final SimResult result =
                Simulation.run(shortCuts(8, 3, 153_000_000L, 4, 60_000_000L, 400_000_000L, false, seed));
            assertTrue(result.violations().isEmpty(), "run seed " + seed + ": " + result.violations());
            assertEquals(0, result.splitBrainPairs(), "run seed " + seed);
        }
    }

    @Test
    void shouldTellADeathWhoseNoticeAndRingMendFlappingCutsSwallowed()
    {
        // batch seed 3, run 20 of the swarm below: 6 stalled past δ and stopped on 7's notice, which, like 7's
        // NEW_OBSERVER to 5, fell into the cuts; 5 kept beating the stopped 6 and 49 survivors never learned of it.
        // 7 now asks 5 again when 5 answers its probe but does not beat, and 5's view digests then reach 7.
        final SimConfig config = swallowedMend();
        final SimResult result = Simulation.run(config);
        assertTrue(result.violations().isEmpty(), "run seed " + config.seed() + ": " + result.violations());
    }

    @Test
    void shouldLeaveADeathUntoldWithoutAskingASilentEmitterAgain()
    {
        // negative control: the same run without that request ends with a hole in the ring and survivors unaware
        final SimConfig config = swallowedMend().brokenRules(BrokenRules.BREAK_OBSERVER_REQUEST);
        final SimResult result = Simulation.run(config);
        assertTrue(result.violations().stream().anyMatch(v -> v.contains("never learned that 6 stopped")),
            "run seed " + config.seed() + ": " + result.violations());
    }

    @Test
    void shouldKeepTheMajorityWhenALinkComesUpForLessThanAHeartbeatBetweenCuts()
    {
        // batch seed 12, run 5 of the short-up swarm below: 12, cut off with 5 others, counted a majority from answers
        // heard while the link was up for 19 ms, then declared 10 and 11 (majority side) on a silence that was the
        // next cut; the recheck asks again and counts only fresh answers
        final SimConfig config = upForLessThanAHeartbeat();
        final SimResult result = Simulation.run(config);
        assertTrue(result.violations().isEmpty(), "run seed " + config.seed() + ": " + result.violations());
    }

    @Test
    void shouldLoseMajorityNodesOnStaleEvidenceWithoutTheRecheck()
    {
        // negative control: the same run declaring on evidence of any age
        final SimConfig config = upForLessThanAHeartbeat().brokenRules(BrokenRules.BREAK_FRESH_EVIDENCE);
        final SimResult result = Simulation.run(config);
        assertTrue(result.violations().stream().anyMatch(v -> v.contains("majority lost")),
            "run seed " + config.seed() + ": " + result.violations());
    }

    @Test
    void shouldPassASeededSwarmOfFlappingCutsWithStalls()
    {
        // up for at least two heartbeat periods
        swarm(Long.getLong("ringwatch.swarm.seed", 1), 2 * ETA_NS);
    }

    @Test
    void shouldPassASeededSwarmOfFlappingCutsUpForLessThanAHeartbeat()
    {
        // up from 10 ms: the link comes back for less than η, so a ring link may never see it up (batch seed 16 once
        // stopped the whole cluster through one node's minority notice, batch seed 12 lost two majority nodes)
        swarm(Long.getLong("ringwatch.swarm.seed", 12), 10_000_000L);
    }

    private static SimConfig swallowedMend()
    {
        return shortCuts(63, 12, 75_376_947L, 5, 162_751_314L, 448_671_076L, false, 7197595761156619830L);
    }

    private static SimConfig upForLessThanAHeartbeat()
    {
        return shortCuts(17, 6, 257_099_181L, 3, 19_346_237L, 0, true, 5047288996037705135L);
    }

    private static void swarm(final long batchSeed, final long minUpNs)
    {
        final SplittableRandom shapes = new SplittableRandom(batchSeed);
        int runs = 0;
        while (runs < 150)
        {
            final int nodes = 4 + shapes.nextInt(61);
            final int minority = 1 + shapes.nextInt((nodes - 1) / 2);
            final long cutNs = 10_000_000L + shapes.nextLong(DELTA_NS);
            final int flaps = 1 + shapes.nextInt(5);
            final long upNs = minUpNs + shapes.nextLong(DELTA_NS / 2);
            final long stallNs = shapes.nextBoolean() ? 0 : 10_000_000L + shapes.nextLong(2 * DELTA_NS);
            final boolean randomPlacement = shapes.nextInt(4) == 0;
            final SimConfig config =
                shortCuts(nodes, minority, cutNs, flaps, upNs, stallNs, randomPlacement, shapes.nextLong());
            final SimResult result = Simulation.run(config);
            final String shape = "batch seed " + batchSeed + " (rerun with -Dringwatch.swarm.seed=" + batchSeed +
                "), run " + runs + ", run seed " + config.seed() + ", nodes " + nodes + ", cut " + (nodes - minority) +
                ":" + minority + (randomPlacement ? " scattered" : "") + " for " + cutNs + "ns x" + flaps + " up " +
                upNs + "ns, stalls " + stallNs + "ns";
            assertTrue(result.violations().isEmpty(), shape + ": " + result.violations());
            assertEquals(0, result.splitBrainPairs(), shape);
            runs++;
        }
        System.out.println("flap swarm: " + runs + " runs, batch seed " + batchSeed + ", up from " + minUpNs + "ns");
        assertEquals(150, runs, "batch seed " + batchSeed + ": every run of the swarm ran");
    }
}
