package io.ringwatch.perf.jmh;

import io.ringwatch.core.codec.HeartbeatFlyweight;
import io.ringwatch.core.codec.RejectReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.infra.Blackhole;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmarks' fixtures, driven by hand without JMH: a benchmark whose setup no longer reaches the state it
 * claims to measure fails here, in the build, rather than producing a plausible number for the wrong path.
 * No timing is asserted.
 */
class BenchmarkFixturesTest
{
    private static final String BLACKHOLE_CHALLENGE =
        "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

    @ParameterizedTest
    @ValueSource(ints = {16, 262_144})
    void shouldKeepDutyCycleInSteadyStateWithOneHeartbeatPerPeriod(final int clusterSize)
    {
        final DetectorNodeDutyCycleBenchmark benchmark = new DetectorNodeDutyCycleBenchmark();
        benchmark.clusterSize = clusterSize;
        benchmark.setUp();

        int work = 0;
        final int periods = 500;
        for (int i = 0; i < periods * DetectorNodeDutyCycleBenchmark.CALLS_PER_PERIOD; i++)
        {
            work += benchmark.dutyCycle();
        }

        // each period: one heartbeat emitted and one slot progress seen
        assertEquals(2 * periods, work, "work done over " + periods + " periods");
        benchmark.checkSteadyState();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 64})
    void shouldMeasureOnlyDuplicatesInOnNoticeBenchmark(final int broadcastsInFlight)
    {
        final OnNoticeBenchmark benchmark = new OnNoticeBenchmark();
        benchmark.broadcastsInFlight = broadcastsInFlight;
        benchmark.setUp();

        final long before = benchmark.duplicateNotice();
        long after = before;
        for (int i = 0; i < 1_000; i++)
        {
            after = benchmark.duplicateNotice();
        }

        assertEquals(before + 1_000, after, "every replayed copy counts as a duplicate");
        benchmark.checkOnlyDuplicates();
    }

    @ParameterizedTest
    @CsvSource({"doubleHypercube, 0", "doubleHypercube, 16", "binomialGraph, 0", "binomialGraph, 16"})
    void shouldProduceScheduleTargetsForEveryPair(final String schedule, final int excludedCount)
    {
        final ScheduleBenchmark benchmark = new ScheduleBenchmark();
        benchmark.schedule = schedule;
        benchmark.clusterSize = 1024;
        benchmark.excludedCount = excludedCount;
        benchmark.setUp();

        for (int i = 0; i < 2_048; i++)
        {
            final int count = benchmark.neighbours();
            assertTrue(count > 0, schedule + ": pair " + i + " has no forwarding targets");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 64})
    void shouldEncodeNoticesThatTheDecoderAccepts(final int deadCount)
    {
        final CodecBenchmark.NoticeState state = new CodecBenchmark.NoticeState();
        state.deadCount = deadCount;
        state.setUp();

        final CodecBenchmark benchmark = new CodecBenchmark();
        final Blackhole blackhole = new Blackhole(BLACKHOLE_CHALLENGE);
        benchmark.noticeRoundTrip(state, blackhole);
        assertEquals(deadCount, state.decoder.notice().deadSet().size());
        benchmark.noticeDecode(state, blackhole);
        assertEquals(deadCount, state.decoder.notice().deadSet().size());
    }

    @Test
    void shouldRoundTripHeartbeatsWithGrowingCounter()
    {
        final CodecBenchmark.HeartbeatState state = new CodecBenchmark.HeartbeatState();
        final CodecBenchmark benchmark = new CodecBenchmark();
        final Blackhole blackhole = new Blackhole(BLACKHOLE_CHALLENGE);
        for (int i = 1; i <= 3; i++)
        {
            benchmark.heartbeatRoundTrip(state, blackhole);
            assertEquals(i, state.decoder.heartbeatCounter());
        }
        assertEquals(RejectReason.NONE, state.decoder.decode(state.buffer, 0, HeartbeatFlyweight.LENGTH));
    }

    @Test
    void shouldSignAndVerifyTheAuthBenchmarkFrameAndRefuseTheForgedOne()
    {
        final AuthBenchmark.FrameState state = new AuthBenchmark.FrameState();
        final AuthBenchmark benchmark = new AuthBenchmark();
        final Blackhole blackhole = new Blackhole(BLACKHOLE_CHALLENGE);

        benchmark.sign(state);
        assertTrue(benchmark.verify(state));
        assertFalse(benchmark.verifyForgedAgainstThreeKeys(state));
        for (int i = 1; i <= 3; i++)
        {
            benchmark.heartbeatSendAndReceive(state, blackhole);
            assertEquals(i, state.decoder.heartbeatCounter());
        }
        assertEquals(RejectReason.REPLAYED, state.decoder.decode(state.buffer, 0, HeartbeatFlyweight.LENGTH));
    }
}
