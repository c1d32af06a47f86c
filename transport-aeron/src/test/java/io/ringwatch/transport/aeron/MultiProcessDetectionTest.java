package io.ringwatch.transport.aeron;

import io.ringwatch.core.protocol.DetectorNode;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real node processes sharing a media driver process, killed with SIGKILL or paused with SIGSTOP. Timeouts
 * are generous (δ = 400 ms) because this runs on small, shared CI machines where a process can be descheduled
 * for tens of milliseconds; speed is measured by the benchmarks, not asserted here.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class MultiProcessDetectionTest
{
    private static final long HEARTBEAT_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long SUSPICION_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(400);

    private static LocalCluster start(final int nodes, final TransportMode transport) throws InterruptedException
    {
        return LocalClusters.startAllUp(options(nodes, transport));
    }

    private static LocalCluster.Options options(final int nodes, final TransportMode transport)
    {
        return new LocalCluster.Options()
            .nodes(nodes).transport(transport).heartbeatPeriodNs(HEARTBEAT_PERIOD_NS)
            .suspicionTimeoutNs(SUSPICION_TIMEOUT_NS)
            .graceNs(TimeUnit.SECONDS.toNanos(10));
    }

    /**
     * One cluster, three rounds: a single SIGKILL, then two ring-adjacent survivors at once, then
     * ⌊log₂ n⌋ − 1 random survivors at once. After each round every survivor holds exactly the killed set.
     * Five of eight die within seconds, so the nodes run the paper's rule (partition policy none): under the
     * majority rule the three survivors cannot tell that from being cut off, and stop (its documented price).
     */
    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"IPC", "UDP"}) // RDMA: RdmaMultiProcessDetectionTest
    void shouldAgreeOnExactlyTheKilledSetAfterSingleAdjacentAndRandomKills(final TransportMode transport)
        throws Exception
    {
        if (transport == TransportMode.IPC)
        {
            LongCases.onlyWhenAsked("kills over IPC (the UDP case runs, and DemoCommandTest kills over IPC)");
        }
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final int n = 8;
        final LocalCluster.Options options = options(n, transport);
        final List<String> jvm = new ArrayList<>(options.jvmOptions());
        jvm.add("-D" + RingwatchConfiguration.PARTITION_POLICY_PROP_NAME + "=none");
        try (LocalCluster cluster = LocalClusters.startAllUp(options.jvmOptions(jvm)))
        {
            final Set<Integer> killed = new LinkedHashSet<>();
            final List<Integer> alive = new ArrayList<>();
            for (int r = 0; r < n; r++)
            {
                alive.add(r);
            }

            final int single = alive.get(random.nextInt(alive.size()));
            killAll(cluster, List.of(single), killed, alive);
            LocalClusters.awaitExactly(cluster, killed, "single kill", seed);

            // under the default partition rule a majority is counted of the membership as it last settled: let it
            // settle before each round, or five of eight gone within one settle period reads as a lost majority
            awaitSettled(n);
            final int index = random.nextInt(alive.size());
            final List<Integer> pair = List.of(alive.get(index), alive.get((index + 1) % alive.size()));
            killAll(cluster, pair, killed, alive);
            LocalClusters.awaitExactly(cluster, killed, "adjacent pair " + pair, seed);

            awaitSettled(n);
            // ⌊log₂ 8⌋ − 1 = 2 of the remaining 5
            final int f = (31 - Integer.numberOfLeadingZeros(n)) - 1;
            final List<Integer> batch = new ArrayList<>();
            while (batch.size() < f)
            {
                final int r = alive.get(random.nextInt(alive.size()));
                if (!batch.contains(r))
                {
                    batch.add(r);
                }
            }
            killAll(cluster, batch, killed, alive);
            LocalClusters.awaitExactly(cluster, killed, "random batch " + batch, seed);
        }
    }

    /**
     * A node paused longer than δ is declared dead; once resumed it learns so from the first node it talks to
     * and fences itself with {@link RingwatchConfiguration#EXIT_FENCED}, without disturbing the others' views.
     */
    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"IPC", "UDP"}) // RDMA: RdmaMultiProcessDetectionTest
    void shouldDeclarePausedProcessDeadAndMakeItFenceItself(final TransportMode transport) throws Exception
    {
        if (transport == TransportMode.IPC)
        {
            LongCases.onlyWhenAsked("a pause over IPC (the UDP case runs)");
        }
        final int n = 4;
        final int paused = 2;
        try (LocalCluster cluster = start(n, transport))
        {
            cluster.signal(paused, "STOP");
            try
            {
                assertTrue(cluster.awaitViews(Set.of(paused), 20_000), "others declare the paused node dead");
            }
            finally
            {
                // well under the driver's 5s client liveness timeout, so the paused client resumes intact
                cluster.signal(paused, "CONT");
            }

            assertTrue(cluster.process(paused).waitFor(30, TimeUnit.SECONDS),
                "paused node exits after resuming; log: " + cluster.log(paused));
            assertEquals(RingwatchConfiguration.EXIT_FENCED, cluster.process(paused).exitValue(),
                "exit code of a fenced node; log: " + cluster.log(paused));

            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * SUSPICION_TIMEOUT_NS));
            assertTrue(cluster.awaitViews(Set.of(paused), 1_000), "survivors hold exactly the paused node");
            for (int r = 0; r < n; r++)
            {
                if (r != paused)
                {
                    assertTrue(cluster.process(r).isAlive(), "survivor " + r + " still runs: " + cluster.log(r));
                }
            }
        }
    }

    /**
     * SIGTERM runs the node's shutdown hook, which sends LEAVE: the others learn it as a departure, not a failure.
     */
    @Test
    void shouldAnnounceLeaveWhenNodeProcessIsTerminated() throws Exception
    {
        final int n = 3;
        final int leaver = 1;
        try (LocalCluster cluster = start(n, TransportMode.IPC))
        {
            cluster.process(leaver).destroy();
            assertTrue(cluster.process(leaver).waitFor(30, TimeUnit.SECONDS), "terminated node exits");
            assertTrue(cluster.awaitViews(Set.of(leaver), 20_000), "others learn the departure");
            final int observer = leaver + 1;
            assertEquals(ViewLayout.CAUSE_LEFT, cluster.view(observer).cause(leaver),
                "the leaver's observer got the LEAVE, not a timeout: " + cluster.view(observer));
            assertEquals(ViewLayout.CAUSE_NOTICE, cluster.view(0).cause(leaver), cluster.view(0).toString());
            assertEquals(observer, cluster.view(0).reporter(leaver), "the observer announced it");
            assertEquals(NodeState.LEFT, cluster.view(leaver).state(), cluster.log(leaver));
        }
    }

    private static void awaitSettled(final int n) throws InterruptedException
    {
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(
            ProtocolSettings.defaultSettlePeriodNs(n, SUSPICION_TIMEOUT_NS) + SUSPICION_TIMEOUT_NS));
    }

    private static void killAll(
        final LocalCluster cluster, final List<Integer> victims, final Set<Integer> killed, final List<Integer> alive)
    {
        for (final int victim : victims)
        {
            cluster.kill(victim);
            killed.add(victim);
            alive.remove(Integer.valueOf(victim));
        }
    }

}
