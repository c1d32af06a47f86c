package io.ringwatch.transport.aeron;

import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.transport.aeron.auth.KeyFile;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 28, finding 3, live: a FAILURE_NOTICE and a LEAVE recorded in one run of a cluster, replayed in a later run
 * with the same key and cluster file, to a node that has not heard their sender yet (trust on first use: its first
 * authentic frame from a rank used to set the incarnation it takes). Four UDP seeds: rank 0 hears its emitter 3 and its
 * observer 1, never rank 2 in a quiet cluster, so frames from rank 2 to rank 0 meet rank 0's first use of rank 2, at
 * boot and after it.
 * <ul>
 *     <li>Run 1 records what rank 0 receives while rank 1 is killed (its observer, rank 2, sends rank 0 the notice),
 *     then rank 3 (rank 2's observer is rank 0 from then on), and rank 2 is stopped with SIGTERM (its LEAVE).</li>
 *     <li>Run 2, the real rule: the notice and the LEAVE sent to rank 0 over and over from the moment the nodes are
 *     released until they are up, then once more after: refused as {@code WRONG_RUN}, nobody excluded.</li>
 *     <li>Run 3, the negative control: rank 0 runs with {@code -Dringwatch.test.broken.rules=run-binding} (its decoder
 *     takes any run); the same replay from the release on gets a live rank (1, named by the notice, or 2, the LEAVE's
 *     sender) held dead by rank 0.</li>
 * </ul>
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CrossRunNoticeReplayTest
{
    private static final int N = 4;
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(25);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final String SEEDS = "-Dringwatch.seeds=" + N;

    @Test
    void shouldRefuseANoticeAndALeaveOfAnEarlierRunAtBootAndAfter() throws Exception
    {
        final byte[] key = KeyFile.generate(new SecureRandom());
        final List<UnsafeBuffer> recorded = recordNoticeAndLeave(key);
        final UnsafeBuffer notice = find(recorded, FrameHeaderFlyweight.FAILURE_NOTICE_TYPE, 2, 1);
        final UnsafeBuffer leave = find(recorded, FrameHeaderFlyweight.LEAVE_TYPE, 2, -1);

        try (LocalCluster cluster = new LocalCluster(options(key));
            LiveWire wire = new LiveWire(cluster);
            NetworkAttacker attacker = new NetworkAttacker(cluster.options().clusterId(), wire.ctx.configDigest()))
        {
            // at boot: from the release until every node is up, as often as the attacker's publication takes them
            final AtomicBoolean booting = new AtomicBoolean(true);
            final AtomicLong sentAtBoot = new AtomicLong();
            final Thread replayer = new Thread(() ->
            {
                while (booting.get())
                {
                    send(attacker, wire, notice);
                    send(attacker, wire, leave);
                    sentAtBoot.addAndGet(2);
                    sleepQuietly(2);
                }
            }, "replayer");
            cluster.start();
            replayer.start();
            final boolean up = cluster.awaitAllUp(90_000);
            booting.set(false);
            replayer.join();
            assertTrue(up, "nodes up while the recordings were replayed; logs: " + LocalClusters.logs(cluster, N));
            final long wrongRunAtBoot = wire.rejected(0, RejectReason.WRONG_RUN);

            // after boot
            send(attacker, wire, notice);
            send(attacker, wire, leave);
            wire.awaitRejected(0, RejectReason.WRONG_RUN, wrongRunAtBoot + 2, "the recordings replayed after up");
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * SUSPICION_TIMEOUT_NS));
            LocalClusters.awaitExactly(cluster, Set.of(), "after run 1's notice and LEAVE replayed in run 2", 0);
            assertTrue(wrongRunAtBoot >= 1, "some replays reached rank 0 at boot: " + wrongRunAtBoot);
            System.out.printf("CrossRunNoticeReplayTest: run 1's FAILURE_NOTICE(1) and LEAVE of rank 2 (run %d) " +
                "replayed to rank 0 of run 2 (run %d): %d sent during boot, %d refused as WRONG_RUN by up, 2 more " +
                "after; nobody excluded%n", new FrameHeaderFlyweight().wrap(notice, 0).runId(),
                wire.counter(0, NodeCounter.RUN_ID), sentAtBoot.get(), wrongRunAtBoot);
        }

        // negative control: the same replay, from the release on, to a rank 0 whose decoder takes any run
        final LocalCluster.Options broken = options(key)
            .rankJvmOptions(0, List.of(SEEDS, "-Dringwatch.test.broken.rules=run-binding"));
        try (LocalCluster cluster = new LocalCluster(broken);
            LiveWire wire = new LiveWire(cluster);
            NetworkAttacker attacker = new NetworkAttacker(cluster.options().clusterId(), wire.ctx.configDigest()))
        {
            cluster.start();
            final long releasedAtNs = System.nanoTime();
            final long deadline = releasedAtNs + TimeUnit.SECONDS.toNanos(20);
            long sent = 0;
            while (!excludedByRank0(cluster) && System.nanoTime() - deadline < 0)
            {
                send(attacker, wire, notice);
                send(attacker, wire, leave);
                sent += 2;
                Thread.sleep(2);
            }
            assertTrue(excludedByRank0(cluster), "without run binding the recorded notice or LEAVE excludes a live " +
                "rank: rank 0 refused" + rejects(wire, 0) + "; view " + cluster.view(0) + "; logs: " +
                LocalClusters.logs(cluster, N));
            System.out.println("CrossRunNoticeReplayTest, negative control: run 1's notice and LEAVE replayed to " +
                "rank 0 at boot without run binding: live ranks held dead by rank 0 " +
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAtNs) + " ms after the release (" + sent +
                " sent): " + cluster.view(0) + "; rank 0 refused" + rejects(wire, 0));
        }
    }

    private static boolean excludedByRank0(final LocalCluster cluster)
    {
        final ViewSnapshot view = cluster.tryView(0, new ViewSnapshot());
        return view != null && (view.isDead(1) || view.isDead(2));
    }

    /**
     * Run 1: kill rank 1, then rank 3, then stop rank 2 with SIGTERM, keeping every control frame rank 0 receives.
     */
    private static List<UnsafeBuffer> recordNoticeAndLeave(final byte[] key) throws Exception
    {
        final List<UnsafeBuffer> frames = new ArrayList<>();
        try (LocalCluster cluster = LocalClusters.startAllUp(options(key));
            LiveWire wire = new LiveWire(cluster);
            Subscription beside = wire.aeron.addSubscription(wire.channels.controlChannel(0),
                wire.channels.controlStream(0)))
        {
            final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, length, header) ->
            {
                final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
                copy.putBytes(0, buffer, offset, length);
                frames.add(copy);
            });
            final long settleMs = TimeUnit.NANOSECONDS.toMillis(
                ProtocolSettings.defaultSettlePeriodNs(N, SUSPICION_TIMEOUT_NS)) + 1_000;
            cluster.kill(1);
            assertTrue(cluster.awaitViews(Set.of(1), 20_000), "rank 1 declared dead");
            poll(beside, assembler, settleMs);
            cluster.kill(3);
            assertTrue(cluster.awaitViews(Set.of(1, 3), 20_000), "rank 3 declared dead");
            poll(beside, assembler, settleMs);
            cluster.terminate(2);
            poll(beside, assembler, 2_000);
        }
        return frames;
    }

    private static void poll(final Subscription subscription, final FragmentAssembler assembler, final long forMs)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(forMs);
        while (System.nanoTime() - deadline < 0)
        {
            if (subscription.poll(assembler, 64) == 0)
            {
                sleepQuietly(1);
            }
        }
    }

    /**
     * @param dead for a notice, the rank it names dead; -1 for a LEAVE.
     * @return the first recorded frame of that type from {@code sender} to rank 0.
     */
    private static UnsafeBuffer find(final List<UnsafeBuffer> recorded, final int type, final int sender, final int dead)
    {
        final StringBuilder seen = new StringBuilder();
        for (final UnsafeBuffer frame : recorded)
        {
            final FrameHeaderFlyweight header = new FrameHeaderFlyweight().wrap(frame, 0);
            seen.append(' ').append(header.type()).append(':').append(header.senderRank());
            if (header.type() == type && header.senderRank() == sender && header.destinationRank() == 0 &&
                (dead < 0 || new FailureNoticeFlyweight().wrap(frame, 0).deadRank() == dead))
            {
                return frame;
            }
        }
        return fail("run 1 recorded no frame of type " + type + " from rank " + sender + " to rank 0 (type:sender" +
            seen + ")");
    }

    private static String rejects(final LiveWire wire, final int rank)
    {
        final StringBuilder sb = new StringBuilder();
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NONE && wire.rejected(rank, reason) > 0)
            {
                sb.append(' ').append(reason).append('=').append(wire.rejected(rank, reason));
            }
        }
        return sb.toString();
    }

    private static void send(final NetworkAttacker attacker, final LiveWire wire, final UnsafeBuffer frame)
    {
        attacker.send(wire.host(0), wire.controlPort(0), wire.controlStream(0), frame, frame.capacity());
    }

    private static LocalCluster.Options options(final byte[] key)
    {
        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(N).transport(TransportMode.UDP).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(3))
            .authenticated(true).key(key);
        for (int r = 0; r < N; r++)
        {
            // all four seeds: boot members on one ring from the start, none joins (a JOIN would reach rank 0 through
            // rank 2)
            options.rankJvmOptions(r, List.of(SEEDS));
        }
        return options;
    }

    private static void sleepQuietly(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
