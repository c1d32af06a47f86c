package io.ringwatch.core.sim;

import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rejoin checker on hand-made clusters of four where rank 2 restarted under incarnation 1: it passes a correct
 * state and fails each broken one (negative controls).
 */
class RejoinChecksTest
{
    private static final long SEED = 99;
    private static final int N = 4;

    private static final class State implements ClusterState
    {
        final int[][] known = new int[N][N];
        final RankArray[] views = new RankArray[N];
        boolean admitted = true;

        State()
        {
            for (int viewer = 0; viewer < N; viewer++)
            {
                views[viewer] = new RankArray(2);
                known[viewer][2] = 1;
            }
        }

        public int clusterSize()
        {
            return N;
        }

        public boolean isStopped(final int rank)
        {
            return false;
        }

        public RankSet deadSet(final int rank)
        {
            return views[rank];
        }

        public int emitter(final int rank)
        {
            return (rank + N - 1) % N;
        }

        public int observer(final int rank)
        {
            return (rank + 1) % N;
        }

        public long incarnation(final int rank)
        {
            return rank == 2 ? 1 : 0;
        }

        public long knownIncarnation(final int viewer, final int rank)
        {
            return known[viewer][rank];
        }

        public boolean isAdmitted(final int rank)
        {
            return rank != 2 || admitted;
        }
    }

    private static List<String> check(final State state)
    {
        final List<String> out = new ArrayList<>();
        final int rejoined = RejoinCheck.check(state, SEED, out);
        if (out.isEmpty())
        {
            assertEquals(1, rejoined);
        }
        return out;
    }

    @Test
    void shouldPassWhenEveryLiveNodeHoldsTheJoinerAliveAtItsIncarnation()
    {
        assertEquals(List.of(), check(new State()));
    }

    @Test
    void shouldFailWhenANodeStillHoldsTheOldIncarnation()
    {
        final State state = new State();
        state.known[3][2] = 0;
        final List<String> out = check(state);
        assertTrue(out.stream().anyMatch((v) -> v.contains("disagree on the incarnation of 2")), out.toString());
        assertEquals(0, RejoinCheck.check(state, SEED, new ArrayList<>()));
    }

    @Test
    void shouldFailWhenANodeHoldsTheJoinerDead()
    {
        final State state = new State();
        state.views[0].add(2);
        final List<String> out = check(state);
        assertTrue(out.stream().anyMatch((v) -> v.contains("holds running node 2") && v.contains("dead")), out.toString());
    }

    @Test
    void shouldFailWhenTheJoinerRunsButWasNeverAdmitted()
    {
        final State state = new State();
        state.admitted = false;
        final List<String> out = check(state);
        assertTrue(out.stream().anyMatch((v) -> v.contains("never admitted")), out.toString());
    }
}
