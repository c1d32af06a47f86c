package io.ringwatch.core.sim;

import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fencing checker's rule on hand-made end states: a condemned rank may not run on while a running node holds it
 * dead, but a condemnation every holder of which has stopped died with them.
 */
class FencingCheckTest
{
    private static final int N = 3;

    private final RankArray[] dead = {new RankArray(2), new RankArray(2), new RankArray(2)};
    private final boolean[] stopped = new boolean[N];
    private final boolean[] condemned = new boolean[N];
    private final ClusterState state = new ClusterState()
    {
        public int clusterSize()
        {
            return N;
        }

        public boolean isStopped(final int rank)
        {
            return stopped[rank];
        }

        public RankSet deadSet(final int rank)
        {
            return dead[rank];
        }

        public int emitter(final int rank)
        {
            return (rank + N - 1) % N;
        }

        public int observer(final int rank)
        {
            return (rank + 1) % N;
        }
    };

    @Test
    void shouldFlagAZombieThatARunningNodeHoldsDead()
    {
        condemned[2] = true;
        dead[1].add(2);

        final List<String> found = check();
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("node 2 was declared dead while paused") && found.get(0).contains("node 1"));
    }

    @Test
    void shouldPassACondemnedRankThatStopped()
    {
        condemned[2] = true;
        dead[1].add(2);
        stopped[2] = true;

        assertEquals(List.of(), check());
    }

    @Test
    void shouldPassACondemnationThatDiedWithItsAccuser()
    {
        // the explorer's case: 0 declared the paused 2 dead while cut off, its notice was lost, and 0 was then
        // declared dead by {1, 2} and fenced: nobody running holds 2 dead
        condemned[2] = true;
        dead[0].add(2);
        stopped[0] = true;
        dead[1].add(0);
        dead[2].add(0);

        assertEquals(List.of(), check());
    }

    private List<String> check()
    {
        final List<String> found = new ArrayList<>();
        FencingCheck.check(state, condemned, 42, found);
        return found;
    }
}
