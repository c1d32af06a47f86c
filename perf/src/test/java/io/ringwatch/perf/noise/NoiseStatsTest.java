package io.ringwatch.perf.noise;

import io.ringwatch.perf.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoiseStatsTest
{
    @Test
    void shouldGiveTheStudentIntervalOfAMean()
    {
        final NoiseStats.Interval i = NoiseStats.meanWithInterval(new double[]{1, 2, 3});

        assertEquals(2.0, i.mean(), 1e-12);
        assertEquals(4.303 / Math.sqrt(3), i.halfWidth(), 1e-9);
        assertFalse(i.measurable(), "the interval [-0.48, 4.48] holds 0");
        assertTrue(NoiseStats.meanWithInterval(new double[]{1, 1.1, 0.9}).measurable());
        assertFalse(NoiseStats.meanWithInterval(new double[]{-1, 1, 0.5}).measurable());
        assertFalse(NoiseStats.meanWithInterval(new double[]{5}).measurable());
        assertEquals(0, NoiseStats.meanWithInterval(new double[0]).n());
    }

    @Test
    void shouldFollowTheTTableBeyondItsEnd()
    {
        assertEquals(12.706, NoiseStats.t975(1), 1e-9);
        assertEquals(2.042, NoiseStats.t975(30), 1e-9);
        assertEquals(2.021, NoiseStats.t975(40), 1e-3);
        assertEquals(1.980, NoiseStats.t975(120), 1e-3);
        assertThrows(IllegalArgumentException.class, () -> NoiseStats.t975(0));
    }

    @Test
    void shouldReadHplsRateAndRejectAFailedRun()
    {
        assertEquals(52.4368, Hpl.parseGflops("HPL_Tflops=0.0524368\nHPL_time=0.81\nSuccess=1\n"), 1e-9);
        assertThrows(IllegalStateException.class, () -> Hpl.parseGflops("HPL_Tflops=0\n"));
        assertThrows(IllegalStateException.class, () -> Hpl.parseGflops("StarDGEMM_Gflops=57\n"));
        final String input = Hpl.input(6000, 2, 4);
        assertTrue(input.contains("\n6000         Ns\n") && input.contains("\n2            Ps\n4            Qs\n"),
            input);
    }

    @Test
    void shouldRejectBadFlagsBeforeStartingAnything()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        final PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, Main.run(new String[]{"noise", "--placements", "turbo"}, o, e));
        assertEquals(2, Main.run(new String[]{"noise", "--loads", "linpack"}, o, e));
        assertEquals(2, Main.run(new String[]{"noise", "--etas", "10"}, o, e));
        assertEquals(2, Main.run(new String[]{"noise", "--app-cores", "0-63"}, o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("'turbo'"), err.toString(StandardCharsets.UTF_8));
    }
}
