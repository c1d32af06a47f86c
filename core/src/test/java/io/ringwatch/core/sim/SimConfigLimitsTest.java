package io.ringwatch.core.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SimConfigLimitsTest
{
    @Test
    void shouldRefuseClusterSizesTheSimulatorCannotIndexNamingTheLimit()
    {
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> new SimConfig().nodes(SimConfig.MAX_NODES + 1).conclude());
        assertEquals("nodes must be in [2, 16777216]: 16777217", tooMany.getMessage());
        // (n * 8) overflows int here: refused before any array is sized
        assertThrows(IllegalArgumentException.class, () -> new SimConfig().nodes(1 << 28).conclude());
        assertThrows(IllegalArgumentException.class, () -> new SimConfig().nodes(Integer.MAX_VALUE).conclude());
        assertThrows(IllegalArgumentException.class, () -> new SimConfig().nodes(1).conclude());
        assertEquals(SimConfig.MAX_NODES, new SimConfig().nodes(SimConfig.MAX_NODES).conclude().nodes());
    }
}
