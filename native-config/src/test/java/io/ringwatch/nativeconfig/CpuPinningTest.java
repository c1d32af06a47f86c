package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CpuPinningTest
{
    private final HostCpus host = HostCpus.probe();

    @Test
    void shouldPinToAnAllowedCoreAndRestore()
    {
        final String unavailable = CpuPinning.nativeAffinityUnavailableReason();
        assumeTrue(unavailable == null, () -> "native affinity unavailable: " + unavailable);

        final CpuPinning pinning = new CpuPinning(host);
        final int cpu = host.allowedCores().length() - 1;
        try
        {
            final PinResult result = pinning.pinCurrentThread(cpu);

            assertTrue(result.pinned(), result.toString());
            final BitSet expected = new BitSet();
            expected.set(cpu);
            assertEquals(expected, CpuPinning.currentThreadAffinity());
        }
        finally
        {
            assertTrue(pinning.unpinCurrentThread().pinned());
        }
        assertEquals(host.allowedCores(), CpuPinning.currentThreadAffinity());
    }

    @Test
    void shouldRefuseCoreBeyondHighestOnlineCpu()
    {
        final int cpu = host.highestCpu() + 1;

        final PinResult result = new CpuPinning(host).pinCurrentThread(cpu);

        assertFalse(result.pinned());
        assertTrue(result.reason().contains("out of range"), result.reason());
    }

    @Test
    void shouldRefuseNegativeCpu()
    {
        final PinResult result = new CpuPinning(host).pinCurrentThread(-1);

        assertFalse(result.pinned());
        assertTrue(result.reason().contains("out of range"), result.reason());
    }

    @Test
    void shouldRefuseCoreOutsideTheAllowedSetWithoutTouchingAffinity()
    {
        final HostCpus restricted = new HostCpus(CpuList.parse("0-3"), CpuList.parse("0"), new BitSet());
        final BitSet before = CpuPinning.currentThreadAffinity();

        final PinResult result = new CpuPinning(restricted).pinCurrentThread(2);

        assertFalse(result.pinned());
        assertTrue(result.reason().contains("not in this process's allowed set 0"), result.reason());
        assertEquals(before, CpuPinning.currentThreadAffinity());
    }

    @Test
    void shouldExposeHostCoreSets()
    {
        final CpuPinning pinning = CpuPinning.forThisHost();

        assertEquals(host.availableCores(), pinning.availableCores());
        assertEquals(host.allowedCores(), pinning.allowedCores());
        assertNotNull(pinning.isolatedCores());
    }
}
