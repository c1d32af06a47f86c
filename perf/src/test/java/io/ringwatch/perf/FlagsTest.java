package io.ringwatch.perf;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlagsTest
{
    @Test
    void shouldParseDurationsWithEveryUnit()
    {
        assertEquals(10_000_000_000L, Flags.parseDurationNs("10s"));
        assertEquals(1_000_000L, Flags.parseDurationNs("1ms"));
        assertEquals(1_500_000L, Flags.parseDurationNs("1.5ms"));
        assertEquals(500_000L, Flags.parseDurationNs("500us"));
        assertEquals(42L, Flags.parseDurationNs("42ns"));
    }

    @Test
    void shouldRejectDurationsWithoutUnitOrNotPositive()
    {
        for (final String bad : new String[] {"10", "10x", "s", "-1s", "0ms", "0.5ns", "1e30s", ""})
        {
            assertThrows(IllegalArgumentException.class, () -> Flags.parseDurationNs(bad), bad);
        }
    }

    @Test
    void shouldRejectUnknownAndDuplicateFlags() throws UsageException
    {
        final Flags flags = new Flags(new String[] {"--nodes", "8", "--typo", "1"});
        assertEquals(8, flags.longValue("--nodes", 1, 1, 100));
        final UsageException unknown = assertThrows(UsageException.class, flags::finish);
        assertTrue(unknown.getMessage().contains("--typo"));

        assertThrows(UsageException.class, () -> new Flags(new String[] {"--runs", "1", "--runs", "2"}));
        assertThrows(UsageException.class, () -> new Flags(new String[] {"--runs"}));
        assertThrows(UsageException.class, () -> new Flags(new String[] {"stray"}));
    }

    @Test
    void shouldNameTheOffendingValue() throws UsageException
    {
        final Flags flags = new Flags(new String[] {"--runs", "ten", "--eta=5parsecs"});
        final UsageException runs = assertThrows(UsageException.class, () -> flags.longValue("--runs", 1, 1, 10));
        assertTrue(runs.getMessage().contains("'ten'"), runs.getMessage());
        final UsageException eta = assertThrows(UsageException.class, () -> flags.durationNs("--eta", 1));
        assertTrue(eta.getMessage().contains("'5parsecs'"), eta.getMessage());
    }

    @Test
    void shouldTreatSwitchesAsBooleans() throws UsageException
    {
        final Flags flags = new Flags(new String[] {"--one-port", "--nodes", "4"}, "--one-port");
        assertTrue(flags.switchOn("--one-port"));
        assertFalse(flags.switchOn("--absent"));
        assertEquals(4, flags.longValue("--nodes", 1, 1, 10));
        flags.finish();
    }
}
