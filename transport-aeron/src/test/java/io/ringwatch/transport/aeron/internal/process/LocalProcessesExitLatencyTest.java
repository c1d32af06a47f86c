package io.ringwatch.transport.aeron.internal.process;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How fast a daemon learns that a process it launched died: from SIGKILL sent (by another handle, as an outside
 * killer would) to the watcher recording the exit. Prints p50/p99; asserts only that every exit
 * was reported with the right status, the latency being the number to read.
 */
class LocalProcessesExitLatencyTest
{
    private static final int ROUNDS = 40;

    @Test
    void shouldReportEveryKilledChildWithItsStatusAndPrintTheLatency() throws InterruptedException
    {
        final Histogram latency = new Histogram(3);
        for (int round = 0; round < ROUNDS; round++)
        {
            try (LocalProcesses local = LocalProcesses.launch("sleep 60", 1, i -> Map.of()))
            {
                // let the shell exec into sleep, so the kill hits the program itself
                Thread.sleep(20);
                final ProcessHandle outside = ProcessHandle.of(local.pid(0)).orElseThrow();
                final long killedAtNs = System.nanoTime();
                assertTrue(outside.destroyForcibly());
                final long deadlineNs = killedAtNs + TimeUnit.SECONDS.toNanos(5);
                while (local.exitsReported() == 0 && System.nanoTime() - deadlineNs < 0)
                {
                    Thread.onSpinWait();
                }
                assertEquals(1, local.exitsReported(), "round " + round);
                assertEquals(128 + 9, local.exitCode(0), "SIGKILL reported as 128 + 9, round " + round);
                latency.recordValue(Math.max(0, local.exitedAtNs(0) - killedAtNs));
            }
        }
        System.out.printf("local process exit -> daemon (watcher thread in Process.waitFor, SIGKILL from outside): " +
            "p50 %.1f us, p99 %.1f us, max %.1f us over %d kills%n", latency.getValueAtPercentile(50) / 1e3,
            latency.getValueAtPercentile(99) / 1e3, latency.getMaxValue() / 1e3, latency.getTotalCount());
    }
}
