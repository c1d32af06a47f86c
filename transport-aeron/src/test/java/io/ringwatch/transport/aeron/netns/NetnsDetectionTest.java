package io.ringwatch.transport.aeron.netns;

import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.ringwatch.transport.aeron.netns.NetnsClusters.DELTA_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Four test hosts (network namespaces on one bridge) with 2, 2, 2 and 3 nodes (ranks 0-1, 2-3, 4-5, 6-8), one media
 * driver per host, UDP, in turn on one cluster (starting nine node JVMs and four drivers is most of the cost):
 * SIGKILL of nodes on two hosts, a host's media driver SIGKILLed, cuts shorter than δ/2. Each step asserts the dead
 * set every running node holds, so the order matters. Nine nodes, so that the five left at the end are still a
 * strict majority under the partition rule.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NetnsDetectionTest
{
    private NetnsCluster cluster;
    private final Set<Integer> dead = new TreeSet<>();

    @BeforeAll
    void start() throws InterruptedException
    {
        cluster = NetnsClusters.startAllUp(new int[]{2, 2, 2, 3});
    }

    @AfterAll
    void stop()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    /**
     * One node on host 0 and one on host 2 SIGKILLed together: every survivor learns exactly them, and still holds
     * exactly them 2δ later.
     */
    @Test
    @Order(2)
    void shouldLearnExactlyTheNodesKilledOnTwoHosts() throws InterruptedException
    {
        final long killedNs = cluster.kill(1);
        cluster.kill(4);
        final Set<Integer> victims = Set.of(1, 4);
        dead.addAll(victims);
        assertTrue(cluster.awaitViews(dead, 30_000), "survivors hold exactly " + dead + ":" + cluster.describeViews());
        final long learnedMs = NetnsClusters.learnedAfterMs(cluster, victims, killedNs);
        Thread.sleep(2 * DELTA_MS);
        assertTrue(cluster.awaitViews(dead, 1), "and still do 2δ later:" + cluster.describeViews());
        System.out.printf("SIGKILL of ranks 1 (host 0) and 4 (host 2): every survivor knew both after %d ms " +
            "(delta %d ms)%n", learnedMs, DELTA_MS);
        assertTrue(learnedMs > 0, "learned after the kill: " + learnedMs);
    }

    /**
     * Host 1's driver SIGKILLed: its two nodes stop as DRIVER_LOST within δ and exit 4, having reported no death
     * they did not know before, and the others detect both.
     */
    @Test
    @Order(3)
    void shouldStopNodesOfHostWhoseDriverIsKilledAndHaveOthersDetectThem() throws InterruptedException
    {
        final Set<Integer> before = new TreeSet<>(dead);
        final Set<Integer> lostHost = cluster.ranksOn(1);
        final long killedNs = cluster.killDriver(1);
        for (final int r : lostHost)
        {
            assertTrue(cluster.process(r).waitFor(30, TimeUnit.SECONDS), "node " + r + " exits: " + cluster.log(r));
            final long exitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
            assertEquals(RingwatchConfiguration.EXIT_DRIVER_LOST, cluster.process(r).exitValue(), cluster.log(r));
            final ViewSnapshot view = cluster.view(r);
            final long stoppedMs = TimeUnit.NANOSECONDS.toMillis(view.excludedAtNs() - killedNs);
            System.out.printf("driver of host 1 killed: rank %d stopped as %s after %d ms, process gone after " +
                "%d ms (delta %d ms)%n", r, view.stateName(), stoppedMs, exitedMs, DELTA_MS);
            assertEquals(NodeState.EXCLUDED, view.state(), view.toString());
            assertEquals(ExclusionCause.DRIVER_LOST, view.exclusionCause(), view.toString());
            assertTrue(stoppedMs < DELTA_MS, "stopped within δ: " + view);
            for (int d = 0; d < cluster.size(); d++)
            {
                if (view.isDead(d) != before.contains(d))
                {
                    fail("rank " + r + " reported a death it did not know before losing its driver: " + view);
                }
            }
        }
        dead.addAll(lostHost);
        assertTrue(cluster.awaitViews(dead, 30_000), "the others detect host 1's nodes:" + cluster.describeViews());
        System.out.printf("host 1's nodes detected by every other node after %d ms%n",
            NetnsClusters.learnedAfterMs(cluster, lostHost, killedNs));
    }

    /**
     * Last, on the five nodes left: host 0 off the switch for δ/2, then hosts {0, 2} cut from host 3 for δ/2. Nobody
     * more is excluded, and nothing changes over the 4δ after. Each cut is made and healed by one shell in the
     * switch's namespace; if this host cannot even hold that to 3δ/4, the test cannot judge and says so.
     */
    @Test
    @Order(4)
    void shouldExcludeNobodyForCutsShorterThanHalfDelta() throws InterruptedException
    {
        final long isolatedMs = cluster.hosts().isolateFor(0, DELTA_MS / 2).millis();
        Thread.sleep(2 * DELTA_MS);
        final long splitMs = cluster.hosts().partitionFor(DELTA_MS / 2, new int[]{0, 2}, new int[]{3}).millis();
        System.out.printf("short cuts: host 0 off the switch for %d ms, {0, 2}|{3} split for %d ms (delta %d ms)%n",
            isolatedMs, splitMs, DELTA_MS);
        Assumptions.assumeTrue(isolatedMs <= 3 * DELTA_MS / 4 && splitMs <= 3 * DELTA_MS / 4,
            () -> "this host could not hold a cut of δ/2 = " + DELTA_MS / 2 + " ms: cuts lasted " + isolatedMs +
            " and " + splitMs + " ms");

        Thread.sleep(4 * DELTA_MS);
        assertTrue(cluster.awaitViews(dead, 1), "nobody more excluded than " + dead + ":" + cluster.describeViews());
        for (int r = 0; r < cluster.size(); r++)
        {
            if (!dead.contains(r))
            {
                assertTrue(cluster.isAlive(r), "node " + r + " runs: " + cluster.log(r));
            }
        }
    }
}
