package io.ringwatch.perf;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String lastLine()
    {
        final String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\\R");
        return lines[lines.length - 1];
    }

    @Test
    void shouldRunSimulationsAndEndWithJsonSummary()
    {
        final int code = run("simulate", "--nodes", "64", "--failures", "5", "--placement", "contiguous",
            "--one-port", "--runs", "3", "--seed", "7", "--threads", "2");

        assertEquals(0, code, out + "\n" + err);
        final String json = lastLine();
        assertTrue(json.startsWith("{\"nodes\":64,\"failures\":5,\"placement\":\"contiguous\""), json);
        assertTrue(json.contains("\"runs\":3") && json.contains("\"seed\":7"), json);
        assertTrue(json.contains("\"heartbeatPeriodMs\":100.0") && json.contains("\"suspicionTimeoutMs\":1000.0"),
            json);
        assertTrue(json.contains("\"violations\":0") && json.contains("\"boundViolations\":0"), json);
        assertTrue(json.contains("\"boundChecked\":3"), json);
        assertTrue(json.contains("\"stabilizationMs\":{\"mean\":") && json.contains("\"firstKnownMs\":{"), json);
        assertTrue(json.contains("\"messages\":{\"heartbeat\":") && json.endsWith("}"), json);
    }

    @Test
    void shouldGiveTheSameSummaryWhateverTheThreadCount()
    {
        run("simulate", "--nodes", "64", "--failures", "3", "--runs", "4", "--threads", "1");
        final String oneThread = lastLine().replaceAll(",\"threads\".*?,\"violations\"", ",\"violations\"")
            .replaceAll(",\"eventsPerSec\".*", "");
        out.reset();
        run("simulate", "--nodes", "64", "--failures", "3", "--runs", "4", "--threads", "3");
        final String threeThreads = lastLine().replaceAll(",\"threads\".*?,\"violations\"", ",\"violations\"")
            .replaceAll(",\"eventsPerSec\".*", "");

        assertEquals(oneThread, threeThreads);
    }

    @Test
    void shouldExitNonZeroWhenRunsViolateProperties()
    {
        // heavy loss against a timeout of three periods: live nodes miss three beats and get suspected (under the
        // paper's rule: the majority rule's probes would find them alive)
        final int code = run("simulate", "--nodes", "16", "--heartbeat-period", "1ms", "--suspicion-timeout", "3ms",
            "--tau", "100us", "--loss", "0.6", "--policy", "none");

        assertEquals(1, code, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRejectBadFlagsWithExitCodeTwoAndTheOffendingValue()
    {
        assertEquals(2, run("simulate", "--heartbeat-period", "10x"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("'10x'"));
        assertEquals(2, run("simulate", "--placement", "sideways"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("'sideways'"));
        assertEquals(2, run("simulate", "--nodes", "1"));
        assertEquals(2, run("simulate", "--frobnicate"));
        assertEquals(2, run("no-such-command"));
        assertEquals(2, run());
    }

    @Test
    void shouldNameTheNewSpellingOfEveryOldOneAndRequireUnits()
    {
        assertUsageError("--eta was renamed --heartbeat-period", "simulate", "--eta", "100ms");
        assertUsageError("--delta was renamed --suspicion-timeout", "simulate", "--delta", "1s");
        assertUsageError("--period was renamed --heartbeat-period", "heartbeat-path", "--period", "1ms");
        assertUsageError("--timeouts was renamed --suspicion-timeouts", "detection", "--timeouts", "10ms");
        assertUsageError("--eta-ratio was renamed --heartbeat-period-ratio", "detection", "--eta-ratio", "10");
        assertUsageError("--suspicion-timeout '10' needs a unit: 10ms, 10s, 10us or 10ns",
            "simulate", "--suspicion-timeout", "10");
        assertUsageError("--suspicion-timeouts '5' needs a unit", "detection", "--suspicion-timeouts", "10ms,5");
    }

    private void assertUsageError(final String expected, final String... args)
    {
        err.reset();
        assertEquals(2, run(args), String.join(" ", args));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(expected), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRejectZeroWhereASettingNeedsAPositiveDuration()
    {
        assertEquals(2, run("simulate", "--heartbeat-period", "0ms"));
        assertEquals(2, run("simulate", "--tau", "0s"));
        assertEquals(2, run("heartbeat-path", "--heartbeat-period", "0ms"));
        assertEquals(2, run("detection", "--miss-timeout", "0s"));
    }
}
