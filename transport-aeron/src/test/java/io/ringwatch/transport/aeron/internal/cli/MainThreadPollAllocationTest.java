package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.ThreadAllocation;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.transport.aeron.EmbeddedCluster;
import io.ringwatch.transport.aeron.RingwatchNode;
import io.ringwatch.transport.aeron.ThreadingMode;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.RingwatchAgent;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node process's main thread wakes four times a second for as long as the node runs: its wait and its poll (view
 * file, membership log, key file, stop checks) must allocate nothing while nothing changes. The soak's node JVMs run
 * C1 only and go hours without a collection, so the 1 KB a poll made (the key file's attributes, formatted) showed as
 * resident memory growing by 0.29 MB a minute per node (issue 31).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainThreadPollAllocationTest
{
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int POLLS_PER_ROUND = 50;

    @TempDir
    Path dir;

    private EmbeddedCluster cluster;

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(cluster);
    }

    @Test
    void shouldNotAllocateWhileWaitingAndPollingARunningAuthenticatedNode() throws Exception
    {
        final Path keyFile = dir.resolve("cluster.key");
        KeyFile.create(keyFile, KeyFile.generate(new SecureRandom()));
        cluster = new EmbeddedCluster(3, 23, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.IPC,
            ctx -> ctx.threadingMode(ThreadingMode.UNSTARTED).authKeyFile(keyFile).authMode(AuthMode.REQUIRED));
        // past the startup grace (1 s): admitted, watching and watched
        cluster.run(1_500, 0, 1, 2);
        final RingwatchNode node = cluster.nodes[0];
        final RingwatchAgent agent = NodeInternals.agent(node);
        assertEquals(NodeState.ACTIVE, agent.node().state());

        try (NodeCommand.MainThreadPoll poll = new NodeCommand.MainThreadPoll(node, node.context()))
        {
            final ThreadAllocation allocation = ThreadAllocation.counter();
            // the first polls log the admission and the agent's scheduling once; between rounds the agents run, so
            // the view file moves under the poll as it does live. Passes on two rounds in a row without a byte.
            final StringBuilder bytes = new StringBuilder();
            int zeroRun = 0;
            for (int round = 0; round < 12 && zeroRun < 2; round++)
            {
                cluster.run(20, 0, 1, 2);
                final long allocated = allocation.bytesOf(() -> waitAndPoll(agent, poll));
                bytes.append(' ').append(allocated);
                zeroRun = allocated == 0 ? zeroRun + 1 : 0;
            }
            assertEquals(NodeState.ACTIVE, agent.node().state(), "the node ran throughout");
            assertEquals(2, zeroRun, "bytes allocated per round of " + POLLS_PER_ROUND + " waits and polls:" + bytes);
        }
    }

    private static void waitAndPoll(final RingwatchAgent agent, final NodeCommand.MainThreadPoll poll)
    {
        for (int i = 0; i < POLLS_PER_ROUND; i++)
        {
            try
            {
                final boolean stopped = agent.awaitStopped(TimeUnit.MICROSECONDS.toNanos(100));
                assertEquals(-1, poll.poll(stopped), "still running");
            }
            catch (final InterruptedException ex)
            {
                throw new AssertionError(ex);
            }
        }
    }
}
