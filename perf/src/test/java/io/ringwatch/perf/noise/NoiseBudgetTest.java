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
