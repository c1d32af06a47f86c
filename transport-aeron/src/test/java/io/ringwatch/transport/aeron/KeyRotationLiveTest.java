package io.ringwatch.transport.aeron;

import io.aeron.Aeron;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rolling key rotation across a live cluster (4 node processes over UDP), without restarting anyone: the shared key
 * file goes [old] → [old, new] → [new, old] → [new], each node reloads it on its own (it watches the file), and not one
 * frame is refused for its MAC at any step, nobody is excluded; afterwards a frame under the old key is refused.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KeyRotationLiveTest
{
    private static final int N = 4;

    @Test
    void shouldRotateKeysAcrossALiveClusterWithoutRejectingAFrame() throws Exception
    {
        try (LocalCluster cluster = LocalClusters.startAllUp(new LocalCluster.Options()
            .nodes(N).transport(TransportMode.UDP).heartbeatPeriodNs(TimeUnit.MILLISECONDS.toNanos(20))
            .suspicionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(400)).graceNs(TimeUnit.SECONDS.toNanos(10)));
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(cluster.aeronDir().getAbsolutePath())))
        {
            final Path keyFile = cluster.keyFile().toPath();
            final byte[] oldKey = KeyFile.load(keyFile).get(0);
            final byte[] newKey = KeyFile.generate(new SecureRandom());
            final List<List<byte[]>> steps = List.of(
                List.of(oldKey, newKey), List.of(newKey, oldKey), List.of(newKey));
            for (int step = 0; step < steps.size(); step++)
            {
                write(keyFile, steps.get(step));
                awaitReloads(cluster, step + 1);
                // heartbeats flow under the new keyring for a while, a notice would too
                Thread.sleep(1_000);
            }
            LocalClusters.awaitExactly(cluster, Set.of(), "after the rotation", 0);
            for (int r = 0; r < N; r++)
            {
                assertEquals(0, rejected(aeron.countersReader(), cluster, r, RejectReason.BAD_MAC),
                    "rank " + r + " refused no frame for its MAC during the rotation: " + cluster.log(r));
            }

            // the old key is retired: a heartbeat rank 0 would send to rank 1, signed with it, is refused
            final RingwatchContext ctx = new RingwatchContext().clusterFile(cluster.clusterFile().toPath()).rank(0)
                .transport(TransportMode.UDP).aeronDirectoryName(cluster.aeronDir().getAbsolutePath())
                .authKeyFile(keyFile).conclude();
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);
            new HeartbeatFlyweight().encode(frame, 0, ctx.cluster().clusterId(), 0, (int)cluster.process(0).pid(), 1,
                ctx.configDigest(), 1L << 40, System.nanoTime());
            new FrameHeaderFlyweight().wrap(frame, 0).frameSequence(1L << 40);
            FrameAuthenticator.withKey(oldKey).sign(frame, 0, frame.capacity());
            // from rank 0's heartbeat address: rank 1's socket takes datagrams from its emitter's address only
            try (DatagramChannel channel = NetworkAttacker.bindSpoofed(new InetSocketAddress(
                ctx.cluster().member(0).host(), ctx.cluster().member(0).heartbeatPort())))
            {
                channel.send(ByteBuffer.wrap(frame.byteArray()), new InetSocketAddress(
                    ctx.cluster().member(1).host(), ctx.cluster().member(1).heartbeatPort()));
            }
            Await.until(10, () -> rejected(aeron.countersReader(), cluster, 1, RejectReason.BAD_MAC) >= 1,
                "a frame under the retired key is refused");
        }
    }

    private static void write(final Path keyFile, final List<byte[]> keys) throws Exception
    {
        final StringBuilder text = new StringBuilder();
        for (final byte[] key : keys)
        {
            text.append(KeyFile.toLine(key)).append('\n');
        }
        final Path next = keyFile.resolveSibling(keyFile.getFileName() + ".next");
        Files.deleteIfExists(next);
        Files.createFile(next, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(next, text, StandardCharsets.US_ASCII);
        // what an operator's tooling does: the nodes never see a half-written file
        Files.move(next, keyFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void awaitReloads(final LocalCluster cluster, final int reloads) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int r = 0; r < N; r++)
        {
            while (count(cluster.log(r), "keyring reloaded") < reloads)
            {
                assertTrue(System.nanoTime() - deadline < 0, "rank " + r + " reloaded " + reloads + " times: " +
                    cluster.log(r));
                Thread.sleep(10);
            }
        }
    }

    private static int count(final String text, final String what)
    {
        int count = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1))
        {
            count++;
        }
        return count;
    }

    private static long rejected(
        final CountersReader reader, final LocalCluster cluster, final int rank, final RejectReason reason)
    {
        return RejectCounters.rejected(reader, cluster.options().clusterId(), rank, reason);
    }
}
