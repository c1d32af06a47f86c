package io.ringwatch.core.sim;

import io.ringwatch.core.protocol.Theorem1;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChecksTest
{
    private static final long SEED = 1234;

    /** A hand-made cluster: ranks in {@code stopped} are gone; every live node starts out correct. */
    private static final class State implements ClusterState
    {
        final boolean[] stopped;
        final RankArray[] views;
        final int[] emitters;
        final int[] observers;

        State(final int n, final int... stoppedRanks)
        {
            stopped = new boolean[n];
            views = new RankArray[n];
            emitters = new int[n];
            observers = new int[n];
            for (final int r : stoppedRanks)
            {
                stopped[r] = true;
            }
            for (int rank = 0; rank < n; rank++)
            {
                views[rank] = new RankArray(4);
                for (final int r : stoppedRanks)
                {
                    views[rank].add(r);
                }
                emitters[rank] = Checks.livePredecessor(this, rank);
                observers[rank] = Checks.liveSuccessor(this, rank);
            }
        }

        public int clusterSize()
        {
            return stopped.length;
        }

        public boolean isStopped(final int rank)
        {
            return stopped[rank];
        }

        public RankSet deadSet(final int rank)
        {
            return views[rank];
        }

        public int emitter(final int rank)
        {
            return emitters[rank];
        }

        public int observer(final int rank)
        {
            return observers[rank];
        }
    }

    private static List<String> violations(final State state)
    {
        final List<String> out = new ArrayList<>();
        ViewCheck.check(state, SEED, out);
        RingCheck.check(state, SEED, out);
        return out;
    }

    @Test
    void shouldAcceptStableConfiguration()
    {
        final State state = new State(8, 3, 4, 7);

        assertEquals(List.of(), violations(state));
        assertEquals(2, Checks.livePredecessor(state, 5));
        assertEquals(0, Checks.liveSuccessor(state, 6));
        assertEquals(6, Checks.livePredecessor(state, 0));
        for (final int rank : new int[] {0, 1, 2, 5, 6})
        {
            assertTrue(Checks.isNodeStable(state, rank, 3), "rank " + rank);
        }
    }

    @Test
    void shouldReportSurvivorThatMissedAFailure()
    {
        final State state = new State(8, 3);
        state.views[6] = new RankArray(4);

        final List<String> out = violations(state);

        assertEquals(1, out.size(), out::toString);
        assertTrue(out.get(0).contains("completeness") && out.get(0).contains("seed=" + SEED) &&
            out.get(0).contains("survivor 6"), out::toString);
        assertFalse(Checks.isNodeStable(state, 6, 1));
    }

    @Test
    void shouldReportSurvivorBelievingALiveNodeDead()
    {
        final State state = new State(8, 3);
        state.views[1].add(5);

        final List<String> out = violations(state);

        assertEquals(1, out.size(), out::toString);
        assertTrue(out.get(0).contains("accuracy") && out.get(0).contains("believing 5"), out::toString);
        assertFalse(Checks.isNodeStable(state, 1, 1));
    }

    @Test
    void shouldReportRingNotMendedAroundDeadNode()
    {
        final State state = new State(8, 3);
        state.emitters[4] = 3;

        final List<String> out = violations(state);

        assertEquals(1, out.size(), out::toString);
        assertTrue(out.get(0).contains("ring: node 4"), out::toString);
        assertFalse(Checks.isNodeStable(state, 4, 1));
    }

    @Test
    void shouldCapListedViolationsAndCountTheRest()
    {
        final State state = new State(64, 10);
        for (int rank = 0; rank < 64; rank++)
        {
            state.views[rank] = new RankArray(4);
        }

        final List<String> out = violations(state);

        assertEquals(Checks.MAX_REPORTED + 1, out.size(), out::toString);
        assertTrue(out.get(Checks.MAX_REPORTED).contains("53 more"), out::toString);
    }

    @Test
    void shouldReportStabilizationAboveBound()
    {
        final List<String> out = new ArrayList<>();

        assertTrue(LivenessCheck.checkBound(100, 100, 2, 64, SEED, out));
        assertTrue(out.isEmpty());
        assertFalse(LivenessCheck.checkBound(101, 100, 2, 64, SEED, out));
        assertEquals(1, out.size());
        assertTrue(out.get(0).contains("seed=" + SEED) && out.get(0).contains("101ns"), out::toString);
    }

    @Test
    void shouldComputeTheoremOneBound()
    {
        // f=2, n=1024, δ=1s, τ=1ms: 6δ + 2τ + 3·8τ·10 = 6 s + 2 ms + 240 ms
        assertEquals(6_242_000_000L, StabilizationBound.THEOREM_1.boundNs(2, 1024, 1_000_000_000L, 1_000_000L));
        assertTrue(Theorem1.applies(9, 1024));
        assertFalse(Theorem1.applies(10, 1024));
        assertFalse(Theorem1.applies(0, 1024));
    }

    @Test
    void shouldReportAMajorityNodeExcludedAndAMinorityNodeStillRunningAfterTheBound()
    {
        final boolean[] losing = {false, false, false, true, true};
        final long[] stoppedNs = {-1, 500, -1, 150, -1};
        final boolean[] excluded = {false, true, false, true, false};
        final List<String> out = new ArrayList<>();

        PartitionCheck.outcome(losing, stoppedNs, excluded, 100, 1_000, 200, SEED, out);

        assertEquals(2, out.size(), out::toString);
        assertTrue(out.get(0).contains("majority lost: node 1"), out::toString);
        assertTrue(out.get(1).contains("minority bound: node 4 of a side without a majority never stopped"),
            out::toString);
    }

    @Test
    void shouldNotAskTheMinorityToStopWhenTheCutEndedBeforeTheBound()
    {
        final List<String> out = new ArrayList<>();
        PartitionCheck.outcome(new boolean[]{false, true}, new long[]{-1, -1}, new boolean[]{false, false},
            100, 199, 200, SEED, out);
        assertTrue(out.isEmpty(), out::toString);
        assertEquals(4_000, PartitionCheck.minorityBoundNs(4, 1_000), "(log2 4 + 2) delta");
        assertEquals(18_000, PartitionCheck.minorityBoundNs(65_536, 1_000));
    }

    @Test
    void shouldReportAShortCutThatChangedAnything()
    {
        final List<String> out = new ArrayList<>();
        PartitionCheck.shortCut(0, 0, SEED, out);
        assertTrue(out.isEmpty());
        PartitionCheck.shortCut(1, 0, SEED, out);
        PartitionCheck.shortCut(0, 3, SEED, out);
        assertEquals(2, out.size(), out::toString);
    }

    @Test
    void shouldTellWhoMustStopAndWhoIsDeafFromThePartitionAlone()
    {
        final Partition split = new Partition(10, 100, new int[]{3, 2}, false, false);
        final int[] groups = {0, 0, 0, 1, 1};
        assertEquals("[false, false, false, true, true]",
            java.util.Arrays.toString(PartitionOutcome.losingNodes(split, groups)));

        final Partition tie = new Partition(10, 100, new int[]{2, 2}, false, false);
        assertEquals("[false, false, true, true]",
            java.util.Arrays.toString(PartitionOutcome.losingNodes(tie, new int[]{1, 1, 0, 0})), "rank 0 wins a tie");

        final Partition oneWay = new Partition(10, 100, new int[]{1, 4}, false, true);
        final int[] deafFirst = {1, 0, 1, 1, 1};
        assertEquals("[false, true, false, false, false]",
            java.util.Arrays.toString(PartitionOutcome.losingNodes(oneWay, deafFirst)));
        final boolean[] all = {true, true, true, true, true};
        assertTrue(PartitionOutcome.accusesWhileDeaf(oneWay, deafFirst, all, 1, 0, 50));
        assertFalse(PartitionOutcome.accusesWhileDeaf(oneWay, deafFirst, all, 0, 1, 50),
            "the others hear the deaf host");
        assertFalse(PartitionOutcome.accusesWhileDeaf(oneWay, deafFirst, all, 1, 0, 110), "healed");

        // a deaf half holding rank 0 wins the tie: it declares the half it cannot hear, which loses
        final Partition deafTie = new Partition(10, 100, new int[]{2, 2}, false, true);
        final int[] deafHalf = {0, 1, 0, 1};
        assertEquals("[false, true, false, true]",
            java.util.Arrays.toString(PartitionOutcome.losingNodes(deafTie, deafHalf)));
        assertFalse(PartitionOutcome.accusesWhileDeaf(deafTie, deafHalf, new boolean[]{true, true, true, true},
            2, 1, 50));
        // the same half without rank 0 loses the tie and must accuse nobody, unless a crash before the cut gave
        // it the majority of those running
        final int[] deafWithoutZero = {1, 0, 1, 0};
        assertTrue(PartitionOutcome.accusesWhileDeaf(deafTie, deafWithoutZero, new boolean[]{true, true, true, true},
            1, 0, 50));
        assertFalse(PartitionOutcome.accusesWhileDeaf(deafTie, deafWithoutZero,
            new boolean[]{true, true, false, true}, 1, 0, 50));
    }
}
