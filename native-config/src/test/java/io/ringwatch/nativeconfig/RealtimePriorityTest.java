package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RealtimePriorityTest
{
    /** Field 41 of /proc/thread-self/stat is the policy (1 = SCHED_FIFO), field 40 the real-time priority. */
    private static String[] statFields() throws Exception
    {
        final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        // the command name in field 2 may hold spaces; everything after its closing parenthesis is space-separated
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    @Test
    void shouldMakeOnlyTheCallingThreadFifoAndRestoreIt() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "not Linux: no /proc/thread-self/stat");
        final AtomicReference<Object> outcome = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                final RealtimePriority.Result result = RealtimePriority.raiseCurrentThread(7);
                if (!result.applied())
                {
                    outcome.set(result);
                    return;
                }
                final String[] raised = statFields();
                final String policy = RealtimePriority.currentPolicy();
                final RealtimePriority.Result restored = RealtimePriority.restoreCurrentThread();
                final String[] after = statFields();
                // fields are numbered from 3 after the command name: policy is field 41, priority 40
                outcome.set(new String[]{raised[40 - 3], raised[41 - 3], policy, String.valueOf(restored.applied()),
                    after[41 - 3]});
            }
            catch (final Exception ex)
            {
                outcome.set(ex);
            }
        });
        thread.start();
        thread.join();

        if (outcome.get() instanceof RealtimePriority.Result result)
        {
            // without the privilege the reason must say what to grant
            assertFalse(result.applied());
            assertTrue(result.reason().contains("RLIMIT_RTPRIO") || result.reason().contains("errno"),
                result.reason());
            assumeTrue(false, "no privilege for SCHED_FIFO here: " + result.reason());
        }
        final String[] seen = (String[])outcome.get();
        assertEquals("7", seen[0], "rt_priority");
        assertEquals("1", seen[1], "policy SCHED_FIFO");
        assertEquals("SCHED_FIFO", seen[2]);
        assertEquals("true", seen[3]);
        assertEquals("0", seen[4], "policy back to SCHED_OTHER");
        assertEquals("SCHED_OTHER", RealtimePriority.currentPolicy(), "the test thread itself was never raised");
    }

    @Test
    void shouldRaiseAnotherThreadByItsIdAndLeaveTheCallerAlone() throws Exception
    {
        assumeTrue(Files.exists(Path.of("/proc/thread-self")), "not Linux: no /proc/thread-self");
        final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicInteger tid = new java.util.concurrent.atomic.AtomicInteger();
        final AtomicReference<String> seenByTarget = new AtomicReference<>();
        final Thread target = new Thread(() ->
        {
            tid.set(NativeThreadId.current());
            started.countDown();
            try
            {
                done.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            seenByTarget.set(RealtimePriority.currentPolicy());
        });
        target.start();
        started.await();

        final RealtimePriority.Result result = RealtimePriority.raiseThread(tid.get(), 6);
        final String policyAfter = RealtimePriority.policyOf(tid.get());
        done.countDown();
        target.join();

        assumeTrue(result.applied(), "no privilege for SCHED_FIFO here: " + result.reason());
        assertEquals("SCHED_FIFO", policyAfter);
        assertEquals("SCHED_FIFO", seenByTarget.get(), "the target thread itself sees its new class");
        assertEquals("SCHED_OTHER", RealtimePriority.currentPolicy(), "the caller was never raised");
    }

    @Test
    void shouldSayWhenTheThreadIsGone() throws Exception
    {
        final java.util.concurrent.atomic.AtomicInteger tid = new java.util.concurrent.atomic.AtomicInteger();
        final Thread gone = new Thread(() -> tid.set(NativeThreadId.current()));
        gone.start();
        gone.join();
        assumeTrue(tid.get() > 0, "no /proc/thread-self");

        final RealtimePriority.Result result = RealtimePriority.raiseThread(tid.get(), 6);
        assumeTrue(!result.reason().contains("RLIMIT_RTPRIO") && !result.reason().contains("JNA") &&
            !result.reason().contains("Linux only"), "cannot ask here: " + result.reason());
        // a tid may be reused by a new thread at once; only when it is not does the call fail
        if (!result.applied())
        {
            assertTrue(result.reason().contains("no thread " + tid.get()), result.reason());
        }
        assertThrows(IllegalArgumentException.class, () -> RealtimePriority.raiseThread(0, 6));
    }

    @Test
    void shouldRejectOutOfRangePriorityNamingIt()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RealtimePriority.raiseCurrentThread(100));
        assertTrue(ex.getMessage().contains("100"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RealtimePriority.raiseCurrentThread(0));
    }
}
