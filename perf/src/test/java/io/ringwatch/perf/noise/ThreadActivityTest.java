package io.ringwatch.perf.noise;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads this JVM's own threads from /proc: a thread that sleeps 40 times shows at least 40 wake-ups, one that spins
 * for 50 ms shows at least that much CPU time.
 */
class ThreadActivityTest
{
    private static final int SLEEPS = 40;
    private static final long SPIN_NS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void shouldCountTheWakeUpsAndCpuTimeOfThisJvmsOwnThreads() throws InterruptedException
    {
        final long pid = ProcessHandle.current().pid();
        final Object gate = new Object();
        final CountDownLatch done = new CountDownLatch(2);
        final CountDownLatch release = new CountDownLatch(1);
        final long[] spun = new long[1];
        final Thread sleeper = new Thread(() ->
        {
            if (!awaitGate(gate))
            {
                return;
            }
            for (int i = 0; i < SLEEPS; i++)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            holdUntilSampled(done, release);
        }, "rwt-sleeper");
        final Thread spinner = new Thread(() ->
        {
            if (!awaitGate(gate))
            {
                return;
            }
            // spin for SPIN_NS of its own CPU time, not of wall time: on a loaded host the thread gets only part of
            // the wall time, and the test is about what /proc reports, not about how much CPU the host can spare
            final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            final long start = cpu.getCurrentThreadCpuTime();
            long x = 0;
            while (cpu.getCurrentThreadCpuTime() - start < SPIN_NS)
            {
                x++;
            }
            spun[0] = x;
            holdUntilSampled(done, release);
        }, "rwt-spinner");
        sleeper.start();
        spinner.start();
        // both are waiting on the gate (their sample exists) before the "before" snapshot
        while (sleeper.getState() != Thread.State.WAITING || spinner.getState() != Thread.State.WAITING)
        {
            Thread.sleep(1);
        }
        final Map<Long, ThreadSample> before = ThreadActivity.snapshot(pid);
        assertTrue(before.values().stream().anyMatch(s -> s.name().equals("rwt-sleeper")), before.toString());
        synchronized (gate)
        {
            gate.notifyAll();
        }
        done.await();
        // still alive: a thread that exited has no /proc entry left to read
        final List<ThreadSample> after = ThreadSample.ofProcess(pid);
        release.countDown();
        sleeper.join();
        spinner.join();
        assertTrue(spun[0] > 0);
        final ThreadActivity activity = new ThreadActivity();
        activity.add("test", before, after);
        activity.addSeconds(1);

        final ThreadActivity.Row sleeperRow = row(activity, "rwt-sleeper");
        final ThreadActivity.Row spinnerRow = row(activity, "rwt-spinner");
        assertTrue(sleeperRow.wakeUps >= SLEEPS, sleeperRow.wakeUps + " wake-ups");
        assertTrue(spinnerRow.cpuNs >= SPIN_NS * 9 / 10, spinnerRow.cpuNs + " ns CPU");
        assertTrue(sleeperRow.cpuNs < spinnerRow.cpuNs, sleeperRow.cpuNs + " vs " + spinnerRow.cpuNs);
        final BitSet allowed = io.ringwatch.nativeconfig.HostCpus.probe().allowedCores();
        assertEquals(allowed, spinnerRow.cores);
        assertTrue(activity.wakeUpsPerSecondOn(allowed) >= SLEEPS);
        assertEquals(0.0, activity.wakeUpsPerSecondOn(new BitSet()));
        final String table = activity.table(allowed);
        assertTrue(table.contains("rwt-sleeper"), table);
    }

    @Test
    void shouldTakeTheNameUpToTheLastParenthesisAndFallBackToClockTicks()
    {
        final StringBuilder stat = new StringBuilder("4242 (a) b (c) S");
        // fields 4..39: field 14 utime = 3, 15 stime = 2, 39 processor = 1
        for (int field = 4; field <= 39; field++)
        {
            stat.append(' ').append(field == 14 ? "3" : field == 15 ? "2" : field == 39 ? "1" : "0");
        }
        final String status = "Name:\tx\nCpus_allowed_list:\t0-1,3\nvoluntary_ctxt_switches:\t17\n" +
            "nonvoluntary_ctxt_switches:\t5\n";
        final ThreadSample ticks = ThreadSample.parse(4242, stat.toString(), status, null);
        assertEquals("a) b (c", ticks.name());
        assertEquals(5 * ThreadSample.NS_PER_CLOCK_TICK, ticks.cpuNs());
        assertEquals(17, ticks.voluntary());
        assertEquals(5, ticks.involuntary());
        assertEquals(1, ticks.lastCpu());
        assertEquals(io.ringwatch.nativeconfig.CpuList.parse("0,1,3"), ticks.allowed());
        assertEquals(123_456, ThreadSample.parse(4242, stat.toString(), status, "123456 99 7\n").cpuNs());
    }

    @Test
    void shouldFindNoThreadsOfAProcessThatIsGone() throws Exception
    {
        final Process p = new ProcessBuilder("true").start();
        p.waitFor();
        assertFalse(p.isAlive());
        assertTrue(ThreadSample.ofProcess(p.pid()).isEmpty());
    }

    private static boolean awaitGate(final Object gate)
    {
        synchronized (gate)
        {
            try
            {
                gate.wait();
                return true;
            }
            catch (final InterruptedException ex)
            {
                return false;
            }
        }
    }

    private static void holdUntilSampled(final CountDownLatch done, final CountDownLatch release)
    {
        done.countDown();
        try
        {
            release.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadActivity.Row row(final ThreadActivity activity, final String name)
    {
        final ThreadActivity.Row row = activity.rows().stream().filter(r -> r.thread.equals(name)).findFirst()
            .orElse(null);
        assertNotNull(row, name + " not in " + activity.rows().stream().map(r -> r.thread).toList());
        return row;
    }
}
