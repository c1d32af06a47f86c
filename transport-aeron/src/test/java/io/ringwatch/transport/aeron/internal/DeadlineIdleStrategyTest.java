package io.ringwatch.transport.aeron.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineIdleStrategyTest
{
    private long now = 1_000_000_000L;
    private long deadline = Long.MAX_VALUE;
    private final DeadlineIdleStrategy idle = new DeadlineIdleStrategy(1_000_000, () -> now).deadlines(() -> deadline);

    @Test
    void shouldSleepUntilTheNextDeadline()
    {
        deadline = now + 300_000;

        assertEquals(300_000, idle.parkNs());
    }

    @Test
    void shouldNeverSleepLongerThanTheCapSoFramesArePolled()
    {
        deadline = now + 50_000_000;

        assertEquals(1_000_000, idle.parkNs());
        deadline = Long.MAX_VALUE;
        assertEquals(1_000_000, idle.parkNs(), "no deadline at all (stopped node) still polls");
    }

    @Test
    void shouldNotSleepPastADeadlineAlreadyDue()
    {
        deadline = now - 5;

        assertTrue(idle.parkNs() < DeadlineIdleStrategy.MIN_PARK_NS);
        idle.idle(0);  // yields rather than parks: returns at once
        idle.idle(3);  // work done: straight back to the duty cycle
    }

    @Test
    void shouldCountSleepsButNotYieldsOrBusyCycles()
    {
        deadline = now + 30_000;
        idle.idle(0);
        idle.idle(0);
        idle.idle(5);
        deadline = now - 5;
        idle.idle(0);

        assertEquals(2, idle.parks(), "two sleeps; a busy cycle and a yield are no wake-up from sleep");
    }

    @Test
    void shouldRejectACapTooShortToBeWorthASleep()
    {
        assertThrows(IllegalArgumentException.class, () -> new DeadlineIdleStrategy(1_000));
    }
}
