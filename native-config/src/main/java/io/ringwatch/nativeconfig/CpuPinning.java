package io.ringwatch.nativeconfig;

import net.openhft.affinity.Affinity;
import net.openhft.affinity.IAffinity;
import net.openhft.affinity.impl.NullAffinity;

import java.util.BitSet;

/**
 * Binds the calling thread to one CPU through OpenHFT Java-Thread-Affinity ({@code sched_setaffinity} via
 * JNA). Never throws for the ordinary reasons pinning is impossible; it says why in a {@link PinResult}.
 * <p>
 * Pinning is per thread: call it from the thread that will run the agent, before its duty cycle starts.
 */
public final class CpuPinning
{
    private final HostCpus cpus;

    /**
     * @param cpus the host's CPUs, deciding which requests are out of range or outside the allowed set.
     */
    public CpuPinning(final HostCpus cpus)
    {
        this.cpus = cpus;
    }

    /**
     * @return pinning against the running host's CPUs.
     */
    public static CpuPinning forThisHost()
    {
        return new CpuPinning(HostCpus.probe());
    }

    /**
     * @return number of online cores.
     */
    public int availableCores()
    {
        return cpus.availableCores();
    }

    /**
     * @return isolated cores (a copy).
     */
    public BitSet isolatedCores()
    {
        return cpus.isolatedCores();
    }

    /**
     * @return cores this process may run on (a copy).
     */
    public BitSet allowedCores()
    {
        return cpus.allowedCores();
    }

    /**
     * Whether the affinity library found a native implementation; without one it silently ignores requests,
     * which is why we check.
     *
     * @return {@code null} if usable, otherwise the reason it is not.
     */
    public static String nativeAffinityUnavailableReason()
    {
        try
        {
            final IAffinity impl = Affinity.getAffinityImpl();
            if (impl instanceof NullAffinity)
            {
                return "OpenHFT affinity fell back to its no-op implementation (JNA native part not loadable " +
                    "on " + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ")";
            }
            return null;
        }
        catch (final LinkageError ex)
        {
            return "OpenHFT affinity could not load: " + ex;
        }
    }

    /**
     * Bind the calling thread to {@code cpu} and verify the kernel applied it.
     *
     * @param cpu CPU number as the kernel numbers them.
     * @return success, or the reason: out of range, not in this process's allowed set, no native affinity
     * support, or the system call's failure.
     */
    public PinResult pinCurrentThread(final int cpu)
    {
        if (cpu < 0 || cpu > cpus.highestCpu())
        {
            return PinResult.failed(cpu, "CPU " + cpu + " out of range: online CPUs are " +
                CpuList.format(cpus.onlineCores()));
        }

        final BitSet allowed = cpus.allowedCores();
        if (!allowed.get(cpu))
        {
            return PinResult.failed(cpu, "CPU " + cpu + " is not in this process's allowed set " +
                CpuList.format(allowed) + " (Cpus_allowed_list; check taskset, cgroup cpuset or the container's " +
                "--cpuset-cpus)");
        }

        final String unavailable = nativeAffinityUnavailableReason();
        if (unavailable != null)
        {
            return PinResult.failed(cpu, unavailable);
        }

        final BitSet wanted = new BitSet();
        wanted.set(cpu);
        try
        {
            Affinity.setAffinity(wanted);
            final BitSet actual = Affinity.getAffinity();
            if (!wanted.equals(actual))
            {
                return PinResult.failed(cpu, "kernel reports affinity " + CpuList.format(actual) +
                    " after asking for " + cpu);
            }
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return PinResult.failed(cpu, "sched_setaffinity failed: " + ex.getMessage());
        }

        return PinResult.pinned(cpu);
    }

    /**
     * Give the calling thread back every allowed core, undoing {@link #pinCurrentThread(int)}.
     *
     * @return success, or why the mask could not be restored ({@code cpu} is -1 in the result).
     */
    public PinResult unpinCurrentThread()
    {
        final String unavailable = nativeAffinityUnavailableReason();
        if (unavailable != null)
        {
            return PinResult.failed(-1, unavailable);
        }
        try
        {
            Affinity.setAffinity(cpus.allowedCores());
            return PinResult.pinned(-1);
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return PinResult.failed(-1, "sched_setaffinity failed: " + ex.getMessage());
        }
    }

    /**
     * @return the calling thread's current affinity as the kernel reports it, or {@code null} without native
     * support.
     */
    public static BitSet currentThreadAffinity()
    {
        if (nativeAffinityUnavailableReason() != null)
        {
            return null;
        }
        try
        {
            return Affinity.getAffinity();
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
    }
}
