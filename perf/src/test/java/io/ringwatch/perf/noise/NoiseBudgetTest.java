package io.ringwatch.perf.noise;

import io.ringwatch.perf.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code noise --budget}: plans only ({@code --dry-run}), so nothing is measured.
 */
class NoiseBudgetTest
{
    private static final Pattern PLANNED =
        Pattern.compile("(\\d+) configuration\\(s\\) x (\\d+) pair\\(s\\), (\\S+) per run: planned about (?:(\\d+)h)?(\\d+)m");

    @Test
    void shouldFitTheDefaultMatrixWithTenPairsIntoTheBudget()
    {
        final String printed = run(0, "noise", "--budget", "45m", "--dry-run");
        final Matcher m = PLANNED.matcher(printed);
        assertTrue(m.find(), printed);
        assertEquals("24", m.group(1), printed);
        assertEquals("10", m.group(2), printed);
        final int minutes = (m.group(4) == null ? 0 : 60 * Integer.parseInt(m.group(4))) + Integer.parseInt(m.group(5));
        assertTrue(minutes <= 45, printed);
        assertTrue(printed.contains("noise: --budget 45m00s: "), printed);
        assertTrue(printed.contains("grace 1s, settle 500ms"), printed);

        final Matcher longer = PLANNED.matcher(run(0, "noise", "--budget", "3h", "--dry-run"));
        assertTrue(longer.find());
        assertTrue(!longer.group(3).equals(m.group(3)), "a longer budget buys longer runs: " + longer.group(3));
    }

    @Test
    void shouldRefuseABudgetTooShortSayingWhatTheShortestPlanTakes()
    {
        final String printed = run(2, "noise", "--budget", "5m", "--dry-run");
        assertTrue(printed.contains("--budget 5m00s is too short for 24 configuration(s) x 10 pair(s)"), printed);
        run(2, "noise", "--budget", "5m", "--quick", "--dry-run");
        run(2, "noise", "--budget", "soon", "--dry-run");
    }

    @Test
    void shouldRefuseCoresTheHostCannotGiveAndALowLatencyPlacementWithoutASpareCorePerAgent()
    {
        final java.util.BitSet allowed = io.ringwatch.nativeconfig.HostCpus.probe().allowedCores();
        final String missing = run(2, "noise", "--cores", allowed.length() + "-" + (allowed.length() + 1), "--dry-run");
        assertTrue(missing.contains("this host cannot give core(s)"), missing);

        // two cores: the application's and one more, where low-latency's node and peer would have to share
        final int first = allowed.nextSetBit(0);
        final int second = allowed.nextSetBit(first + 1);
        final String two = first + "," + second;
        final String refused = run(2, "noise", "--cores", two, "--placements", "low-latency", "--dry-run");
        assertTrue(refused.contains("refused: low-latency η=100us") &&
            refused.contains("needs one spare core per spinning agent (2: this host's 1 and the peer)"), refused);
        // the fresh-start mode still shares one spinning thread, and says so in its results
        run(0, "noise", "--cores", two, "--placements", "low-latency", "--cold", "--dry-run");
        // the default matrix lists what it cannot give as not run instead of stopping
        final String matrix = run(0, "noise", "--cores", two, "--dry-run");
        assertTrue(matrix.contains("24 configuration(s)") &&
            matrix.contains("low-latency η=1ms δ=10ms 4/host ipc (not run: low-latency on cores of its own needs"),
            matrix);
    }

    private static String run(final int expectedExit, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        final int exit = Main.run(args, print, print);
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, exit, printed);
        return printed;
    }
}
