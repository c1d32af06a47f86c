package io.ringwatch.nativeconfig;

import java.util.BitSet;

/**
 * The kernel's CPU list format ({@code "0-3,8,10-11"}), used by {@code Cpus_allowed_list},
 * {@code /sys/devices/system/cpu/isolated} and the {@code isolcpus=}/{@code nohz_full=} boot parameters.
 */
public final class CpuList
{
    /** Upper bound on a CPU number accepted from text, so a corrupt range cannot allocate a huge set. */
    public static final int MAX_CPU = 1 << 16;

    private CpuList()
    {
    }

    /**
     * Parse a CPU list. Blank text is the empty set.
     *
     * @param text such as {@code "0-3,8"}; surrounding whitespace is ignored.
     * @return the CPUs named.
     * @throws IllegalArgumentException naming the offending element when the text is not a CPU list.
     */
    public static BitSet parse(final String text)
    {
        final BitSet cpus = new BitSet();
        final String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty())
        {
            return cpus;
        }

        for (final String element : trimmed.split(","))
        {
            final String item = element.trim();
            final int dash = item.indexOf('-');
            if (dash < 0)
            {
                cpus.set(parseCpu(item, text));
            }
            else
            {
                final int from = parseCpu(item.substring(0, dash), text);
                final int to = parseCpu(item.substring(dash + 1), text);
                if (to < from)
                {
                    throw new IllegalArgumentException("descending CPU range '" + item + "' in '" + text + "'");
                }
                cpus.set(from, to + 1);
            }
        }

        return cpus;
    }

    /**
     * Format a set in the kernel's list format, collapsing runs into ranges.
     *
     * @param cpus set to format.
     * @return e.g. {@code "0-3,8"}, or {@code ""} for the empty set.
     */
    public static String format(final BitSet cpus)
    {
        final StringBuilder sb = new StringBuilder();
        int from = cpus.nextSetBit(0);
        while (from >= 0)
        {
            final int to = cpus.nextClearBit(from) - 1;
            if (sb.length() > 0)
            {
                sb.append(',');
            }
            sb.append(from);
            if (to > from)
            {
                sb.append('-').append(to);
            }
            from = cpus.nextSetBit(to + 1);
        }

        return sb.toString();
    }

    private static int parseCpu(final String value, final String whole)
    {
        final int cpu;
        try
        {
            cpu = Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + value + "' is not a CPU number in '" + whole + "'", ex);
        }
        if (cpu < 0 || cpu > MAX_CPU)
        {
            throw new IllegalArgumentException("CPU " + cpu + " out of [0, " + MAX_CPU + "] in '" + whole + "'");
        }

        return cpu;
    }
}
