package io.ringwatch.perf;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Holds the simulator's behaviour still while the protocol core is restructured: each seeded {@code simulate} run
 * listed in {@code golden/cases.tsv} must print exactly what its {@code golden/NAME.out} holds, wall-clock figures
 * masked. A change of behaviour goes in a commit of its own that regenerates the files with
 * {@code mvn -pl perf test -Dtest=GoldenSimulationTest -Dringwatch.golden.update=src/test/resources/golden} and says
 * why.
 */
class GoldenSimulationTest
{
    private static final String UPDATE_DIR = System.getProperty("ringwatch.golden.update");
    private static final Pattern EVENTS_RATE = Pattern.compile("^(events: \\d+) \\(.*$", Pattern.MULTILINE);
    private static final Pattern JSON_WALL_CLOCK =
        Pattern.compile(",\"eventsPerSec\":\\d+,\"wallMs\":\\d+,\"heapMb\":\\d+");

    static List<Arguments> cases() throws IOException
    {
        final List<Arguments> cases = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(resource("cases.tsv"),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = reader.readLine()) != null)
            {
                if (line.isBlank() || line.startsWith("#"))
                {
                    continue;
                }
                final String[] nameAndArgs = line.split("\t", 2);
                cases.add(Arguments.of(nameAndArgs[0], nameAndArgs[1]));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldPrintTheRecordedOutput(final String name, final String args) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final List<String> argv = new ArrayList<>(List.of("simulate"));
        argv.addAll(List.of(args.trim().split("\\s+")));
        final int code = Main.run(argv.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        final String actual = "exit " + code + "\n" + masked(out.toString(StandardCharsets.UTF_8));

        if (UPDATE_DIR != null)
        {
            Files.writeString(Path.of(UPDATE_DIR, name + ".out"), actual, StandardCharsets.UTF_8);
            return;
        }
        final InputStream expected = GoldenSimulationTest.class.getResourceAsStream("/golden/" + name + ".out");
        assertNotNull(expected, "no golden/" + name + ".out: record it with -Dringwatch.golden.update=DIR");
        try (expected)
        {
            assertEquals(new String(expected.readAllBytes(), StandardCharsets.UTF_8), actual,
                "simulate " + args + " no longer prints its golden output");
        }
    }

    static String masked(final String output)
    {
        return JSON_WALL_CLOCK.matcher(EVENTS_RATE.matcher(output).replaceAll("$1")).replaceAll("");
    }

    private static InputStream resource(final String name)
    {
        final InputStream in = GoldenSimulationTest.class.getResourceAsStream("/golden/" + name);
        if (in == null)
        {
            throw new IllegalStateException("golden/" + name + " is missing from the test resources");
        }
        return in;
    }
}
