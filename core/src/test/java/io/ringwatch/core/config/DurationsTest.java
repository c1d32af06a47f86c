package io.ringwatch.core.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurationsTest
{
    private static final String NAME = "--suspicion-timeout";

    @Test
    void shouldParseEveryUnitDecimalsAnyCaseSurroundingSpaceAndZero()
    {
        final Object[][] cases = {
            {"10s", 10_000_000_000L}, {"1ms", 1_000_000L}, {"500us", 500_000L}, {"42ns", 42L},
            {"1.5ms", 1_500_000L}, {".25s", 250_000_000L}, {"2.us", 2_000L}, {" 3MS ", 3_000_000L}, {"0s", 0L},
            {Long.MAX_VALUE + "ns", Long.MAX_VALUE}};
        for (final Object[] c : cases)
        {
            assertEquals((long)c[1], Durations.parseNs(NAME, (String)c[0]), (String)c[0]);
        }
    }

    @Test
    void shouldRequireAUnitAndSuggestAll()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, "10"));

        assertEquals("--suspicion-timeout '10' needs a unit: 10ms, 10s, 10us or 10ns", ex.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, "1.5"))
            .getMessage().contains("needs a unit: 1.5ms"));
    }

    @Test
    void shouldRejectBadUnitsAndMalformedNumbersNamingTheSettingAndValue()
    {
        for (final String bad : new String[] {"10x", "5parsecs", "10 ms", "s", "ms", "1e3ms", "1,5ms", "10m", "10h",
            "0x10ms", "1.2.3s", "soon"})
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, bad), bad);
            assertTrue(ex.getMessage().startsWith(NAME + " '" + bad + "' is not a duration"), ex.getMessage());
        }
        assertEquals(NAME + " is empty: give a number and a unit, e.g. 10ms",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, " ")).getMessage());
    }

    @Test
    void shouldRejectNegativeFractionsOfANanosecondAndOverflow()
    {
        assertEquals(NAME + " '-1s' is negative",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, "-1s")).getMessage());
        assertEquals(NAME + " '0.5ns' is not a whole number of nanoseconds",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, "0.5ns")).getMessage());
        assertEquals(NAME + " '1.0000001us' is not a whole number of nanoseconds",
            assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, "1.0000001us")).getMessage());
        for (final String huge : new String[] {"9223372036854775808ns", "9223372037s", "100000000000000000000000s"})
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Durations.parseNs(NAME, huge), huge);
            assertTrue(ex.getMessage().endsWith("is too long: at most 9223372036854775807ns (about 292 years)"),
                ex.getMessage());
        }
    }

    @Test
    void shouldFormatInTheLargestWholeUnitAndReadItBack()
    {
        assertEquals("10ms", Durations.format(10_000_000L));
        assertEquals("1500us", Durations.format(1_500_000L));
        assertEquals("3s", Durations.format(3_000_000_000L));
        assertEquals("42ns", Durations.format(42L));
        assertEquals("0s", Durations.format(0L));
        for (final long ns : new long[] {0, 1, 999, 1_000, 1_000_001, 400_000_000, Long.MAX_VALUE})
        {
            assertEquals(ns, Durations.parseNs(NAME, Durations.format(ns)), Durations.format(ns));
        }
    }

    @Test
    void shouldReadAPropertyWithTheSameGrammarOrFallBack()
    {
        final String name = "ringwatch.test.durations." + System.nanoTime();
        assertEquals(7L, Durations.propertyNs(name, 7L));
        System.setProperty(name, "25ms");
        try
        {
            assertEquals(25_000_000L, Durations.propertyNs(name, 7L));
            System.setProperty(name, "25");
            assertEquals(name + " '25' needs a unit: 25ms, 25s, 25us or 25ns",
                assertThrows(IllegalArgumentException.class, () -> Durations.propertyNs(name, 7L)).getMessage());
        }
        finally
        {
            System.clearProperty(name);
        }
    }
}
