package io.ringwatch.transport.aeron.client;

import io.ringwatch.transport.aeron.ProcessCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Processes the daemon did not launch attach into a free slot and are watched by their beats: one that stops polling
 * for longer than the timeout is declared dead and announced; one that said it finished is a departure. The daemon
 * is stepped with a test clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatchdogTest
{
    private static final long TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void shouldDeclareAProcessThatStopsPollingDeadAndAFinishedOneDeparted()
    {
        try (DaemonFixture fixture = new DaemonFixture(4, 3))
        {
            fixture.daemon.watchdog(TIMEOUT_NS);
            long nowNs = 1_000;
            try (RingwatchClient hung = RingwatchClient.attach(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 0, (p, c) -> { });
                RingwatchClient done = RingwatchClient.attach(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 1, (p, c) -> { });
                RingwatchClient alive = RingwatchClient.attach(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 2, (p, c) -> { }))
            {
                assertThrows(IllegalStateException.class,
                    () -> RingwatchClient.attach(fixture.dir(), DaemonFixture.CLUSTER_ID, 0, 2, (p, c) -> { }),
                    "a slot holds one process");
                // all beat for a while: nobody is declared anything however long it lasts
                for (int i = 0; i < 50; i++)
                {
                    hung.poll();
                    done.poll();
                    alive.poll();
                    nowNs += TIMEOUT_NS / 4;
                    fixture.daemon.doWork(nowNs);
                }
                assertEquals(0, fixture.daemon.watchdogExpiries());

                done.finish();
                for (int i = 0; i < 8; i++)
                {
                    alive.poll();
                    nowNs += TIMEOUT_NS / 4;
                    fixture.daemon.doWork(nowNs);
                }
                assertEquals(2, fixture.daemon.watchdogExpiries());
                assertEquals(1, fixture.daemon.localFailures());
                assertEquals(1, fixture.daemon.departures());
                assertEquals(ProcessViewLayout.SLOT_DEAD, fixture.daemon.view().slotState(0));
                assertEquals(ProcessViewLayout.SLOT_DEPARTED, fixture.daemon.view().slotState(1));
                assertEquals(ProcessViewLayout.SLOT_ATTACHED, fixture.daemon.view().slotState(2));
                assertEquals(1, fixture.daemon.relay().noticesOriginated());
                assertTrue(alive.isDead(0));
                assertTrue(!alive.isDead(1));
                alive.poll();
                assertEquals(1, alive.failedCount(), "the survivor heard of the hung process, not of the departed one");
                assertEquals(0, alive.failed()[0]);

                // another daemon's process dies: received, pushed; none forwarded (a silent node level has no peers)
                fixture.processDied(1, fixture.layout.process(1, 2));
                alive.poll();
                nowNs += TIMEOUT_NS / 4;
                fixture.daemon.doWork(nowNs);
                assertEquals(1, fixture.counter(ProcessCounter.LOCAL_ALIVE));
                assertEquals(1, fixture.counter(ProcessCounter.LOCAL_DEAD));
                assertEquals(1, fixture.counter(ProcessCounter.LOCAL_DEPARTED));
                assertEquals(1, fixture.counter(ProcessCounter.PROCESS_NOTICES_SENT));
                assertEquals(1, fixture.counter(ProcessCounter.PROCESS_NOTICES_RECEIVED));
                assertEquals(fixture.daemon.relay().noticesForwarded(),
                    fixture.counter(ProcessCounter.PROCESS_NOTICES_FORWARDED));
                assertEquals(2, fixture.counter(ProcessCounter.LOCAL_NOTIFICATIONS_PUSHED) +
                    fixture.counter(ProcessCounter.LOCAL_NOTIFICATIONS_DROPPED), "one push per failure");
                assertEquals(fixture.daemon.notificationsPushed(),
                    fixture.counter(ProcessCounter.LOCAL_NOTIFICATIONS_PUSHED));
            }
        }
    }
}
