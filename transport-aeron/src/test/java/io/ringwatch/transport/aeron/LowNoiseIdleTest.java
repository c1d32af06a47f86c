package io.ringwatch.transport.aeron;

import io.ringwatch.core.config.Durations;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.aeron.internal.DeadlineIdleStrategy;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The low-noise agent sleeps to its next deadline with an idle cap of η by default: how often it wakes, and that
 * it still detects. Prints the wake-ups per second of one agent with the old fixed 1 ms cap and with the default,
 * a number that depends on η, not much on the host's load (a loaded host only oversleeps, so wakes less).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LowNoiseIdleTest
{
    private static final long HEARTBEAT_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long OLD_CAP_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long WINDOW_MS = 2_000;

    private EmbeddedCluster cluster;

    @AfterEach
    void close()
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void shouldCapTheSleepAtTheHeartbeatPeriodByDefault()
    {
        final RingwatchContext ctx = context(-1).conclude();
        assertEquals(HEARTBEAT_NS, ctx.idleMaxSleepNs());
        assertEquals(HEARTBEAT_NS, ((DeadlineIdleStrategy)ctx.idleStrategy()).maxParkNs());

        final RingwatchContext capped = context(OLD_CAP_NS).conclude();
        assertEquals(OLD_CAP_NS, ((DeadlineIdleStrategy)capped.idleStrategy()).maxParkNs());

        final long slow = TimeUnit.SECONDS.toNanos(5);
        final RingwatchContext slowBeat = new RingwatchContext().authMode(AuthMode.OFF)
            .cluster(new ClusterConfig(1, slow, 10 * slow, members()))
            .rank(0).profile(TuningProfile.LOW_NOISE).conclude();
        assertEquals(RingwatchConfiguration.IDLE_MAX_SLEEP_LIMIT_NS, slowBeat.idleMaxSleepNs(),
            "the Aeron client on the agent thread must still be served within its keepalive");

        final IllegalArgumentException tooShort =
            assertThrows(IllegalArgumentException.class, () -> context(1_000).conclude());
        assertTrue(tooShort.getMessage().contains(RingwatchConfiguration.IDLE_MAX_SLEEP_PROP_NAME),
            tooShort.getMessage());
        assertThrows(IllegalArgumentException.class, () -> context(TimeUnit.SECONDS.toNanos(2)).conclude());
    }

    @Test
    void shouldWakeAboutOncePerHeartbeatPeriodAndStillDetect() throws InterruptedException
    {
        final double oldRate = wakeUpsPerSecond(OLD_CAP_NS);
        final double newRate = wakeUpsPerSecond(-1);
        System.out.printf("low-noise agent at eta=%s delta=%s: %.0f wake-ups/s with the 1 ms cap, %.0f with the " +
            "default cap (eta)%n", Durations.format(HEARTBEAT_NS), Durations.format(TIMEOUT_NS), oldRate, newRate);

        // one wake per beat, plus the odd one for a frame that came in while busy: well under 3 per η
        assertTrue(newRate < 3.0 * TimeUnit.SECONDS.toNanos(1) / HEARTBEAT_NS, "wake-ups/s " + newRate);
        assertTrue(newRate * 2 < oldRate, "the 1 ms cap wakes far more often: " + oldRate + " vs " + newRate);
    }

    private double wakeUpsPerSecond(final long capNs) throws InterruptedException
    {
        cluster = new EmbeddedCluster(3, 41, HEARTBEAT_NS, TIMEOUT_NS, TransportMode.IPC, ctx -> ctx
            .threadingMode(ThreadingMode.DEDICATED).profile(TuningProfile.LOW_NOISE).idleMaxSleepNs(capNs));
        final DeadlineIdleStrategy idle = (DeadlineIdleStrategy)cluster.nodes[0].context().idleStrategy();
        assertEquals(capNs < 0 ? HEARTBEAT_NS : capNs, idle.maxParkNs());
        try (ViewReader reader0 = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 41, 0));
            ViewReader reader1 = new ViewReader(ViewLayout.fileFor(cluster.dir.getAbsolutePath(), 41, 1)))
        {
            final ViewSnapshot view0 = new ViewSnapshot();
            final ViewSnapshot view1 = new ViewSnapshot();
            Await.until(30, () -> reader0.read(view0).heartbeatProgress() > 10, "rank 0 hears rank 2");

            final long parksBefore = idle.parks();
            final long startNs = System.nanoTime();
            Thread.sleep(WINDOW_MS);
            final double rate = (idle.parks() - parksBefore) * 1e9 / (System.nanoTime() - startNs);

            final long killedNs = System.nanoTime();
            cluster.nodes[2].close();
            Await.until(30, () -> reader0.read(view0).isDead(2) && reader1.read(view1).isDead(2),
                "ranks 0 and 1 learn that rank 2 stopped");
            System.out.printf("cap %s: rank 2 closed, both survivors knew within %.1f ms (delta %s)%n",
                capNs < 0 ? "eta" : Durations.format(capNs), (System.nanoTime() - killedNs) / 1e6,
                Durations.format(TIMEOUT_NS));
            assertEquals(0, view0.deadCount() - 1, "only rank 2 is dead");
            return rate;
        }
        finally
        {
            cluster.close();
            cluster = null;
        }
    }

    private static RingwatchContext context(final long capNs)
    {
        return new RingwatchContext().authMode(AuthMode.OFF)
            .cluster(new ClusterConfig(1, HEARTBEAT_NS, TIMEOUT_NS, members()))
            .rank(0).profile(TuningProfile.LOW_NOISE).idleMaxSleepNs(capNs);
    }

    private static List<ClusterConfig.Member> members()
    {
        return List.of(
            new ClusterConfig.Member(0, "localhost", 20100, 20101),
            new ClusterConfig.Member(1, "localhost", 20102, 20103));
    }
}
