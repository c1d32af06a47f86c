package io.ringwatch.transport.aeron.internal;

import io.ringwatch.nativeconfig.NativeThreadId;
import io.ringwatch.nativeconfig.RealtimePriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RealtimeSwitchTest
{
    @Test
    void shouldRaiseTheAgentThreadFromItsHelperOnlyWhenAsked() throws Exception
    {
        assumeTrue(RealtimePriority.probe().applied(), "no privilege for SCHED_FIFO here: " +
            RealtimePriority.probe().reason());
        final AtomicReference<String> outcome = new AtomicReference<>();
        final CountDownLatch switched = new CountDownLatch(1);
        try (RealtimeSwitch realtime = new RealtimeSwitch("test-rt-switch", 4, s ->
        {
            outcome.set(s);
            switched.countDown();
        }))
        {
            final CountDownLatch captured = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final AtomicReference<String> policyAtCapture = new AtomicReference<>();
            final AtomicReference<String> policyAfter = new AtomicReference<>();
            final Thread agent = new Thread(() ->
            {
                realtime.captureCurrentThread();
                policyAtCapture.set(RealtimePriority.currentPolicy());
                captured.countDown();
                try
                {
                    release.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                policyAfter.set(RealtimePriority.currentPolicy());
            }, "test-agent");
            agent.start();
            captured.await();

            assertFalse(switched.await(200, TimeUnit.MILLISECONDS), "nothing happens before the agent asks");
            assertEquals("SCHED_OTHER", policyAtCapture.get());
            assertNotEquals(NativeThreadId.UNKNOWN, realtime.agentTid(), "the agent's kernel id is known");

            realtime.switchNow();
            assertTrue(switched.await(10, TimeUnit.SECONDS), "the helper switched the agent");
            assertEquals("SCHED_FIFO", RealtimePriority.policyOf(realtime.agentTid()));
            release.countDown();
            agent.join();

            assertEquals("SCHED_FIFO", policyAfter.get(), "the agent thread runs real-time from then on");
            assertTrue(outcome.get().startsWith("SCHED_FIFO priority 4 (set by a helper thread in "), outcome.get());
            assertEquals("SCHED_OTHER", RealtimePriority.currentPolicy(), "the test thread was never raised");
        }
    }

    @Test
    void shouldEndTheWaitingHelperOnCloseWithoutSwitching() throws Exception
    {
        final AtomicReference<String> outcome = new AtomicReference<>();
        final RealtimeSwitch realtime = new RealtimeSwitch("test-rt-switch", 4, outcome::set);
        final Thread agent = new Thread(realtime::captureCurrentThread, "test-agent");
        agent.start();
        agent.join();

        realtime.close();
        Thread.sleep(100);
        assertNull(outcome.get(), "closed before the agent asked: no switch");
    }
}
