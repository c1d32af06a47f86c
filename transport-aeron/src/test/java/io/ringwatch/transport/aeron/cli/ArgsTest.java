package io.ringwatch.transport.aeron.cli;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ArgsTest
{
    private static final Set<String> KNOWN = Set.of("rank", "count", "timeout");

    @Test
    void shouldParseNumbersAndDurationsOrFallBack()
    {
        final Args args = new Args("run", new String[]{"run", "--rank", "7", "--count", "12345678901",
            "--timeout", "10ms"}, 1, KNOWN);

        assertEquals(7, args.getInt("rank", -1));
        assertEquals(12_345_678_901L, args.getLong("count", -1));
        assertEquals(10_000_000L, args.getDurationNs("timeout", -1));
        assertEquals(-1, new Args("run", new String[0], 0, KNOWN).getInt("rank", -1));
    }

    @Test
    void shouldNameTheOptionAndValueThatDoNotParse()
    {
        final Args args = new Args("run", new String[]{"--rank", "x", "--timeout", "soon"}, 0, KNOWN);

        assertEquals("run: --rank is not a number: 'x'",
            assertThrows(IllegalArgumentException.class, () -> args.getInt("rank", 0)).getMessage());
        assertEquals("run: --timeout is not a duration (e.g. 10ms): 'soon'",
            assertThrows(IllegalArgumentException.class, () -> args.getDurationNs("timeout", 0)).getMessage());
    }
}
