package io.ringwatch.transport.aeron;

import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.transport.aeron.NetworkAttacker.Seal;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attacks on a live cluster of real node processes (UDP, one shared media driver) from outside: a {@link
 * NetworkAttacker} with its own media driver sends well-formed frames it could not sign, and replays genuine frames
 * (made here with the cluster key, as if recorded off the wire). Each attack is one the issue saw succeed before frames were authenticated: a forged
 * FAILURE_NOTICE or LEAVE excluded a live rank, a forged NEW_OBSERVER diverted heartbeats, spoofed HEARTBEATs hid a
 * SIGKILLed node for as long as they lasted. Every reject must show in the node's per-reason counters, read from the
 * driver's counters file as {@code ringwatch.jar stat} reads them. The negative control runs the same forged notice
 * against a cluster with authentication off, where it excludes the rank.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ForgedFramesLiveTest
{
    private static final int N = 4;
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(400);
    private static final long SPOOF_NS = TimeUnit.SECONDS.toNanos(3);

    @Test
    void shouldRefuseForgedAndReplayedFramesAndCountEachReject() throws Exception
    {
        try (LocalCluster cluster = start(true);
            LiveWire wire = new LiveWire(cluster);
            NetworkAttacker attacker = new NetworkAttacker(cluster.options().clusterId(), wire.ctx.configDigest()))
        {
            final int victim = 1;
            final int victimObserver = 2;

            // a notice naming a live rank, "from" its observer, to every other node: unsigned, then under a foreign key
            for (final Seal seal : Seal.values())
            {
                for (final int target : new int[] {0, 3})
                {
                    final long before = wire.rejected(target, reasonOf(seal));
                    attacker.send(wire.host(target), wire.controlPort(target), wire.controlStream(target),
                        attacker.notice(victimObserver, wire.incarnation(victimObserver), target, victim, seal));
                    wire.awaitRejected(target, reasonOf(seal), before + 1, "forged FAILURE_NOTICE " + seal);
                }
            }

            // a genuine frame (a heartbeat rank 2 never sends to rank 1, so the first copy is fresh), sent twice: the
            // second copy is a replay; then the same bytes to another node
            final UnsafeBuffer genuine = wire.genuineHeartbeat(victimObserver, victim, 1);
            final long staleBefore = wire.rejected(victim, RejectReason.REPLAYED) +
                wire.rejected(victim, RejectReason.STALE_SEQUENCE);
            for (int i = 0; i < 2; i++)
            {
                attacker.sendDatagramFrom(wire.heartbeatAddress(wire.emitterOf(victim)), wire.host(victim),
                    wire.heartbeatPort(victim), genuine, genuine.capacity());
            }
            wire.awaitRejected(victim, () -> wire.rejected(victim, RejectReason.REPLAYED) +
                wire.rejected(victim, RejectReason.STALE_SEQUENCE), staleBefore + 1, "replayed genuine heartbeat");
            final long misdirectedBefore = wire.rejected(0, RejectReason.WRONG_DESTINATION);
            attacker.sendDatagramFrom(wire.heartbeatAddress(wire.emitterOf(0)), wire.host(0), wire.heartbeatPort(0),
                genuine, genuine.capacity());
            wire.awaitRejected(0, RejectReason.WRONG_DESTINATION, misdirectedBefore + 1,
                "genuine heartbeat replayed to another node");

            // LEAVE in the victim's name to its observer; NEW_OBSERVER claiming to be the victim's observer
            for (final Seal seal : Seal.values())
            {
                long before = wire.rejected(victimObserver, reasonOf(seal));
                attacker.send(wire.host(victimObserver), wire.controlPort(victimObserver),
                    wire.controlStream(victimObserver),
                    attacker.leave(victim, wire.incarnation(victim), victimObserver, seal));
                wire.awaitRejected(victimObserver, reasonOf(seal), before + 1, "forged LEAVE " + seal);

                before = wire.rejected(victim, reasonOf(seal));
                attacker.send(wire.host(victim), wire.controlPort(victim), wire.controlStream(victim),
                    attacker.newObserver(3, wire.incarnation(3), victim, seal));
                wire.awaitRejected(victim, reasonOf(seal), before + 1, "forged NEW_OBSERVER " + seal);

                // and a heartbeat in a live emitter's name: harmless alone, but it must not count as progress
                before = wire.rejected(victimObserver, reasonOf(seal));
                attacker.sendDatagramFrom(wire.heartbeatAddress(victim), wire.host(victimObserver),
                    wire.heartbeatPort(victimObserver),
                    attacker.heartbeat(victim, wire.incarnation(victim), victimObserver, Long.MAX_VALUE / 2, seal));
                wire.awaitRejected(victimObserver, reasonOf(seal), before + 1, "forged HEARTBEAT " + seal);
            }

            // long enough for any effect to spread: nobody excluded, nobody stopped
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * SUSPICION_TIMEOUT_NS));
            LocalClusters.awaitExactly(cluster, Set.of(), "after forged and replayed frames", 0);

            // rank 3 dies; its observer (rank 0) is fed forged heartbeats in its name all along, and genuine old ones
            final int dead = 3;
            final int deadObserver = 0;
            final List<UnsafeBuffer> recorded = new ArrayList<>();
            for (int sequence = 1; sequence <= 16; sequence++)
            {
                recorded.add(wire.genuineHeartbeat(dead, deadObserver, sequence));
            }
            final long spoofedBefore = wire.rejected(deadObserver, RejectReason.UNSIGNED) +
                wire.rejected(deadObserver, RejectReason.BAD_MAC) + wire.rejected(deadObserver, RejectReason.REPLAYED) +
                wire.rejected(deadObserver, RejectReason.STALE_SEQUENCE);
            final long[] spoofed = new long[1];
            final List<Long> spoofedAtNs = new ArrayList<>();
            final long[] spoofEndNs = new long[1];
            final Throwable[] spoofError = new Throwable[1];
            final Thread spoofer = new Thread(() ->
            {
                try
                {
                    spoofed[0] = spoofHeartbeats(attacker, wire, dead, deadObserver, recorded, spoofedAtNs);
                    spoofEndNs[0] = System.nanoTime();
                }
                catch (final RuntimeException ex)
                {
                    spoofError[0] = ex;
                }
            }, "spoofer");
            final long killedAtNs = cluster.kill(dead);
            spoofer.start();
            spoofer.join();
            if (spoofError[0] != null)
            {
                throw new AssertionError("spoofer failed", spoofError[0]);
            }
            assertTrue(cluster.awaitViews(Set.of(dead), 30_000),
                "the killed rank is declared dead despite spoofed heartbeats: " + views(cluster));
            final long detectedAtNs = cluster.view(deadObserver).detectedAtNs(dead);
            System.out.printf("ForgedFramesLiveTest: rank %d declared dead %d ms after SIGKILL, %d ms before the " +
                "%d spoofed heartbeats stopped%n", dead, TimeUnit.NANOSECONDS.toMillis(detectedAtNs - killedAtNs),
                TimeUnit.NANOSECONDS.toMillis(spoofEndNs[0] - detectedAtNs), spoofed[0]);
            assertTrue(detectedAtNs - spoofEndNs[0] < 0, "declared dead while the spoofing went on");
            // every one that reached the decoder is refused and counted: those sent while the observer still watched
            // the dead rank; once it watches the next, the kernel drops the rest (not from its emitter's address).
            // Frames sent in the last few milliseconds before the verdict may still be queued on the heartbeat socket
            // when the observer connects it to its next emitter, which discards them unread (one of 222 was, once in
            // CI), so they are not counted on.
            final long settledNs = detectedAtNs - TimeUnit.MILLISECONDS.toNanos(10);
            final long whileWatched = 3 * spoofedAtNs.stream().filter((t) -> t - settledNs < 0).count();
            assertTrue(whileWatched > 0, "spoofed heartbeats were sent before the detection");
            wire.awaitRejected(deadObserver, () -> wire.rejected(deadObserver, RejectReason.UNSIGNED) +
                wire.rejected(deadObserver, RejectReason.BAD_MAC) +
                wire.rejected(deadObserver, RejectReason.REPLAYED) +
                wire.rejected(deadObserver, RejectReason.STALE_SEQUENCE), spoofedBefore + whileWatched,
                "spoofed heartbeats of a dead rank, " + whileWatched + " of them sent while it was watched");
            LocalClusters.awaitExactly(cluster, Set.of(dead), "after the spoofed heartbeats", 0);
        }
    }

    /**
     * Negative control: the same forged notice, to a cluster with authentication off, excludes a live rank.
     */
    @Test
    void shouldLetAForgedNoticeExcludeALiveRankWhenAuthenticationIsOff() throws Exception
    {
        try (LocalCluster cluster = start(false);
            LiveWire wire = new LiveWire(cluster);
            NetworkAttacker attacker = new NetworkAttacker(cluster.options().clusterId(), wire.ctx.configDigest()))
        {
            final int victim = 1;
            final int target = 0;
            attacker.send(wire.host(target), wire.controlPort(target), wire.controlStream(target),
                attacker.notice(2, wire.incarnation(2), target, victim, Seal.UNSIGNED));
            // the node that took the notice holds a live rank dead; what follows varies from run to run (the victim
            // fenced, or, its emitter having moved on, the blame landing on innocent ranks), so only that is asserted
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!cluster.view(target).isDead(victim) && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(5);
            }
            assertTrue(cluster.view(target).isDead(victim),
                "with authentication off, one forged notice excludes a live rank: " + views(cluster));
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * SUSPICION_TIMEOUT_NS));
            System.out.println("ForgedFramesLiveTest, authentication off, 3 delta after one forged notice:" +
                views(cluster));
        }
    }

    private static LocalCluster start(final boolean authenticated) throws InterruptedException
    {
        return LocalClusters.startAllUp(new LocalCluster.Options()
            .nodes(N).transport(TransportMode.UDP).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS).graceNs(TimeUnit.SECONDS.toNanos(10))
            .authenticated(authenticated));
    }

    /**
     * For {@link #SPOOF_NS}, every 5 ms, from the dead rank's heartbeat address: a heartbeat in its name unsigned, one
     * under a foreign key, and one of its genuine early heartbeats (sequences 1 to 16) again; each round's start time
     * goes into {@code sentAtNs}.
     *
     * @return frames sent.
     */
    private static long spoofHeartbeats(
        final NetworkAttacker attacker, final LiveWire wire, final int dead, final int observer,
        final List<UnsafeBuffer> recorded, final List<Long> sentAtNs)
    {
        long sent = 0;
        long counter = 1L << 40;
        final long endNs = System.nanoTime() + SPOOF_NS;
        while (System.nanoTime() - endNs < 0)
        {
            sentAtNs.add(System.nanoTime());
            for (final Seal seal : Seal.values())
            {
                attacker.sendDatagramFrom(wire.heartbeatAddress(dead), wire.host(observer),
                    wire.heartbeatPort(observer), attacker.heartbeat(dead, wire.incarnation(dead), observer, counter++,
                    seal));
            }
            final UnsafeBuffer replay = recorded.get((int)(sent % recorded.size()));
            attacker.sendDatagramFrom(wire.heartbeatAddress(dead), wire.host(observer), wire.heartbeatPort(observer),
                replay, replay.capacity());
            sent += 3;
            sleepQuietly(5);
        }
        return sent;
    }

    private static RejectReason reasonOf(final Seal seal)
    {
        return seal == Seal.UNSIGNED ? RejectReason.UNSIGNED : RejectReason.BAD_MAC;
    }

    private static String views(final LocalCluster cluster)
    {
        final StringBuilder sb = new StringBuilder();
        for (int r = 0; r < cluster.options().nodes(); r++)
        {
            sb.append("\n  ").append(cluster.view(r)).append(cluster.process(r).isAlive() ? "" : " (exited)");
        }
        return sb.toString();
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
