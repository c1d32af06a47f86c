package io.ringwatch.perf.noise;

import io.ringwatch.perf.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@code noise --quick} once (real node processes, a real driver, the load worker) and checks what it wrote.
 */
class NoiseQuickTest
{
    @TempDir
    static Path dir;

    private static int exitCode;
    private static String context;

    @BeforeAll
    static void runQuick()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        exitCode = Main.run(new String[]{"noise", "--quick", "--out", dir.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        context = "seed 1 (default)\n" + out.toString(StandardCharsets.UTF_8) + "\n" + err.toString(StandardCharsets.UTF_8);
    }

    private static String[] summaryRow(final List<String> header) throws IOException
    {
        final List<String> rows = Files.readAllLines(dir.resolve("noise.csv")).stream()
            .filter(l -> !l.startsWith("#")).toList();
        assertEquals(2, rows.size(), context);
        header.addAll(Arrays.asList(rows.get(0).split(",")));
        return rows.get(1).split(",", -1);
    }

    @Test
    void shouldMeasureAtLeastTwoValidPairsWithSeedAndCommandInTheCsv() throws IOException
    {
        assertEquals(0, exitCode, context);
        final List<String> lines = Files.readAllLines(dir.resolve("noise.csv"));
        assertTrue(lines.get(0).startsWith("# seed=1"), lines.get(0));
        assertTrue(lines.get(1).contains("noise --quick"), lines.get(1));
        final List<String> header = new java.util.ArrayList<>();
        final String[] row = summaryRow(header);
        assertEquals("low-noise", row[header.indexOf("placement")], context);
        assertEquals("10000000", row[header.indexOf("eta_ns")], context);
        assertTrue(Integer.parseInt(row[header.indexOf("valid_pairs")]) >= 2, context);
        final long pairs = Files.readAllLines(dir.resolve("noise-pairs.csv")).stream()
            .filter(l -> !l.startsWith("#")).count() - 1;
        assertEquals(3, pairs, context);
    }

    @Test
    void shouldRecordOneEmissionPerScheduledBeatNotPerDutyCycle() throws IOException
    {
        final List<String> header = new java.util.ArrayList<>();
        final String[] row = summaryRow(header);
        final long valid = Long.parseLong(row[header.indexOf("valid_pairs")]);
        final long beats = Long.parseLong(row[header.indexOf("beats")]);
        final long dutyCycles = Long.parseLong(row[header.indexOf("duty_cycles")]);
        // each B window holds a 1 s FWQ run and, where OpenBLAS is installed, a 1 s DGEMM run: at η = 10 ms at least
        // ~100 beats a run, and not the thousands of duty cycles a sleeping agent also runs (it wakes for its
        // suspicion deadline too)
        final int runs = Blas.unavailableReason() == null ? 2 : 1;
        assertTrue(beats >= 75 * runs * valid && beats <= 500 * runs * valid,
            beats + " beats, " + valid + " pairs, " + runs + " run(s) each\n" + context);
        assertTrue(dutyCycles >= beats, context);
        final double p999 = Double.parseDouble(row[header.indexOf("emission_p999_ns")]);
        assertTrue(p999 >= 0 && p999 < 100_000_000, "emission p99.9 " + p999 + " ns not below δ\n" + context);
        // the low-noise agent sleeps to its next deadline, capped at η: about one wake-up per beat, not the
        // thousand a second of a 1 ms cap (a loaded host only oversleeps, so wakes less)
        final double wakeUps = Double.parseDouble(row[header.indexOf("wakeups_per_agent_s")]);
        assertTrue(wakeUps > 0 && wakeUps < 300, wakeUps + " wake-ups/s at η = 10 ms\n" + context);
    }

    @Test
    void shouldRunDgemmWhereOpenBlasIsInstalledElseSayWhy() throws IOException
    {
        final String md = Files.readString(dir.resolve("noise.md"));
        assertTrue(md.contains("A `--quick` run"), md);
        assertTrue(md.contains("bytes allocated inside the timed DGEMM and FWQ loops, all runs: 0\n"), md);
        if (Blas.unavailableReason() != null)
        {
            assertTrue(md.contains("DGEMM: skipped: no CBLAS library"), md);
            return;
        }
        final List<String> header = new java.util.ArrayList<>();
        final String[] row = summaryRow(header);
        final double gflopsA = Double.parseDouble(row[header.indexOf("dgemm_gflops_a")]);
        final double slowdown = Double.parseDouble(row[header.indexOf("dgemm_slowdown")]);
        assertTrue(gflopsA > 0.1, context);
        assertTrue(Double.isFinite(slowdown) && slowdown > -1, context);
        assertTrue(md.contains("HPL: skipped: not asked"), md);
    }

    @Test
    void shouldDrawEveryPlot() throws IOException
    {
        for (final String plot : List.of("slowdown_vs_eta.png", "fwq_percentiles.png", "emission_error_cdf.png",
            "duty_cycle_cdf.png"))
        {
            final BufferedImage image = ImageIO.read(dir.resolve(plot).toFile());
            assertNotNull(image, plot);
            assertTrue(image.getWidth() > 100, plot);
        }
    }
}
