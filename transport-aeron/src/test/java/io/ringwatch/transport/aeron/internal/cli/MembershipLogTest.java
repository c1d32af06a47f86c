package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.spi.MembershipListener.FailureCause;
import io.ringwatch.transport.aeron.internal.ViewFile;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Membership lines from a real view file as the node's main thread reads it: a rank that dies, rejoins and dies
 * again is logged dead twice (the first version logged a rank's death once per process lifetime).
 */
class MembershipLogTest
{
    @TempDir
    File dir;

    @Test
    void shouldLogEveryDeathJoinAndAdmissionWithItsCause()
    {
        final List<String> lines = new ArrayList<>();
        final MembershipLog log = new MembershipLog(4, 0, new Recording(lines));
        final File file = new File(dir, "view.dat");
        try (ViewFile writer = new ViewFile(file, 9, 4, 0, 1_000);
            ViewReader reader = new ViewReader(file))
        {
            final ViewSnapshot view = new ViewSnapshot();
            writer.joining(41);
            log.log(reader.read(view));
            writer.onJoin(0, 41, 2_000);
            writer.onViewChange(1, 0, 2_000);
            log.log(reader.read(view));
            assertEquals(List.of("membership: this node (rank 0) ADMITTED with incarnation 41, view epoch 1"), lines);
            lines.clear();

            writer.onFailure(2, 3_000_000_000L, FailureCause.DETECTED, 0);
            writer.onFailure(3, 3_000_000_000L, FailureCause.NOTICE, 1);
            writer.onViewChange(2, 2, 3_000_000_000L);
            log.log(reader.read(view));
            log.log(reader.read(view));
            assertEquals(List.of(
                "membership: rank 2 DEAD: detected by this node (its observer) at mono=3.000000000 (+2999 ms since " +
                    "this node started), view epoch 2, 2 dead",
                "membership: rank 3 DEAD: notice, detected by rank 1 at mono=3.000000000 (+2999 ms since this node " +
                    "started), view epoch 2, 2 dead"), lines);
            lines.clear();

            writer.onJoin(2, 77, 4_000_000_000L);
            writer.onViewChange(3, 1, 4_000_000_000L);
            log.log(reader.read(view));
            writer.onFailure(2, 5_000_000_000L, FailureCause.LEFT, 1);
            writer.onViewChange(4, 2, 5_000_000_000L);
            log.log(reader.read(view));
            assertEquals(List.of(
                "membership: rank 2 JOINED with incarnation 77 at mono=4.000000000, view epoch 3, 1 dead",
                "membership: rank 2 LEFT: it announced its leave, reported by rank 1 at mono=5.000000000 (+4999 ms " +
                    "since this node started), view epoch 4, 2 dead"), lines);
        }
    }

    @Test
    void shouldPrintWallClockWithZoneLevelAndMonotonicTime()
    {
        final String line = CliLogging.line(Instant.parse("2026-11-27T22:17:16.123Z"), 84_211_000_000_123L,
            "INFO", "membership: rank 2 DEAD");
        assertTrue(Pattern.matches("2026-11-2\\dT\\d\\d:\\d\\d:16\\.123(Z|[+-]\\d\\d:\\d\\d) INFO  " +
            "mono=84211\\.000000123 membership: rank 2 DEAD", line), line);
    }

    /** A System.Logger that keeps the messages: the seam the node's logger is passed through. */
    private static final class Recording implements System.Logger
    {
        private final List<String> lines;

        Recording(final List<String> lines)
        {
            this.lines = lines;
        }

        public String getName()
        {
            return "recording";
        }

        public boolean isLoggable(final Level level)
        {
            return true;
        }

        public void log(final Level level, final ResourceBundle bundle, final String msg, final Throwable thrown)
        {
            lines.add(msg);
        }

        public void log(final Level level, final ResourceBundle bundle, final String format, final Object... params)
        {
            lines.add(format);
        }

        public void log(final Level level, final Supplier<String> msgSupplier)
        {
            lines.add(msgSupplier.get());
        }
    }
}
