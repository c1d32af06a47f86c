package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuListTest
{
    @Test
    void shouldParseRangesAndSinglesWithWhitespace()
    {
        final BitSet cpus = CpuList.parse(" 0-3,8, 10-11\n");

        assertEquals("0-3,8,10-11", CpuList.format(cpus));
        assertEquals(7, cpus.cardinality());
    }

    @Test
    void shouldTreatBlankTextAsEmptySet()
    {
        assertTrue(CpuList.parse("\n").isEmpty());
        assertTrue(CpuList.parse(null).isEmpty());
    }

    @Test
    void shouldRejectDescendingRangeNamingIt()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> CpuList.parse("5-2"));
        assertTrue(ex.getMessage().contains("5-2"), ex.getMessage());
    }

    @Test
    void shouldRejectNonNumericElement()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> CpuList.parse("0,x"));
        assertTrue(ex.getMessage().contains("'x'"), ex.getMessage());
    }

    @Test
    void shouldRejectAbsurdlyLargeCpuInsteadOfAllocating()
    {
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("0-2147483647"));
    }
}
