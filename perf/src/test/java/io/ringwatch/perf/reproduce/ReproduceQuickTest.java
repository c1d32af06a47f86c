package io.ringwatch.perf.reproduce;

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
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@code reproduce --quick} once and checks that what it wrote exists and is sane.
 */
class ReproduceQuickTest
{
    private static final long SEED = 11;

    @TempDir
    static Path out;

    private static int exitCode;
    private static String stdout;
    private static String stderr;

    @BeforeAll
    static void runQuickReproduction() throws IOException
    {
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final ByteArrayOutputStream e = new ByteArrayOutputStream();
        exitCode = Reproduce.run(new String[]{"--quick", "--out", out.toString(), "--seed", Long.toString(SEED)},
            new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        stdout = o.toString(StandardCharsets.UTF_8);
        stderr = e.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldFinishWithoutAnySimulationCheckViolation()
    {
        assertEquals(0, exitCode, "seed=" + SEED + "\n" + stdout + "\n" + stderr);
    }

    @Test
    void shouldWriteOneParsableCsvPerExperimentWithSeedAndCommandHeader() throws IOException
    {
        for (final Experiment experiment : Reproduce.experiments())
        {
            final List<String[]> rows = readCsv(out.resolve(experiment.id() + ".csv"));
            assertTrue(rows.size() >= 2, experiment.id() + ": expected a header and data rows, seed=" + SEED);
        }
    }

    @Test
    void shouldGiveTheClosedFormNotPingedProbabilityAtOneHundredThousandNodes() throws IOException
    {
        final List<String[]> rows = readCsv(out.resolve("probing.csv"));
        final int nCol = column(rows.get(0), "n");
        final int pCol = column(rows.get(0), "p_not_pinged");
        boolean found = false;
        for (final String[] row : rows.subList(1, rows.size()))
        {
            if (Integer.parseInt(row[nCol]) == 100_000)
            {
                found = true;
                assertEquals(1 / Math.E, Double.parseDouble(row[pCol]), 1e-4, "seed=" + SEED);
            }
        }
        assertTrue(found, "no n=100000 row in probing.csv, seed=" + SEED);
    }

    @Test
    void shouldMeasureStabilizationNearDeltaMinusHalfEta() throws IOException
    {
        final List<String[]> rows = readCsv(out.resolve("stabilization.csv"));
        final int scenario = column(rows.get(0), "scenario");
        final int first = column(rows.get(0), "first_known_mean_s");
        final int stab = column(rows.get(0), "stabilization_mean_s");
        final int bound = column(rows.get(0), "theorem1_bound_s");
        for (final String[] row : rows.subList(1, rows.size()))
        {
            final double delta = "LowNoise".equals(row[scenario]) ? 60 : 1;
            final double firstKnown = Double.parseDouble(row[first]);
            assertTrue(firstKnown > 0.5 * delta && firstKnown < 3 * delta, String.join(",", row) + " seed=" + SEED);
            assertTrue(Double.parseDouble(row[stab]) >= firstKnown, String.join(",", row) + " seed=" + SEED);
            assertTrue(Double.parseDouble(row[stab]) <= Double.parseDouble(row[bound]),
                String.join(",", row) + " seed=" + SEED);
        }
    }

    @Test
    void shouldWriteNonTrivialPngPlots() throws IOException
    {
        final List<Path> pngs;
        try (Stream<Path> files = Files.list(out))
        {
            pngs = files.filter((p) -> p.toString().endsWith(".png")).toList();
        }
        assertTrue(pngs.size() >= 9, "expected at least 9 plots, got " + pngs);
        for (final Path png : pngs)
        {
            final BufferedImage image = ImageIO.read(png.toFile());
            assertTrue(image != null && image.getWidth() >= 600 && image.getHeight() >= 400, png.toString());
            assertTrue(Files.size(png) > 10_000, png + " is suspiciously small: " + Files.size(png) + " bytes");
            assertTrue(distinctColours(image) > 8, png + " looks blank");
        }
    }

    @Test
    void shouldWriteAReportWithATablePerExperiment() throws IOException
    {
        final String report = Files.readString(out.resolve("REPORT.md"));
        for (final String heading : new String[]{"## 1.", "## 2.", "## 3.", "## 4.", "## 5."})
        {
            assertTrue(report.contains(heading), "missing section " + heading);
        }
        final long tables = report.lines().filter((l) -> l.startsWith("| Quantity | Paper | Ours |")).count();
        assertEquals(5, tables, "one comparison table per experiment");
        assertTrue(!report.contains("VIOLATIONS"), "report lists violations, seed=" + SEED);
    }

    private static List<String[]> readCsv(final Path path) throws IOException
    {
        final List<String> lines = Files.readAllLines(path);
        assertTrue(lines.size() > 3 && lines.get(0).startsWith("# seed=") && lines.get(1).startsWith("# command="),
            path + " must start with # seed= and # command=");
        final List<String[]> rows = new ArrayList<>();
        for (final String line : lines)
        {
            if (!line.startsWith("#"))
            {
                rows.add(line.split(",", -1));
            }
        }
        final int width = rows.get(0).length;
        for (final String[] row : rows.subList(1, rows.size()))
        {
            assertEquals(width, row.length, path + ": ragged row " + String.join(",", row));
            for (final String cell : row)
            {
                if (!cell.isEmpty() && Character.isDigit(cell.charAt(0)))
                {
                    assertTrue(Double.isFinite(Double.parseDouble(cell)) || "NaN".equals(cell),
                        path + ": bad number " + cell);
                }
            }
        }
        return rows;
    }

    private static int column(final String[] header, final String name)
    {
        for (int i = 0; i < header.length; i++)
        {
            if (header[i].equals(name))
            {
                return i;
            }
        }
        throw new AssertionError("no column " + name);
    }

    private static int distinctColours(final BufferedImage image)
    {
        final java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 7)
        {
            for (int x = 0; x < image.getWidth(); x += 7)
            {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
