package io.ringwatch.transport.aeron.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A daemon's verdict on its own processes' exits: exit 0 after saying it finished is a departure; exit 0 without
 * saying so, or any other status after saying so, is a failure, announced and marked in the view.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DaemonExitTest
{
    @Test
    void shouldTellDeparturesFromFailures() throws InterruptedException
    {
        try (DaemonFixture fixture = new DaemonFixture(4, 3))
        {
            // local index i exits with status i after a moment
            fixture.daemon.launch("/bin/sh -c 'sleep 0.5; exit $RINGWATCH_LOCAL_INDEX'",
                i -> Map.of(RingwatchClient.ENV_LOCAL_INDEX, Integer.toString(i)));
            // what RingwatchClient.finish() writes, for processes 0 and 2
            fixture.daemon.view().slotState(0, ProcessViewLayout.SLOT_FINISHED);
            fixture.daemon.view().slotState(2, ProcessViewLayout.SLOT_FINISHED);

            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fixture.daemon.departures() + fixture.daemon.localFailures() < 3 && System.nanoTime() - deadline < 0)
            {
                fixture.daemon.doWork(System.nanoTime());
                Thread.sleep(1);
            }
            assertEquals(1, fixture.daemon.departures());
            assertEquals(2, fixture.daemon.localFailures());
            assertEquals(ProcessViewLayout.SLOT_DEPARTED, fixture.daemon.view().slotState(0));
            assertEquals(ProcessViewLayout.SLOT_DEAD, fixture.daemon.view().slotState(1));
            assertEquals(ProcessViewLayout.SLOT_DEAD, fixture.daemon.view().slotState(2));
            assertFalse(fixture.daemon.view().isDead(0), "a departure is not a failure");
            assertTrue(fixture.daemon.view().isDead(1));
            assertTrue(fixture.daemon.view().isDead(2));
            // announced once each, or together when both exits landed in the same duty cycle
            final long broadcasts = fixture.daemon.relay().noticesOriginated();
            assertTrue(broadcasts == 1 || broadcasts == 2, "broadcasts: " + broadcasts);
            assertEquals(2, fixture.daemon.relay().deadProcesses().size());
            assertTrue(fixture.daemon.lastExitToDutyCycleNs() >= 0);
        }
    }
}
