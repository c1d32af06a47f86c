package io.ringwatch.nativeconfig;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What decides whether a host can give quiet (repeatable) noise and jitter numbers: isolated cores, tickless cores,
 * frequency governors, SMT siblings and where interrupts may land. {@link #probe()} reads the running host in one
 * place; the record can be built from fixtures for tests.
 *
 * @param online      online CPUs.
 * @param isolated    CPUs taken from the general scheduler ({@code /sys/devices/system/cpu/isolated},
 *                    {@code isolcpus=}).
 * @param nohzFull    CPUs without the periodic tick ({@code /sys/devices/system/cpu/nohz_full}, {@code nohz_full=}).
 * @param governors   cpufreq governors in use on online CPUs; empty when not exposed (virtual machines).
 * @param siblings    per online CPU, the hardware threads sharing its core (itself included).
 * @param irqAffinity per IRQ number, the CPUs it may be delivered to.
 */
public record QuietHost(
    BitSet online,
    BitSet isolated,
    BitSet nohzFull,
    TreeSet<String> governors,
    Map<Integer, BitSet> siblings,
    Map<Integer, BitSet> irqAffinity)
{
    private static final Path SYS_NOHZ_FULL = HostFiles.SYS_CPU.resolve("nohz_full");
    private static final Path PROC_IRQ = Path.of("/proc/irq");

    /**
     * @return the running host's facts; unreadable files count as "not configured".
     */
    public static QuietHost probe()
    {
        final HostCpus cpus = HostCpus.probe();
        final BitSet online = cpus.onlineCores();
        final String cmdline = HostFiles.readOrNull(HostFiles.PROC_CMDLINE);

        final BitSet isolated = new BitSet();
        final BitSet nohz = new BitSet();
        orList(isolated, HostFiles.readOrNull(HostFiles.SYS_CPU_ISOLATED));
        orList(nohz, HostFiles.readOrNull(SYS_NOHZ_FULL));
        if (cmdline != null)
        {
            for (final String param : cmdline.trim().split("\\s+"))
            {
                if (param.startsWith("isolcpus="))
                {
                    isolated.or(HostCpus.parseIsolcpusValue(param.substring("isolcpus=".length())));
                }
                else if (param.startsWith("nohz_full="))
                {
                    orList(nohz, param.substring("nohz_full=".length()));
                }
            }
        }

        final TreeSet<String> governors = new TreeSet<>();
        final Map<Integer, BitSet> siblings = new TreeMap<>();
        for (int cpu = online.nextSetBit(0); cpu >= 0; cpu = online.nextSetBit(cpu + 1))
        {
            final Path dir = HostFiles.SYS_CPU.resolve("cpu" + cpu);
            final String governor = HostFiles.readTrimmedOrNull(dir.resolve("cpufreq").resolve("scaling_governor"));
            if (governor != null && !governor.isEmpty())
            {
                governors.add(governor);
            }
            final BitSet threads = new BitSet();
            orList(threads, HostFiles.readOrNull(dir.resolve("topology").resolve("thread_siblings_list")));
            if (!threads.isEmpty())
            {
                siblings.put(cpu, threads);
            }
        }

        final Map<Integer, BitSet> irqs = new TreeMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC_IRQ))
        {
            for (final Path dir : dirs)
            {
                final String name = dir.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit))
                {
                    final BitSet affinity = new BitSet();
                    orList(affinity, HostFiles.readOrNull(dir.resolve("smp_affinity_list")));
                    if (!affinity.isEmpty())
                    {
                        irqs.put(Integer.parseInt(name), affinity);
                    }
                }
            }
        }
        catch (final IOException | SecurityException ex)
        {
            // no /proc/irq (containers may hide it): no IRQ lines, reported as unknown
        }

        return new QuietHost(online, isolated, nohz, governors, siblings, irqs);
    }

    /**
     * @return CPUs the benchmark should keep quiet: the isolated and tickless ones, or every online CPU but the
     * first when nothing is isolated (CPU 0 conventionally keeps the housekeeping).
     */
    public BitSet quietCores()
    {
        final BitSet quiet = (BitSet)isolated.clone();
        quiet.or(nohzFull);
        if (quiet.isEmpty())
        {
            quiet.or(online);
            quiet.clear(online.nextSetBit(0));
        }
        return quiet;
    }

    /**
     * @return the CPUs that share a core with another online CPU, as {@code "0,4 1,5"}; empty without SMT.
     */
    public String smtPairs()
    {
        final StringBuilder sb = new StringBuilder();
        final BitSet seen = new BitSet();
        for (final Map.Entry<Integer, BitSet> e : new TreeMap<>(siblings).entrySet())
        {
            final BitSet threads = (BitSet)e.getValue().clone();
            threads.and(online);
            if (threads.cardinality() > 1 && !seen.get(e.getKey()))
            {
                seen.or(threads);
                sb.append(sb.length() == 0 ? "" : " ").append(CpuList.format(threads));
            }
        }
        return sb.toString();
    }

    /**
     * @param cpus CPUs that should see no device interrupts.
     * @return IRQs that may be delivered to one of them.
     */
    public TreeSet<Integer> irqsReaching(final BitSet cpus)
    {
        final TreeSet<Integer> reaching = new TreeSet<>();
        for (final Map.Entry<Integer, BitSet> e : irqAffinity.entrySet())
        {
            if (e.getValue().intersects(cpus))
            {
                reaching.add(e.getKey());
            }
        }
        return reaching;
    }

    private static void orList(final BitSet into, final String text)
    {
        if (text == null || text.isBlank() || text.trim().equals("(null)"))
        {
            return;
        }
        try
        {
            into.or(CpuList.parse(text.trim()));
        }
        catch (final IllegalArgumentException ignore)
        {
            // advisory: a malformed list reads as none
        }
    }
}
