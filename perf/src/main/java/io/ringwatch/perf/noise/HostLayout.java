package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;

import java.util.BitSet;

/**
 * Which cores the application owns and which are left for the detector (and this harness).
 *
 * @param appCpus      cores of the loads.
 * @param detectorCpus every other allowed core: the harness, and the detector when it does not share.
 */
public record HostLayout(BitSet appCpus, BitSet detectorCpus)
{
    /**
     * @throws IllegalArgumentException if either set is empty or they overlap.
     */
    public HostLayout
    {
        if (appCpus.isEmpty() || detectorCpus.isEmpty() || appCpus.intersects(detectorCpus))
        {
            throw new IllegalArgumentException("need disjoint, non-empty application and detector cores: app " +
                CpuList.format(appCpus) + ", detector " + CpuList.format(detectorCpus) + " (the host needs 2 cores)");
        }
    }

    /**
     * @param allowed      cores this process may use.
     * @param appCpusOrNull the application's cores, or null for every allowed core but the last.
     * @return the layout.
     */
    public static HostLayout of(final BitSet allowed, final BitSet appCpusOrNull)
    {
        final BitSet app = new BitSet();
        if (appCpusOrNull == null)
        {
            app.or(allowed);
            app.clear(allowed.length() - 1);
        }
        else
        {
            app.or(appCpusOrNull);
        }
        final BitSet detector = (BitSet)allowed.clone();
        detector.andNot(app);
        return new HostLayout(app, detector);
    }

    /**
     * @param i index.
     * @return the i-th application core.
     */
    int appCpu(final int i)
    {
        return nth(appCpus, i);
    }

    /**
     * @param i index.
     * @return the i-th detector core.
     */
    int detectorCpu(final int i)
    {
        return nth(detectorCpus, i);
    }

    static BitSet single(final int cpu)
    {
        final BitSet set = new BitSet();
        set.set(cpu);
        return set;
    }

    private static int nth(final BitSet set, final int i)
    {
        int cpu = set.nextSetBit(0);
        for (int k = 0; k < i; k++)
        {
            cpu = set.nextSetBit(cpu + 1);
        }
        if (cpu < 0)
        {
            throw new IllegalArgumentException("no core number " + i + " in " + CpuList.format(set));
        }
        return cpu;
    }

    public String toString()
    {
        return "application cores " + CpuList.format(appCpus) + ", detector/harness cores " +
            CpuList.format(detectorCpus);
    }
}
