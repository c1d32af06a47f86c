package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.EmbeddedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code stat}'s three views of two real nodes (a real media driver, their view files and counters), and
 * {@code --cluster-id} keeping another cluster's nodes out of every view.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatCommandTest
{
    private static final int CLUSTER_ID = 4242;

    @Test
    void shouldPrintATableCountersAndJsonOfTheNodesOfOneCluster()
    {
        try (EmbeddedCluster cluster = new EmbeddedCluster(2, CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10),
            TimeUnit.MILLISECONDS.toNanos(100)))
        {
            cluster.run(300, 0, 1);
            final String dir = cluster.dir.getAbsolutePath();

            final String table = StatCommand.render(options(dir, CLUSTER_ID, false, false, false));
            System.out.println(table);
            final String[] header = table.lines().findFirst().orElseThrow().split(" +");
            assertEquals("CLUSTER RANK PID ALIVE STATE INCARNATION EPOCH DEAD LAST CHANGE AGE SUSPECT REJECTED " +
                "MISSED MAX-GAP", String.join(" ", header));
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                final String[] row = table.lines().skip(1).map(line -> line.split(" +"))
                    .filter(c -> c[1].equals(Integer.toString(rank))).findFirst().orElseThrow();
                assertEquals(Integer.toString(CLUSTER_ID), row[0]);
                assertEquals(Long.toString(ProcessHandle.current().pid()), row[2]);
                assertEquals(List.of("yes", "ACTIVE", "{}"), List.of(row[3], row[4], row[7]));
            }

            final String counters = StatCommand.render(options(dir, CLUSTER_ID, true, false, false));
            assertTrue(counters.contains("  cluster " + CLUSTER_ID + " rank 0:"), counters);
            assertTrue(counters.matches("(?s).*    heartbeats sent +[1-9][0-9,]*\n.*"), counters);
            assertFalse(counters.matches("(?s).*    [a-z ]+ +0\n.*"), "zeros only with --all: " + counters);
            assertTrue(StatCommand.render(options(dir, CLUSTER_ID, true, true, false))
                .matches("(?s).*    suspicions +0\n.*"), "--all shows zeros");

            final String json = StatCommand.render(options(dir, CLUSTER_ID, false, false, true));
            assertTrue(json.startsWith("{\"aeronDir\":\"" + dir + "\",\"nodes\":[{\"clusterId\":" + CLUSTER_ID +
                ",\"rank\":0,\"pid\":" + ProcessHandle.current().pid() + ",\"pidAlive\":true,\"state\":\"ACTIVE\""),
                json);
            assertTrue(json.contains("\"counters\":{\"heartbeats_sent\":"), json);

            final String other = StatCommand.render(options(dir, CLUSTER_ID + 1, false, false, false));
            assertTrue(other.startsWith("no ringwatch nodes in " + dir + " for cluster " + (CLUSTER_ID + 1)), other);
            final String otherCounters = StatCommand.render(options(dir, CLUSTER_ID + 1, true, true, false));
            assertFalse(otherCounters.contains("rank 0:"), otherCounters);
        }
    }

    private static StatCommand.Options options(
        final String dir, final int clusterId, final boolean counters, final boolean all, final boolean json)
    {
        return new StatCommand.Options(dir, clusterId, counters, all, json, false, 0, 1);
    }
}
