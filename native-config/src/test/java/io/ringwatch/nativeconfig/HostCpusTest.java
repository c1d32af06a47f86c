package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostCpusTest
{
    private static final String PROC_STATUS = """
        Name:\tjava
        Umask:\t0022
        State:\tS (sleeping)
        Cpus_allowed:\tff
        Cpus_allowed_list:\t0-5,7
        Mems_allowed_list:\t0
        """;

    @Test
    void shouldReadCpusAllowedListFromProcStatus()
    {
        assertEquals("0-5,7", CpuList.format(HostCpus.parseCpusAllowedList(PROC_STATUS)));
    }

    @Test
    void shouldReturnNullWhenCpusAllowedListIsAbsent()
    {
        assertNull(HostCpus.parseCpusAllowedList("Name:\tjava\n"));
    }

    @Test
    void shouldUnionSysfsIsolatedIsolcpusAndNohzFull()
    {
        final String cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=domain,managed_irq,2-3 " +
            "nohz_full=3-5 rcu_nocbs=3-5 quiet\n";

        final BitSet isolated = HostCpus.parseIsolatedCores("8\n", cmdline);

        assertEquals("2-5,8", CpuList.format(isolated));
    }

    @Test
    void shouldFindNoIsolatedCoresOnPlainCmdline()
    {
        assertTrue(HostCpus.parseIsolatedCores("\n", "console=ttyS0 quiet").isEmpty());
        assertTrue(HostCpus.parseIsolatedCores(null, null).isEmpty());
    }

    @Test
    void shouldIgnoreMalformedIsolationParametersRatherThanFail()
    {
        assertEquals("1", CpuList.format(HostCpus.parseIsolatedCores("garbage", "isolcpus=1 nohz_full=z-1")));
    }

    @Test
    void shouldPreferAllowedIsolatedCoresAsSpare()
    {
        final HostCpus cpus = new HostCpus(CpuList.parse("0-7"), CpuList.parse("0-5"), CpuList.parse("4-7"));

        assertEquals("4-5", CpuList.format(cpus.spareCores()));
        assertEquals(8, cpus.availableCores());
        assertEquals(7, cpus.highestCpu());
    }

    @Test
    void shouldFallBackToAllowedCoresWhenNothingIsolatedIsAllowed()
    {
        final HostCpus cpus = new HostCpus(CpuList.parse("0-3"), CpuList.parse("0-1"), CpuList.parse("3"));

        assertEquals("0-1", CpuList.format(cpus.spareCores()));
    }

    @Test
    void shouldProbeThisHostConsistently()
    {
        final HostCpus cpus = HostCpus.probe();

        assertTrue(cpus.availableCores() >= 1, cpus.toString());
        final BitSet allowedOutsideOnline = cpus.allowedCores();
        allowedOutsideOnline.andNot(cpus.onlineCores());
        assertTrue(allowedOutsideOnline.isEmpty(), cpus.toString());
        assertFalse(cpus.allowedCores().isEmpty(), cpus.toString());
    }
}
