package io.ringwatch.perf.live;

import io.ringwatch.perf.Main;
import io.ringwatch.transport.aeron.TransportMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DetectionBenchmarkTest
{
    private static final long SEED = 11;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void shouldKillRealNodesAndWriteTablesWithSaneLatencies() throws Exception
    {
        // generous δ so this 2-core host's scheduling stalls stay well inside it
        final int code = run("detection", "--nodes", "4", "--suspicion-timeouts", "200ms", "--profiles", "low-noise",
            "--transports", "ipc", "--kills", "2", "--seed", Long.toString(SEED), "--settle", "200ms",
            "--miss-timeout", "20s", "--max-starts", "3", "--out", dir.toString());
        final String context = "seed " + SEED + "\n" + out + "\n" + err;

        assertEquals(0, code, context);
        final List<String> csv = Files.readAllLines(dir.resolve("detection.csv"));
        assertEquals(2, csv.size(), context);
        final List<String> header = Arrays.asList(csv.get(0).split(","));
        final String[] row = csv.get(1).split(",", -1);
        assertEquals("4", row[header.indexOf("nodes")], context);
        assertEquals("2", row[header.indexOf("kills")], context);
        assertEquals("0", row[header.indexOf("missed")], context);
        final double detectionMax = Double.parseDouble(row[header.indexOf("detection_max_ms")]);
        final double detectionP50 = Double.parseDouble(row[header.indexOf("detection_p50_ms")]);
        final double stabilizationMax = Double.parseDouble(row[header.indexOf("stabilization_max_ms")]);
        // a kill is noticed no sooner than the signal and, with the emitter silent, within δ plus stalls
        assertTrue(detectionP50 >= 0 && detectionMax <= 10_000, context);
        assertTrue(stabilizationMax >= detectionMax, context);
        assertTrue(Integer.parseInt(row[header.indexOf("leaves")]) >= 1, context);

        final String md = Files.readString(dir.resolve("detection.md"));
        assertTrue(md.contains("| n=4 δ=200ms η=20ms low-noise ipc | 2 | "), md);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("| config | kills |"), context);
    }

    @Test
    void shouldRejectUnknownProfileWithoutStartingAnything()
    {
        assertEquals(2, run("detection", "--profiles", "low-noise,turbo", "--out", dir.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("'turbo'"));
        assertEquals(2, run("detection", "--transports", "tcp"));
        assertEquals(2, run("detection", "--nodes", "2"));
    }

    @Test
    void shouldCountStartsWithoutKillOnlyUntilAKillIsMeasured()
    {
        final ConfigResult result =
            new ConfigResult(new DetectionConfig(4, 10_000_000, 1_000_000, "low-noise", TransportMode.IPC));
        result.recordStart(false, "start failed");
        result.recordStart(true, null);
        assertEquals(2, result.startsWithoutKill());

        result.recordKill(9_000_000, 11_000_000);
        assertEquals(0, result.startsWithoutKill());
        result.recordStart(true, null);
        result.recordMissedKill("missed");
        assertEquals(1, result.startsWithoutKill());
        assertEquals(2, result.kills());
        assertEquals(1, result.missed());
        assertEquals(1, result.failedStarts());
    }

    @Test
    void shouldKeepHalfTheClusterAliveAndBudgetStartsPerSize()
    {
        final DetectionSettings settings = new DetectionSettings(50, 1, 0, 1, 1, 0, 0, 0, 0, false);

        assertEquals(2, new DetectionConfig(4, 10_000_000, 1_000_000, "low-noise", TransportMode.IPC).minAlive());
        assertEquals(3, new DetectionConfig(5, 10_000_000, 1_000_000, "low-noise", TransportMode.IPC).minAlive());
        assertEquals(75, settings.maxStartsFor(new DetectionConfig(4, 10, 1, "low-noise", TransportMode.IPC)));
        assertEquals(21, settings.maxStartsFor(new DetectionConfig(16, 10, 1, "low-noise", TransportMode.IPC)));
        assertThrows(IllegalArgumentException.class,
            () -> new DetectionConfig(8, 1_000_000, 1_000_000, "low-noise", TransportMode.IPC));
    }

    @Test
    void shouldRunLowLatencyOnOneSharedSpinningThreadWhenCoresAreShort() throws Exception
    {
        final int agents = Runtime.getRuntime().availableProcessors() + 2;
        final int code = run("detection", "--nodes", Integer.toString(agents), "--suspicion-timeouts", "200ms",
            "--profiles", "low-latency", "--transports", "ipc", "--kills", "2", "--seed", Long.toString(SEED),
            "--settle", "200ms", "--miss-timeout", "20s", "--max-starts", "3", "--out", dir.toString());
        final String context = "seed " + SEED + "\n" + out + "\n" + err;

        assertEquals(0, code, context);
        final List<String> csv = Files.readAllLines(dir.resolve("detection.csv"));
        final List<String> header = Arrays.asList(csv.get(0).split(","));
        final String[] row = csv.get(1).split(",", -1);
        assertEquals("low-latency-shared", row[header.indexOf("profile")], context);
        assertEquals("2", row[header.indexOf("kills")], context);
        assertEquals("0", row[header.indexOf("missed")], context);
        assertEquals("0", row[header.indexOf("false_positives")], context);
        // crashed agents stop beating: detection cannot come before δ minus one heartbeat period
        assertTrue(Double.parseDouble(row[header.indexOf("detection_p50_ms")]) >= 180, context);
        assertTrue(Files.readString(dir.resolve("detection.md")).contains(" low-latency ipc (shared thread) | 2 | "),
            context);
    }
}
