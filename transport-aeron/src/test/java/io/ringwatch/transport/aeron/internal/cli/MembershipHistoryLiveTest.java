package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.JournalEntry;
import io.ringwatch.transport.aeron.view.JournalLayout.Event;
import io.ringwatch.transport.aeron.view.JournalReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real node processes write their membership journals: a SIGKILLed rank's death is journalled by every survivor after
 * the kill (the launcher's and the nodes' monotonic clocks are one), its restarted life appends to the same journal
 * (JOINING, then its own admission), the survivors journal its admission under a greater incarnation, and
 * {@code stat --history} prints the host's journals merged in time order.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MembershipHistoryLiveTest
{
    @Test
    void shouldJournalADeathAndARejoinOnEveryNode() throws Exception
    {
        final int n = 3;
        final int victim = 2;
        try (LocalCluster cluster = new LocalCluster(new LocalCluster.Options().nodes(n).transport(TransportMode.IPC)
            .heartbeatPeriodNs(TimeUnit.MILLISECONDS.toNanos(20)).suspicionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(400))
            .graceNs(TimeUnit.SECONDS.toNanos(2))))
        {
            cluster.start();
            assertTrue(cluster.awaitAllUp(90_000), "nodes up: " + cluster.log(0));
            final long firstIncarnation = cluster.view(victim).incarnation(victim);
            final long killNs = cluster.kill(victim);
            assertTrue(cluster.awaitViews(Set.of(victim), 20_000), "declared dead");
            cluster.restart(victim);
            assertTrue(cluster.awaitViews(Set.of(), 60_000), "readmitted: " + cluster.log(victim));

            final List<String> problems = new ArrayList<>();
            List<JournalEntry> history = List.of();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() - deadline < 0)
            {
                history = JournalReader.readHost(cluster.aeronDir(), null, problems);
                if (admittedEverywhere(history, n, victim, firstIncarnation))
                {
                    break;
                }
                Thread.sleep(50);
            }
            final String text = "history:\n" + lines(history);
            assertEquals(List.of(), problems);
            assertTrue(admittedEverywhere(history, n, victim, firstIncarnation), text);
            for (int node = 0; node < n; node++)
            {
                if (node != victim)
                {
                    final int observer = node;
                    final JournalEntry death = history.stream()
                        .filter(e -> e.node() == observer && e.event() == Event.DEAD && e.rank() == victim)
                        .findFirst().orElseThrow(() -> new AssertionError("node " + observer + " journalled no " +
                            "death of " + victim + "; " + text));
                    assertTrue(death.monoNs() > killNs && death.monoNs() - killNs < TimeUnit.SECONDS.toNanos(20),
                        "death journalled after the kill, on the launcher's clock: kill " + killNs + "; " + text);
                    assertTrue(death.reporter() >= 0 && death.reporter() != victim, text);
                }
            }
            final List<JournalEntry> own = history.stream().filter(e -> e.node() == victim).toList();
            assertEquals(Event.STARTED, own.get(0).event(), text);
            assertTrue(own.stream().anyMatch(e -> e.event() == Event.JOINING && e.pid() != own.get(0).pid()),
                "the restarted process appends to the killed one's journal: " + text);
            for (int i = 1; i < history.size(); i++)
            {
                assertTrue(history.get(i - 1).monoNs() <= history.get(i).monoNs(), text);
            }
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                JournalReader.journals(cluster.aeronDir(), null).get(0).toPath())));

            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final PrintStream stdout = System.out;
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            final int exit;
            try
            {
                exit = StatCommand.run(new String[]{"stat", "--aeron-dir", cluster.aeronDir().getPath(), "--history"});
            }
            finally
            {
                System.setOut(stdout);
            }
            final String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, printed);
            assertTrue(printed.contains("rank " + victim + " DEAD incarnation " + firstIncarnation), printed);
            assertTrue(printed.contains("this node JOINING"), printed);
        }
    }

    private static boolean admittedEverywhere(
        final List<JournalEntry> history, final int n, final int victim, final long firstIncarnation)
    {
        for (int node = 0; node < n; node++)
        {
            final int observer = node;
            if (history.stream().noneMatch(e -> e.node() == observer && e.event() == Event.JOINED &&
                e.rank() == victim && e.incarnation() > firstIncarnation))
            {
                return false;
            }
        }
        return true;
    }

    private static String lines(final List<JournalEntry> history)
    {
        final StringBuilder sb = new StringBuilder();
        history.forEach(e -> sb.append("  ").append(e).append('\n'));
        return sb.toString();
    }
}
