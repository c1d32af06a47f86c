package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.NodeInternals;
import io.ringwatch.transport.aeron.internal.jitter.JitterRecordingAgent;
import io.ringwatch.transport.aeron.jitter.JitterLayout;
import io.ringwatch.transport.aeron.jitter.JitterReader;
import io.ringwatch.transport.aeron.jitter.JitterSnapshot;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitterRecordingTest
{
    private static final long ETA_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(300);

    @Test
    void shouldRecordHowLateEachScheduledBeatLeftAgainstTheAbsoluteSchedule() throws Exception
    {
        final CachedNanoClock clock = new CachedNanoClock();
        clock.update(TimeUnit.SECONDS.toNanos(100));
        try (EmbeddedCluster c = new EmbeddedCluster(3, 71, ETA_NS, 20 * ETA_NS, TransportMode.IPC,
            ctx -> ctx.nanoClock(clock).jitterFile(true).threadingMode(ThreadingMode.UNSTARTED)))
        {
            final Agent[] agents = new Agent[3];
            for (int r = 0; r < 3; r++)
            {
                agents[r] = c.nodes[r].dutyCycleAgent();
                assertInstanceOf(JitterRecordingAgent.class, agents[r]);
                agents[r].onStart();
            }
            // 100 cycles 300 us apart: the beat due at k ms goes out at the first cycle at or after it
            for (int i = 0; i < 100; i++)
            {
                for (final Agent a : agents)
                {
                    a.doWork();
                }
                clock.advance(STEP_NS);
            }
            // now at 30 ms; a stall: the next cycle comes at 33.2 ms and sends the beat due at 30 ms, 3.2 ms late
            clock.advance(3_200_000);
            agents[0].doWork();

            try (JitterReader reader = new JitterReader(
                JitterLayout.fileFor(c.dir.getAbsolutePath(), 71, 0)))
            {
                assertEquals(ETA_NS, reader.heartbeatPeriodNs());
                final JitterSnapshot errors = reader.snapshot(JitterLayout.EMISSION_ERROR);
                // cycles at 0, 0.3, ..., 29.7 ms: beats due at 0..29 ms, then the stalled one
                assertEquals(31, errors.totalCount(), errors.toString());
                // lateness is (300 us - k·1000 us mod 300 us) mod 300: 0, 200 or 100 us
                assertEquals(10, countIn(errors, 0, 0));
                assertEquals(10, countIn(errors, 99_000, 101_000));
                assertEquals(10, countIn(errors, 199_000, 201_000));
                assertEquals(1, countIn(errors, 3_150_000, 3_250_000), errors.toString());
                assertEquals(3_200_000, errors.maxNs(), errors.toString());

                final JitterSnapshot cycles = reader.snapshot(JitterLayout.DUTY_CYCLE);
                assertEquals(101, cycles.totalCount());
                assertEquals(0, cycles.maxNs(), "a cached clock does not move within a cycle");

                // in lockstep every cycle had frames to read; alone, rank 0 runs dry, and the gap after a cycle
                // without work (the idle strategy's sleep) is recorded, one gap per idle cycle
                final JitterSnapshot gapsBefore = reader.snapshot(JitterLayout.IDLE_GAP);
                int work = 1;
                for (int i = 0; i < 100 && work > 0; i++)
                {
                    work = agents[0].doWork();
                }
                assertEquals(0, work, "rank 0 alone runs out of work");
                clock.advance(STEP_NS);
                agents[0].doWork();
                final JitterSnapshot gaps = reader.snapshot(JitterLayout.IDLE_GAP).minus(gapsBefore);
                assertEquals(1, gaps.totalCount(), gaps.toString());
                assertEquals(1, countIn(gaps, STEP_NS - 5_000, STEP_NS + 5_000), gaps.toString());
            }
            assertSame(NodeInternals.agent(c.nodes[0]), ((JitterRecordingAgent)agents[0]).agent());
        }
    }

    @Test
    void shouldRunTheBareAgentWithoutAJitterFile()
    {
        try (EmbeddedCluster c = new EmbeddedCluster(2, 72, ETA_NS, 20 * ETA_NS))
        {
            assertSame(NodeInternals.agent(c.nodes[0]), c.nodes[0].dutyCycleAgent());
            assertTrue(!JitterLayout.fileFor(c.dir.getAbsolutePath(), 72, 0).exists());
        }
    }

    private static long countIn(final JitterSnapshot s, final long fromNs, final long toNs)
    {
        long n = 0;
        for (int i = 0; i < s.bucketCount(); i++)
        {
            if (s.count(i) > 0 && s.lowestValue(i) >= fromNs - 2_000 && s.highestValue(i) <= toNs + 2_000)
            {
                n += s.count(i);
            }
        }
        return n;
    }
}
