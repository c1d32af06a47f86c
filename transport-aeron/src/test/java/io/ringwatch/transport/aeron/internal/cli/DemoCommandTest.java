package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.rdma.RdmaDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The README's run command, end to end: the demo with the README's arguments ({@link DocsCommandsTest} keeps the
 * README's build and jar true), real node processes, two of them SIGKILLed. Timing and size are pinned to
 * conservative values so the test judges the command, not how loaded the CI host is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DemoCommandTest
{
    private static final long SEED = 7;

    @Test
    void shouldKillTwoAdjacentNodesAndExitZeroWithAJsonSummary() throws Exception
    {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream original = System.out;
        final int code;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            final List<String> args = new ArrayList<>(DocsCommandsTest.readmeDemoArgs());
            args.addAll(List.of("--nodes", "5", "--kills", "2", "--seed", Long.toString(SEED),
                "--heartbeat-period", "10ms", "--suspicion-timeout", "400ms"));
            code = DemoCommand.run(args.toArray(String[]::new));
        }
        finally
        {
            System.setOut(original);
        }
        final String output = captured.toString(StandardCharsets.UTF_8);
        final String context = "seed " + SEED + "\n" + output;

        assertEquals(0, code, context);
        assertTrue(output.contains("real-time: "), "says whether agents run SCHED_FIFO: " + context);
        final List<String> lines = output.lines().toList();
        final String json = lines.get(lines.size() - 1);
        assertTrue(json.startsWith("{\"nodes\":5,\"killed\":2,\"falsePositives\":0,\"missed\":0,"), context);
        assertEquals(2, output.lines().filter(l -> l.startsWith("SIGKILL rank ")).count(), context);
    }

    /**
     * {@code demo --restart --transport udp}: the killed ranks are relaunched at once, each waits for the shared
     * driver to free its control port, joins, and every survivor readmits it.
     */
    @Test
    void shouldRestartTheKilledNodesOverUdpAndSeeThemReadmittedEverywhere() throws Exception
    {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream original = System.out;
        final int code;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            code = DemoCommand.run(new String[]{"demo", "--restart", "--transport", "udp", "--nodes", "5", "--kills",
                "2", "--seed", Long.toString(SEED), "--heartbeat-period", "10ms", "--suspicion-timeout", "400ms"});
        }
        finally
        {
            System.setOut(original);
        }
        final String output = captured.toString(StandardCharsets.UTF_8);
        final String context = "seed " + SEED + "\n" + output;

        assertEquals(0, code, context);
        final List<String> lines = output.lines().toList();
        final String json = lines.get(lines.size() - 1);
        assertTrue(json.contains("\"transport\":\"udp\""), context);
        assertTrue(json.contains("\"rejoined\":2,"), context);
        assertEquals(2, output.lines().filter(l -> l.startsWith("restart rank ")).count(), context);
    }

    @Test
    void shouldRefuseTransportRdmaWithTheReasonWhereRdmaIsUnusableBeforeLaunchingAnything()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeFalse(availability.usable(), "this host can do RDMA: RdmaMultiProcessDetectionTest runs instead");
        final PrintStream original = System.out;
        final IllegalStateException ex;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try
        {
            // Main turns this into "ringwatch demo: <message>" and exit code 2
            ex = assertThrows(IllegalStateException.class, () -> DemoCommand.run(new String[]{"demo", "--nodes", "3",
                "--kills", "1", "--transport", "rdma", "--heartbeat-period", "10ms", "--suspicion-timeout", "400ms"}));
        }
        finally
        {
            System.setOut(original);
        }
        assertEquals("transport rdma, but RDMA is unusable on this host: " + availability.reason() +
            " (java -jar ringwatch.jar doctor lists what is missing and how to fix it)", ex.getMessage());
    }
}
