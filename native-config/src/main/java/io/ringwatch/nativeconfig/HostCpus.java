package io.ringwatch.nativeconfig;

import java.util.BitSet;

/**
 * Which cores exist, which this process may run on, and which the kernel keeps free of general work.
 * Immutable; {@link #probe()} reads the real host, the {@code parse*} methods take file contents.
 */
public final class HostCpus
{
    private static final String CPUS_ALLOWED_LIST = "Cpus_allowed_list:";

    private final BitSet online;
    private final BitSet allowed;
    private final BitSet isolated;

    /**
     * @param online   CPUs the kernel has online.
     * @param allowed  CPUs in this process's affinity mask.
     * @param isolated CPUs isolated from the scheduler or from the tick.
     */
    public HostCpus(final BitSet online, final BitSet allowed, final BitSet isolated)
    {
        this.online = (BitSet)online.clone();
        this.allowed = (BitSet)allowed.clone();
        this.isolated = (BitSet)isolated.clone();
    }

    /**
     * Read the running host. Missing files degrade to what the JVM knows: all of
     * {@code availableProcessors()} online and allowed, none isolated.
     *
     * @return the host's CPUs.
     */
    public static HostCpus probe()
    {
        final BitSet fallback = new BitSet();
        fallback.set(0, Runtime.getRuntime().availableProcessors());

        BitSet online = parseListOrNull(HostFiles.readOrNull(HostFiles.SYS_CPU.resolve("online")));
        if (online == null || online.isEmpty())
        {
            online = fallback;
        }

        BitSet allowed = null;
        final String status = HostFiles.readOrNull(HostFiles.PROC_SELF_STATUS);
        if (status != null)
        {
            try
            {
                allowed = parseCpusAllowedList(status);
            }
            catch (final IllegalArgumentException ignore)
            {
                // fall back below: an unparseable mask must not stop a node from starting
            }
        }
        if (allowed == null || allowed.isEmpty())
        {
            allowed = (BitSet)online.clone();
        }

        final BitSet isolated = parseIsolatedCores(
            HostFiles.readOrNull(HostFiles.SYS_CPU_ISOLATED), HostFiles.readOrNull(HostFiles.PROC_CMDLINE));

        return new HostCpus(online, allowed, isolated);
    }

    /**
     * {@code Cpus_allowed_list} from {@code /proc/<pid>/status}.
     *
     * @param procStatus whole file contents.
     * @return the allowed CPUs, or {@code null} when the line is absent.
     * @throws IllegalArgumentException if the line is present but malformed.
     */
    public static BitSet parseCpusAllowedList(final String procStatus)
    {
        for (final String line : procStatus.split("\n"))
        {
            if (line.startsWith(CPUS_ALLOWED_LIST))
            {
                return CpuList.parse(line.substring(CPUS_ALLOWED_LIST.length()));
            }
        }

        return null;
    }

    /**
     * Union of the cores listed in {@code /sys/devices/system/cpu/isolated} and those named by the
     * {@code isolcpus=} and {@code nohz_full=} kernel parameters. Both matter to a busy-spinning agent:
     * isolcpus keeps other tasks off the core, nohz_full stops the scheduler tick interrupting it.
     * Malformed parts are ignored: this is advisory information.
     *
     * @param sysIsolated contents of {@code /sys/devices/system/cpu/isolated}, or {@code null}.
     * @param cmdline     contents of {@code /proc/cmdline}, or {@code null}.
     * @return isolated cores, possibly empty.
     */
    public static BitSet parseIsolatedCores(final String sysIsolated, final String cmdline)
    {
        final BitSet isolated = new BitSet();
        final BitSet fromSys = parseListOrNull(sysIsolated);
        if (fromSys != null)
        {
            isolated.or(fromSys);
        }

        if (cmdline != null)
        {
            for (final String param : cmdline.trim().split("\\s+"))
            {
                if (param.startsWith("isolcpus="))
                {
                    isolated.or(parseIsolcpusValue(param.substring("isolcpus=".length())));
                }
                else if (param.startsWith("nohz_full="))
                {
                    final BitSet nohz = parseListOrNull(param.substring("nohz_full=".length()));
                    if (nohz != null)
                    {
                        isolated.or(nohz);
                    }
                }
            }
        }

        return isolated;
    }

    /**
     * {@code isolcpus=[flag,...,]cpu-list}: flags such as {@code domain}, {@code nohz}, {@code managed_irq}
     * come first and start with a letter.
     */
    static BitSet parseIsolcpusValue(final String value)
    {
        final StringBuilder list = new StringBuilder();
        for (final String token : value.split(","))
        {
            if (!token.isEmpty() && !Character.isLetter(token.charAt(0)))
            {
                if (list.length() > 0)
                {
                    list.append(',');
                }
                list.append(token);
            }
        }

        final BitSet cpus = parseListOrNull(list.toString());
        return cpus == null ? new BitSet() : cpus;
    }

    private static BitSet parseListOrNull(final String text)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            return CpuList.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    /**
     * @return number of online cores.
     */
    public int availableCores()
    {
        return online.cardinality();
    }

    /**
     * @return highest online CPU number; pinning beyond it is out of range.
     */
    public int highestCpu()
    {
        return online.length() - 1;
    }

    /**
     * @return online CPUs (a copy).
     */
    public BitSet onlineCores()
    {
        return (BitSet)online.clone();
    }

    /**
     * @return CPUs this process may run on (a copy).
     */
    public BitSet allowedCores()
    {
        return (BitSet)allowed.clone();
    }

    /**
     * @return isolated CPUs (a copy), whether or not this process may use them.
     */
    public BitSet isolatedCores()
    {
        return (BitSet)isolated.clone();
    }

    /**
     * Cores a pinned busy-spin agent can use without stealing from the application: the isolated cores this
     * process may run on, or, on a host without isolation, every allowed core.
     *
     * @return spare cores (a copy).
     */
    public BitSet spareCores()
    {
        final BitSet spare = (BitSet)isolated.clone();
        spare.and(allowed);
        return spare.isEmpty() ? allowedCores() : spare;
    }

    public String toString()
    {
        return "HostCpus{online=" + CpuList.format(online) + ", allowed=" + CpuList.format(allowed) +
            ", isolated=" + CpuList.format(isolated) + '}';
    }
}
