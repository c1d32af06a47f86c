package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.ProtocolCounter;
import io.aeron.Aeron;
import io.aeron.Subscription;
import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ReplayGuard;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.internal.ClusterChannels;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What live nodes put on the wire: every control frame they send (NEW_OBSERVER, notices, LEAVE) is read off the
 * destination's own stream by a second subscriber and must pass the full decoder of its destination (MAC under
 * the cluster key, config digest, destination, fresh sequence), and fail under any other key.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AuthenticatedFramesTest
{
    private static final int CLUSTER_ID = 21;
    private static final int N = 4;
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    @TempDir
    Path tempDir;

    private EmbeddedCluster cluster;
    private Aeron aeron;

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietClose(aeron);
        CloseHelper.quietClose(cluster);
    }

    @ParameterizedTest
    @EnumSource(TransportMode.class)
    void shouldSignAndSequenceEveryFrameANodeSends(final TransportMode transport)
    {
        final Path keyFile = tempDir.resolve("cluster.key");
        KeyFile.create(keyFile, KeyFile.generate(new SecureRandom()));
        System.setProperty(RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME, keyFile.toString());
        try
        {
            cluster = new EmbeddedCluster(N, CLUSTER_ID, HEARTBEAT_NS, TIMEOUT_NS, transport);
        }
        finally
        {
            System.clearProperty(RingwatchConfiguration.AUTH_KEY_FILE_PROP_NAME);
        }
        final RingwatchContext ctx = cluster.nodes[0].context();
        assertEquals(AuthMode.REQUIRED, ctx.authMode());
        assertTrue(ctx.frameAuthenticator().authenticates());
        assertEquals(ConfigDigest.of(CLUSTER_ID, N, HEARTBEAT_NS, TIMEOUT_NS), ctx.configDigest());

        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.dir.getAbsolutePath()));
        final ClusterChannels channels = new ClusterChannels(ctx);
        final List<Subscription> subscriptions = new ArrayList<>();
        final List<Integer> destinations = new ArrayList<>();
        for (int r = 0; r < N; r++)
        {
            subscriptions.add(aeron.addSubscription(channels.controlChannel(r), channels.controlStream(r)));
            destinations.add(r);
        }

        final FrameAuthenticator keyring = KeyFile.authenticator(keyFile);
        final FrameDecoder[] decoders = new FrameDecoder[N];
        final FrameDecoder[] foreign = new FrameDecoder[N];
        for (int r = 0; r < N; r++)
        {
            decoders[r] = new FrameDecoder(CLUSTER_ID, N, r, ctx.configDigest(), keyring, new ReplayGuard(N));
            foreign[r] = new FrameDecoder(CLUSTER_ID, N, r, ctx.configDigest(),
                FrameAuthenticator.withKey(KeyFile.generate(new SecureRandom())), null);
        }
        final Map<RejectReason, int[]> verdicts = new EnumMap<>(RejectReason.class);
        final Map<RejectReason, int[]> foreignVerdicts = new EnumMap<>(RejectReason.class);
        final int[] byType = new int[5];

        final Runnable poll = () ->
        {
            for (int i = 0; i < subscriptions.size(); i++)
            {
                final int destination = destinations.get(i);
                subscriptions.get(i).poll((buffer, offset, length, header) ->
                {
                    final RejectReason reason = decoders[destination].decode(buffer, offset, length);
                    verdicts.computeIfAbsent(reason, (k) -> new int[1])[0]++;
                    if (reason == RejectReason.NONE)
                    {
                        byType[decoders[destination].type()]++;
                    }
                    foreignVerdicts.computeIfAbsent(
                        foreign[destination].decode(buffer, offset, length), (k) -> new int[1])[0]++;
                }, 64);
            }
        };

        runAndPoll(500, poll, 0, 1, 2, 3);
        NodeInternals.agent(cluster.nodes[3]).requestLeave();
        runAndPoll(300, poll, 0, 1, 2, 3);
        // rank 1 stops: rank 2 detects it, mends the ring (NEW_OBSERVER to 0) and broadcasts
        runAndPoll(1500, poll, 0, 2);

        assertFalse(NodeInternals.agent(cluster.nodes[0]).node().isAlive(1), "the run must have produced a detection");
        assertEquals(1, verdicts.size(), () -> "every frame must be accepted: " + summary(verdicts));
        assertTrue(verdicts.containsKey(RejectReason.NONE));
        assertEquals(1, foreignVerdicts.size(), () -> "under another key: " + summary(foreignVerdicts));
        assertTrue(foreignVerdicts.containsKey(RejectReason.BAD_MAC));
        assertTrue(byType[FrameHeaderFlyweight.NEW_OBSERVER_TYPE] > 0, "NEW_OBSERVER seen");
        assertTrue(byType[FrameHeaderFlyweight.FAILURE_NOTICE_TYPE] > 0, "FAILURE_NOTICE seen");
        assertTrue(byType[FrameHeaderFlyweight.LEAVE_TYPE] > 0, "LEAVE seen");
        if (transport == TransportMode.UDP)
        {
            // UDP heartbeats are plain datagrams no second subscriber can read: the nodes' own decoders judge them
            for (final int r : new int[] {0, 2})
            {
                assertTrue(NodeInternals.agent(cluster.nodes[r]).node().counter(ProtocolCounter.HEARTBEAT_PROGRESS_SEEN) > 100, "heartbeats accepted");
                assertEquals(0, NodeInternals.agent(cluster.nodes[r]).counters().rejectedTotal(), "nothing rejected");
            }
        }
        assertSame(ctx.frameAuthenticator(), cluster.nodes[0].context().frameAuthenticator());
    }

    private void runAndPoll(final long millis, final Runnable poll, final int... ranks)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadline < 0)
        {
            for (final int r : ranks)
            {
                NodeInternals.agent(cluster.nodes[r]).doWork();
            }
            poll.run();
        }
    }

    private static String summary(final Map<RejectReason, int[]> counts)
    {
        final StringBuilder sb = new StringBuilder();
        counts.forEach((reason, count) -> sb.append(reason).append('=').append(count[0]).append(' '));
        return sb.toString();
    }
}
