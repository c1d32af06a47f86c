package io.ringwatch.core.process;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobFileTest
{
    private static JobLayout parse(final int nodes, final String... lines)
    {
        return JobFile.parse("job.txt", List.of(lines), nodes);
    }

    private static void assertRefused(final String expected, final int nodes, final String... lines)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> parse(nodes, lines));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }

    @Test
    void shouldReadUnevenCountsIncludingANodeWithNone()
    {
        final JobLayout layout = parse(4,
            "# a job", "processes 10", "", "node 0 ranks 0-3", "node 1 ranks 4  # one", "node 2 ranks none",
            "node 3 ranks 5-9");

        assertEquals(JobLayout.of(4, 1, 0, 5), layout);
        assertEquals(3, layout.nodeOf(5));
        assertEquals(0, layout.localIndexOf(5));
        assertEquals(1, layout.nodeOf(4));
        assertEquals(4, layout.localIndexOf(9));
    }

    @Test
    void shouldReadNodeLinesInAnyOrder()
    {
        assertEquals(JobLayout.of(2, 3), parse(2, "processes 5", "node 1 ranks 2-4", "node 0 ranks 0-1"));
    }

    @Test
    void shouldReadBackWhatItFormats()
    {
        final JobLayout layout = JobLayout.of(3, 0, 1, 7, 2);
        assertEquals(layout, JobFile.parse("formatted", List.of(JobFile.format(layout).split("\n")), 5));
    }

    @Test
    void shouldRefuseAnUnknownNodeRank()
    {
        assertRefused("job.txt line 3: unknown node rank 2: the cluster has ranks 0..1", 2,
            "processes 4", "node 0 ranks 0-1", "node 2 ranks 2-3");
    }

    @Test
    void shouldRefuseADuplicateApplicationRank()
    {
        assertRefused("job.txt line 3: duplicate application rank 1 (already placed on line 2)", 2,
            "processes 4", "node 0 ranks 0-1", "node 1 ranks 1-3");
    }

    @Test
    void shouldRefuseCountMismatches()
    {
        assertRefused("count mismatch: the node lines place 3 application ranks, 'processes' says 4", 2,
            "processes 4", "node 0 ranks 0-1", "node 1 ranks 2");
        assertRefused("line 3: count mismatch: application rank 4 is not below 'processes 4'", 2,
            "processes 4", "node 0 ranks 0-1", "node 1 ranks 2-4");
        assertRefused("node rank 1 has no line", 2, "processes 2", "node 0 ranks 0-1");
    }

    @Test
    void shouldRefuseRanksOutOfNodeOrderAndMalformedLines()
    {
        assertRefused("line 2: node 0's ranks start at 2, expected 0", 2,
            "processes 4", "node 0 ranks 2-3", "node 1 ranks 0-1");
        assertRefused("node 0 listed a second time (first on line 2)", 2,
            "processes 2", "node 0 ranks 0", "node 0 ranks 1");
        assertRefused("'processes P' must come before the node lines", 1, "node 0 ranks 0");
        assertRefused("missing 'processes P' line", 1);
        assertRefused("expected 'processes P' or 'node R ranks A-B|A|none'", 1, "processes 1", "node 0 0");
        assertRefused("application rank is not a number: 'x'", 1, "processes 1", "node 0 ranks x");
    }
}
