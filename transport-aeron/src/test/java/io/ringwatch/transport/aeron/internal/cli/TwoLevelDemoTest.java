package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.cli.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Multi-process, two levels: 3 daemon JVMs each launching 2 application JVMs; one application process and one node
 * are SIGKILLed, and every one of the 3 surviving application processes must learn exactly the 3 dead ranks.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class TwoLevelDemoTest
{
    @Test
    void shouldTellEverySurvivingProcessExactlyTheDeadProcesses() throws Exception
    {
        final String output = run(5, "2");
        assertTrue(output.contains("PASSED: all 3 surviving processes learned exactly"), output);
    }

    /**
     * Uneven counts through a job file: 2, 0 and 3 processes; whichever node dies, some process survives to check.
     */
    @Test
    void shouldTellEverySurvivingProcessOfAnUnevenJob() throws Exception
    {
        final String output = run(6, "2,0,3");
        assertTrue(output.contains("processes per node=2,0,3 (ranks 0..4)"), output);
        assertTrue(output.contains("PASSED: all "), output);
    }

    @Test
    void shouldRefuseACountPerNodeThatDoesNotMatchTheNodes()
    {
        final UsageException ex = assertThrows(UsageException.class, () -> TwoLevelDemo.layout("2,2", 3));
        assertTrue(ex.getMessage().contains("count mismatch: 2 counts for 3 nodes"), ex.getMessage());
        assertThrows(UsageException.class, () -> TwoLevelDemo.layout("0,0,3", 3));
    }

    private static String run(final long seed, final String perNode) throws Exception
    {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream original = System.out;
        final int exit;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            exit = TwoLevelDemo.run(new String[]{"demo", "--procs-per-node", perNode, "--nodes", "3", "--seed",
                Long.toString(seed)});
        }
        finally
        {
            System.setOut(original);
        }
        final String output = captured.toString(StandardCharsets.UTF_8);
        System.out.println(output);
        assertEquals(0, exit, () -> "seed=" + seed + "\n" + output);
        return output;
    }
}
