package io.ringwatch.perf;

import io.ringwatch.perf.netns.NetnsScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code netns} command's flags and tables; the scenarios themselves run in transport-aeron's namespace tests
 * and by hand ({@code ringwatch-perf.jar netns}), since each starts thirteen JVMs.
 */
class NetnsCommandTest
{
    @Test
    void shouldRejectAnUnknownScenarioWithExitCodeTwo()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = Main.run(new String[]{"netns", "--scenarios", "kill-two-hosts,sideways"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown scenario 'sideways'"), err.toString());
    }

    @Test
    void shouldWriteOneRowPerRunWithExpectedObservedAndTimes(@TempDir final Path dir) throws Exception
    {
        NetnsCommand.write(dir, "header\n\n", List.of(
            new NetnsScenario.Outcome(NetnsScenario.DRIVER_KILL, true, "exited {5:4, 6:4}", 27, 751),
            new NetnsScenario.Outcome(NetnsScenario.LINK_DOWN, false, "exited {0:3, 2:3}", -1, 16759)));

        final String md = Files.readString(dir.resolve("netns.md"));
        assertTrue(md.contains("| driver-kill | " + NetnsScenario.DRIVER_KILL.expected() +
            " | yes | exited {5:4, 6:4} | 27 ms | 751 ms |"), md);
        assertTrue(md.contains("| link-down | " + NetnsScenario.LINK_DOWN.expected() +
            " | **no** | exited {0:3, 2:3} | - | 16759 ms |"), md);
        final List<String> csv = Files.readAllLines(dir.resolve("netns.csv"));
        assertEquals(3, csv.size());
        assertEquals("driver-kill,true,27,751,\"exited {5:4, 6:4}\"", csv.get(1));
    }
}
