package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PidFdTest
{
    @ParameterizedTest
    @CsvSource({"'exit 7', 7", "'exit 0', 0", "'kill -9 $$', 137"})
    void shouldWakeOnExitAndReadTheStatusWithoutReaping(final String script, final int expected) throws Exception
    {
        Assumptions.assumeTrue(PidFd.available(), () -> "no pidfd here: " + PidFd.unavailableReason());
        final Process child = new ProcessBuilder("/bin/sh", "-c", "sleep 0.3; " + script).start();
        final int fd = PidFd.open(child.pid());
        assertTrue(fd >= 0, "pidfd_open of a running child");
        try
        {
            final PidFd.PollSet set = new PidFd.PollSet(new int[]{fd});
            assertEquals(0, set.await(0), "not exited yet");
            assertFalse(set.exited(0));
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (set.await(100) == 0 && System.nanoTime() - deadlineNs < 0)
            {
                Thread.onSpinWait();
            }
            assertTrue(set.exited(0), "pidfd readable once the child exited");
            final int status = PidFd.exitStatus(fd);
            System.out.println("pidfd exit status of '" + script + "': " + status);
            // the JDK's reaper may win the race to reap; then the status is unknown here and the JDK has it
            assertTrue(status == expected || status == PidFd.UNKNOWN, "status " + status);
            assertEquals(expected, child.waitFor(), "the JDK still reaps it and sees the same status");
            set.remove(0);
            assertEquals(0, set.await(0), "a removed entry is not watched");
        }
        finally
        {
            PidFd.close(fd);
        }
    }
}
