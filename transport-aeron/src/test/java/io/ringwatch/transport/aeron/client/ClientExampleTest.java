package io.ringwatch.transport.aeron.client;

import io.ringwatch.transport.aeron.DocExamples;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client example of docs/two-levels.md, compiled and run against a daemon's process level: the code between the
 * markers is copied verbatim into that document, and {@link #shouldMatchTheDocs()} keeps them the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientExampleTest
{
    // README:begin
    static int[] watch(
        final String aeronDir, final int clusterId, final int node, final int localIndex, final int failuresToAwait)
    {
        final FailureHandler handler = (process, cause) ->
        {
            // on the polling thread, once per dead application rank: stop talking to it
        };
        try (RingwatchClient client = RingwatchClient.attach(aeronDir, clusterId, node, localIndex, handler))
        {
            final IdleStrategy idle = new SleepingIdleStrategy(100_000); // or BusySpinIdleStrategy
            while (client.failedCount() < failuresToAwait)
            {
                idle.idle(client.poll());                  // the daemon pushes; callbacks run in this loop
            }
            client.ack();                                  // MPI_Comm_failure_ack
            final int[] acked = new int[client.ackedCount()];
            client.getAcked(acked);                        // MPI_Comm_failure_get_acked
            client.finish();                               // exit(0) from now on is a departure, not a failure
            return acked;
        }
    }
    // README:end

    @Test
    void shouldLearnAProcessFailureAndANodeFailureAndAckThem() throws Exception
    {
        try (DaemonFixture fixture = new DaemonFixture(4, 4))
        {
            final CompletableFuture<int[]> acked = CompletableFuture.supplyAsync(
                () -> watch(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 2, 5));
            // wait for the client to attach before the failures, as a launched process would
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fixture.daemon.view().slotState(2) != ProcessViewLayout.SLOT_ATTACHED &&
                System.nanoTime() - deadline < 0)
            {
                Thread.sleep(5);
            }
            assertEquals(ProcessViewLayout.SLOT_ATTACHED, fixture.daemon.view().slotState(2));

            fixture.processDied(1, 6);
            fixture.daemon.onNodeFailure(3, 0, 2);

            final int[] got = acked.get(20, TimeUnit.SECONDS);
            Arrays.sort(got);
            assertArrayEquals(new int[]{6, 12, 13, 14, 15}, got);
            assertEquals(ProcessViewLayout.SLOT_FINISHED, fixture.daemon.view().slotState(2));
        }
    }

    @Test
    void shouldSeeFailuresThatHappenedBeforeAttachingThroughTheView()
    {
        try (DaemonFixture fixture = new DaemonFixture(4, 4))
        {
            fixture.processDied(1, 5);
            final int[] seen = new int[1];
            try (RingwatchClient client = RingwatchClient.attach(
                fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 0, (process, cause) -> seen[0] = process))
            {
                assertTrue(client.isDead(5));
                assertTrue(!client.isDead(4));
                assertEquals(1, client.poll());
                assertEquals(5, seen[0]);
                assertEquals(0, client.poll(), "each failure is delivered once");
                assertEquals(0, client.ackedCount(), "nothing acked before ack()");
            }
        }
    }

    @Test
    void shouldMatchTheDocs() throws Exception
    {
        DocExamples.assertDocHolds(
            "src/test/java/io/ringwatch/transport/aeron/client/ClientExampleTest.java", "docs/two-levels.md", "client");
    }
}
