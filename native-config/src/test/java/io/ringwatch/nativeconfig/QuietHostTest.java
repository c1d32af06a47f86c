package io.ringwatch.nativeconfig;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuietHostTest
{
    private static QuietHost host(
        final String isolated, final String nohz, final TreeSet<String> governors, final Map<Integer, BitSet> siblings,
        final Map<Integer, BitSet> irqs)
    {
        return new QuietHost(CpuList.parse("0-3"), CpuList.parse(isolated), CpuList.parse(nohz), governors, siblings,
            irqs);
    }

    private static List<Doctor.Check> quietChecks(final QuietHost host)
    {
        final List<Doctor.Check> checks = new ArrayList<>();
        Doctor.checkQuiet(host, checks);
        return checks;
    }

    @Test
    void shouldWarnOnEveryMissingSettingOfAnUntunedSmtHost()
    {
        final QuietHost untuned = host("", "", new TreeSet<>(List.of("powersave")),
            Map.of(0, CpuList.parse("0,2"), 1, CpuList.parse("1,3"), 2, CpuList.parse("0,2"), 3, CpuList.parse("1,3")),
            Map.of(24, CpuList.parse("0-3"), 25, CpuList.parse("0")));

        final List<Doctor.Check> checks = quietChecks(untuned);

        assertEquals(5, checks.size(), checks.toString());
        assertTrue(checks.stream().allMatch(c -> c.status() == Doctor.Status.WARN), checks.toString());
        assertTrue(checks.get(0).advice().contains("isolcpus=managed_irq,domain,1-3"), checks.get(0).advice());
        assertTrue(checks.get(1).advice().contains("nohz_full=1-3"), checks.get(1).advice());
        assertTrue(checks.get(3).detail().contains("0,2 1,3"), checks.get(3).detail());
        assertTrue(checks.get(4).detail().startsWith("1 of 2 IRQs"), checks.get(4).detail());
    }

    @Test
    void shouldPassAHostTunedForQuietNumbers()
    {
        final QuietHost tuned = host("2-3", "2-3", new TreeSet<>(List.of("performance")),
            Map.of(0, CpuList.parse("0"), 1, CpuList.parse("1"), 2, CpuList.parse("2"), 3, CpuList.parse("3")),
            Map.of(24, CpuList.parse("0-1"), 25, CpuList.parse("0")));

        final List<Doctor.Check> checks = quietChecks(tuned);

        assertTrue(checks.stream().allMatch(c -> c.status() == Doctor.Status.OK), checks.toString());
        assertEquals(CpuList.parse("2-3"), tuned.quietCores());
    }

    @Test
    void shouldWarnWhenAnIsolatedCoreStillTicks()
    {
        final List<Doctor.Check> checks = quietChecks(host("1-3", "2-3", new TreeSet<>(), Map.of(), Map.of()));

        assertTrue(checks.get(1).detail().contains("isolated cores 1 still get the tick"), checks.get(1).detail());
    }

    @Test
    void shouldPlaceEveryThreadOfAProcessAndSeeNoneOutside() throws Exception
    {
        final String unavailable = ProcessAffinity.setThread(0, HostCpus.probe().allowedCores());
        org.junit.jupiter.api.Assumptions.assumeTrue(unavailable == null, "no sched_setaffinity here: " + unavailable);
        final BitSet first = new BitSet();
        first.set(HostCpus.probe().allowedCores().nextSetBit(0));
        final Process child = new ProcessBuilder("sleep", "30").start();
        try
        {
            assertFalse(ProcessAffinity.threadsOutside(child.pid(), HostCpus.probe().allowedCores()).contains("sleep"));
            final ProcessAffinity.Result placed = ProcessAffinity.setProcess(child.pid(), first);

            assertTrue(placed.applied(), placed.toString());
            assertEquals("", ProcessAffinity.threadsOutside(child.pid(), first));
            assertEquals(first, ProcessAffinity.ofThread(child.pid()));
            if (HostCpus.probe().allowedCores().cardinality() > 1)
            {
                final BitSet other = HostCpus.probe().allowedCores();
                other.andNot(first);
                assertTrue(ProcessAffinity.threadsOutside(child.pid(), other).contains("sleep"));
            }
        }
        finally
        {
            child.destroyForcibly().waitFor();
        }
        assertNull(ProcessAffinity.setThread(0, HostCpus.probe().allowedCores()));
        assertNotNull(ProcessAffinity.ofThread(0));
    }

    @Test
    void shouldWarnWhileIrqbalanceRunsSayingHowToKeepItOffTheQuietCores()
    {
        final List<Doctor.Check> checks = new ArrayList<>();
        Doctor.checkIrqbalance(true, CpuList.parse("1-3"), checks);
        Doctor.checkIrqbalance(false, CpuList.parse("1-3"), checks);

        assertEquals(Doctor.Status.WARN, checks.get(0).status());
        assertTrue(checks.get(0).advice().contains("IRQBALANCE_BANNED_CPULIST=1-3"), checks.get(0).advice());
        assertEquals(Doctor.Status.OK, checks.get(1).status());
    }
}
