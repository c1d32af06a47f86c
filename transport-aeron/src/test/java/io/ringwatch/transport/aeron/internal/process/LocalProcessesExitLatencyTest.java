package io.ringwatch.transport.aeron.internal.process;

import io.ringwatch.nativeconfig.PidFd;
import io.ringwatch.nativeconfig.RealtimePriority;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How fast a daemon learns that a process it launched died: from SIGKILL sent (by another handle, as an outside
 * killer would) to the watcher recording the exit: woken by a pidfd or by the JDK's reaper through
 * {@link Process#waitFor()}, in the ordinary scheduler (priority 0) or {@code SCHED_FIFO} 1 (skipped where the host
 * refuses real-time). Prints p50/p99 and the load; asserts only that
 * every exit was reported with the right status, the latency being the number to read.
 */
class LocalProcessesExitLatencyTest
{
    private static final int ROUNDS = Integer.getInteger("ringwatch.test.exitRounds", 40);

    @ParameterizedTest
    @CsvSource({"true,0", "true,1", "false,0", "false,1"})
    void shouldReportEveryKilledChildWithItsStatusAndPrintTheLatency(final boolean pidfd, final int watcherPriority)
        throws InterruptedException
    {
        Assumptions.assumeTrue(!pidfd || PidFd.available(), () -> "no pidfd here: " + PidFd.unavailableReason());
        if (watcherPriority > 0)
        {
            final RealtimePriority.Result probe = RealtimePriority.probe();
            Assumptions.assumeTrue(probe.applied(), "no SCHED_FIFO here: " + probe.reason());
        }
        final Histogram latency = new Histogram(3);
        final double loadBefore = load();
        long statusesFromPidFd = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            try (LocalProcesses local = LocalProcesses.launch("sleep 60", 1, i -> Map.of(), watcherPriority, pidfd))
            {
                // let the shell exec into sleep, so the kill hits the program itself
                Thread.sleep(20);
                final ProcessHandle outside = ProcessHandle.of(local.pid(0)).orElseThrow();
                final long killedAtNs = System.nanoTime();
                assertTrue(outside.destroyForcibly());
                final long deadlineNs = killedAtNs + TimeUnit.SECONDS.toNanos(5);
                while (local.exitsReported() == 0 && System.nanoTime() - deadlineNs < 0)
                {
                    // not a spin: on a small host a spinning test thread takes the core the victim needs to exit
                    LockSupport.parkNanos(50_000);
                }
                assertEquals(1, local.exitsReported(), "round " + round);
                assertEquals(128 + 9, local.exitCode(0), "SIGKILL reported as 128 + 9, round " + round);
                assertEquals(watcherPriority > 0 ? "SCHED_FIFO priority " + watcherPriority : "",
                    local.watcherScheduling());
                assertEquals(pidfd ? "pidfd" : "Process.waitFor", local.mechanism());
                latency.recordValue(Math.max(0, local.exitedAtNs(0) - killedAtNs));
                statusesFromPidFd += local.statusesFromPidFd();
            }
        }
        System.out.printf("local process exit -> daemon (watcher in %s, %s, SIGKILL from " +
            "outside): p50 %.1f us, p99 %.1f us, max %.1f us over %d kills (status read from the pidfd before the " +
            "JDK reaped: %d); load average %.1f -> %.1f%n",
            pidfd ? "poll on pidfds" : "Process.waitFor",
            watcherPriority > 0 ? "SCHED_FIFO " + watcherPriority : "ordinary scheduler",
            latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
            latency.getMaxValue() / 1e3, latency.getTotalCount(), statusesFromPidFd, loadBefore, load());
    }

    private static double load()
    {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
