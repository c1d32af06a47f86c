package io.ringwatch.transport.aeron.client;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Local notification latency, daemon to process: from the daemon stamping a failure on its IPC stream to the
 * client's callback, over {@value #FAILURES} failures paced {@value #GAP_US} µs apart, for a busy-spinning and for a
 * sleeping (100 µs) client, each with the Aeron conductor invoked from its poll and on its own thread. Prints
 * p50/p99/max; asserts every failure arrives once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProcessNotificationLatencyTest
{
    private static final int FAILURES = 2000;
    private static final int GAP_US = 300;

    @ParameterizedTest
    @EnumSource(RingwatchClient.ConductorMode.class)
    void busySpinningClient(final RingwatchClient.ConductorMode mode) throws Exception
    {
        measure("busy-spin", new BusySpinIdleStrategy(), mode);
    }

    @ParameterizedTest
    @EnumSource(RingwatchClient.ConductorMode.class)
    void sleepingClient(final RingwatchClient.ConductorMode mode) throws Exception
    {
        measure("sleep-100us", new SleepingIdleStrategy(100_000), mode);
    }

    private static void measure(final String name, final IdleStrategy idle, final RingwatchClient.ConductorMode mode)
        throws Exception
    {
        try (DaemonFixture fixture = new DaemonFixture(2, FAILURES + 16))
        {
            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            final AtomicBoolean attached = new AtomicBoolean();
            final int[] delivered = new int[1];
            final Thread client = new Thread(() ->
            {
                final RingwatchClient[] self = new RingwatchClient[1];
                try (RingwatchClient c = RingwatchClient.attach(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 0,
                    (process, cause) ->
                    {
                        final long sentNs = self[0].notificationSentNs();
                        if (sentNs != 0)
                        {
                            latency.recordValue(Math.max(0, System.nanoTime() - sentNs));
                        }
                        delivered[0]++;
                    }, mode))
                {
                    self[0] = c;
                    attached.set(true);
                    while (delivered[0] < FAILURES)
                    {
                        idle.idle(c.poll());
                    }
                }
            }, "client");
            client.start();
            while (!attached.get())
            {
                Thread.sleep(1);
            }
            Thread.sleep(200);

            final int first = fixture.layout.firstProcess(1);
            for (int i = 0; i < FAILURES; i++)
            {
                fixture.processDied(1, first + i);
                final long untilNs = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(GAP_US);
                while (System.nanoTime() - untilNs < 0)
                {
                    Thread.onSpinWait();
                }
            }
            client.join(TimeUnit.SECONDS.toMillis(30));
            assertEquals(FAILURES, delivered[0]);
            System.out.printf("daemon -> process notification (%s client, conductor %s, IPC): p50 %.1f us, " +
                "p99 %.1f us, max %.1f us over %d (%d found in the view instead)%n", name, mode,
                latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
                latency.getMaxValue() / 1e3, latency.getTotalCount(), FAILURES - latency.getTotalCount());
        }
    }
}
