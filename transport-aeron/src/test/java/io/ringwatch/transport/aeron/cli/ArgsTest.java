package io.ringwatch.transport.aeron.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgsTest
{
    @Test
    void shouldParseNumbersAndDurationsOrFallBack()
    {
        final Args args = new Args(new String[]{"run", "--rank", "7", "--count", "12345678901",
            "--suspicion-timeout", "10ms", "--ratio=0.5", "--big", "1_000_000"}, 1);

        assertEquals(7, args.intValue("--rank", -1, 0, 100));
        assertEquals(12_345_678_901L, args.longValue("--count", -1, 0, Long.MAX_VALUE));
        assertEquals(10_000_000L, args.durationNs(Args.SUSPICION_TIMEOUT, -1));
        assertEquals(0.5, args.doubleValue("--ratio", 1, 0, 1));
        assertEquals(1_000_000L, args.longValue("--big", 0, 0, Long.MAX_VALUE));
        args.finish();
        assertEquals(-1, new Args(new String[0], 0).intValue("--rank", -1, 0, 100));
        assertEquals(-1, new Args(new String[0], 0).durationNs(Args.HEARTBEAT_PERIOD, -1));
    }

    @Test
    void shouldNameTheOptionAndValueThatDoNotParse()
    {
        final Args args = new Args(new String[]{"--rank", "x", "--suspicion-timeout", "soon", "--runs", "11"}, 0);

        assertEquals("bad value for --rank: 'x' (expected an integer)",
            assertThrows(UsageException.class, () -> args.intValue("--rank", 0, 0, 10)).getMessage());
        assertEquals("--suspicion-timeout 'soon' is not a duration: a number and one of ns, us, ms, s (e.g. 10ms)",
            assertThrows(UsageException.class, () -> args.durationNs(Args.SUSPICION_TIMEOUT, 0)).getMessage());
        assertEquals("bad value for --runs: '11' (expected 1..10)",
            assertThrows(UsageException.class, () -> args.longValue("--runs", 1, 1, 10)).getMessage());

        final Args more = new Args(new String[]{"--runs", "ten", "--heartbeat-period=5parsecs"}, 0);
        final UsageException runs = assertThrows(UsageException.class, () -> more.longValue("--runs", 1, 1, 10));
        assertTrue(runs.getMessage().contains("'ten'"), runs.getMessage());
        final UsageException period =
            assertThrows(UsageException.class, () -> more.durationNs(Args.HEARTBEAT_PERIOD, 1));
        assertTrue(period.getMessage().contains("'5parsecs'"), period.getMessage());
    }

    @Test
    void shouldRequireAUnitOnEveryDurationAndSaySoNamingTheOption()
    {
        final Args args = new Args(new String[]{"--heartbeat-period", "1", "--suspicion-timeout", "10"}, 0);

        assertEquals("--heartbeat-period '1' needs a unit: 1ms, 1s, 1us or 1ns",
            assertThrows(UsageException.class, () -> args.durationNs(Args.HEARTBEAT_PERIOD, -1)).getMessage());
        assertEquals("--suspicion-timeout '10' needs a unit: 10ms, 10s, 10us or 10ns",
            assertThrows(UsageException.class, () -> args.durationNs(Args.SUSPICION_TIMEOUT, -1)).getMessage());
    }

    @Test
    void shouldRejectUnknownDuplicateValuelessAndStrayArguments()
    {
        final Args args = new Args(new String[]{"--nodes", "8", "--typo", "1"}, 0);
        assertEquals(8, args.intValue("--nodes", 1, 1, 100));
        final UsageException unknown = assertThrows(UsageException.class, args::finish);
        assertEquals("unknown option --typo (known: --nodes)", unknown.getMessage());

        assertThrows(UsageException.class, () -> new Args(new String[]{"--runs", "1", "--runs", "2"}, 0));
        assertThrows(UsageException.class, () -> new Args(new String[]{"--runs"}, 0));
        assertThrows(UsageException.class, () -> new Args(new String[]{"stray"}, 0));
        assertThrows(UsageException.class, () -> new Args(new String[]{"--"}, 0));
    }

    @Test
    void shouldNameTheNewSpellingOfEveryOldNameOfEtaAndDelta()
    {
        final String[][] renamed = {
            {"--heartbeat", "--heartbeat-period"},
            {"--eta", "--heartbeat-period"},
            {"--period", "--heartbeat-period"},
            {"--timeout", "--suspicion-timeout"},
            {"--delta", "--suspicion-timeout"},
            {"--timeouts", "--suspicion-timeouts"},
            {"--eta-ratio", "--heartbeat-period-ratio"}};
        for (final String[] pair : renamed)
        {
            final Args args = new Args(new String[]{pair[0], "10"}, 0);
            args.durationNs(pair[1], 0);
            assertEquals(pair[0] + " was renamed " + pair[1],
                assertThrows(UsageException.class, args::finish).getMessage());
        }
    }

    @Test
    void shouldNotSuggestARenameToACommandThatNeverTakesTheNewName()
    {
        final Args args = new Args(new String[]{"--timeout", "10ms"}, 0);
        args.string("--aeron-dir", null);

        assertEquals("unknown option --timeout (known: --aeron-dir)",
            assertThrows(UsageException.class, args::finish).getMessage());
    }

    @Test
    void shouldTreatSwitchesAsBooleansAndSplitLists()
    {
        final Args args = new Args(new String[]{"--one-port", "--nodes", "4", "--sizes", " 4, 8,,16 "}, 0,
            "--one-port");
        assertTrue(args.switchOn("--one-port"));
        assertFalse(args.switchOn("--absent"));
        assertEquals(4, args.intValue("--nodes", 1, 1, 10));
        assertEquals(List.of("4", "8", "16"), args.list("--sizes", ""));
        assertEquals(List.of("a", "b"), args.list("--missing", "a,b"));
        args.finish();

        assertThrows(UsageException.class, () -> new Args(new String[]{"--one-port=maybe"}, 0, "--one-port")
            .switchOn("--one-port"));
    }

    @Test
    void shouldReadTheDeprecatedSpellingsAsTheOneNameEveryCommandUses()
    {
        final Args args = new Args(new String[]{"--grace", "3s", "--procs=4", "--kill", "2"}, 0);
        assertEquals(3_000_000_000L, args.durationNs(Args.STARTUP_GRACE, 0));
        assertEquals(4, args.intValue(Args.PROCS_PER_NODE, 0, 0, 64));
        assertEquals(2, args.intValue(Args.KILLS, 0, 0, 64));
        args.finish();
        // the old and the new spelling together are one option given twice
        assertThrows(UsageException.class, () -> new Args(new String[]{"--grace", "3s", "--startup-grace", "1s"}, 0));
    }
}
