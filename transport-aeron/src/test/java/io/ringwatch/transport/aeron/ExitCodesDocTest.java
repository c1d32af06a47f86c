package io.ringwatch.transport.aeron;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One list of exit codes: the table in docs/operations.md, what {@code ringwatch.jar --help} prints (the real
 * command), and the node unit's {@code RestartPreventExitStatus}, which must be exactly the codes the table says are
 * not restarted. The processes' own codes are run by the tests that cause them: 0 and 5 and 78
 * ({@code SystemdUnitsTest}), 3 ({@code MultiProcessDetectionTest}), 4 ({@code DriverLossTest}), 77
 * ({@code WrongKeyTest}), 0 on SIGTERM ({@code OperatorStopsTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExitCodesDocTest
{
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static final Path NODE_UNIT = Path.of("src", "main", "dist", "systemd", "ringwatch-node@.service");

    @TempDir
    Path tmp;

    @Test
    void shouldListTheSameExitCodesInTheDocsTheHelpAndTheNodeUnit() throws Exception
    {
        final Set<Integer> documented = new TreeSet<>();
        final Set<Integer> documentedNotRestarted = new TreeSet<>();
        final Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\|(.*)$").matcher(Files.readString(OPERATIONS));
        while (row.find())
        {
            documented.add(Integer.valueOf(row.group(1)));
            if (row.group(2).contains("**not restarted**"))
            {
                documentedNotRestarted.add(Integer.valueOf(row.group(1)));
            }
        }

        final File log = tmp.resolve("help.log").toFile();
        assertEquals(0, Cli.run(log, "--help"), Cli.read(log));
        final String help = Cli.read(log);
        final Set<Integer> helped = new TreeSet<>();
        final Matcher line = Pattern.compile("(?m)^  (\\d+) +\\S").matcher(help.substring(help.indexOf("exit codes")));
        while (line.find())
        {
            helped.add(Integer.valueOf(line.group(1)));
        }
        assertEquals(documented, helped, "docs/operations.md's table and ringwatch.jar --help:\n" + help);

        final Set<Integer> prevented = new TreeSet<>();
        for (final String value : SystemdUnit.read(NODE_UNIT).values("Service", "RestartPreventExitStatus"))
        {
            Arrays.stream(value.split("\\s+")).map(Integer::valueOf).forEach(prevented::add);
        }
        assertEquals(documentedNotRestarted, prevented, "the codes the docs say are not restarted");
        assertTrue(documented.containsAll(Set.of(0, RingwatchConfiguration.EXIT_FENCED,
            RingwatchConfiguration.EXIT_DRIVER_LOST, RingwatchConfiguration.EXIT_ALREADY_RUNNING,
            RingwatchConfiguration.EXIT_KEY_MISMATCH, RingwatchConfiguration.EXIT_CONFIG_INVALID)), documented::toString);
    }
}
