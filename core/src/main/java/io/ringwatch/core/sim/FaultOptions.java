package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.List;

import static io.ringwatch.core.sim.Options.require;

/**
 * The faults of a run: generated crashes and how they are placed, random pauses, stalls near a cut, boot stalls,
 * and scripted {@link Injection}s. Set through {@link SimConfig}; the simulator's fault plan draws them from the
 * run's seed.
 */
public final class FaultOptions
{
    FailurePlacement placement = FailurePlacement.SCRIPTED;
    int failures;
    long crashWindowNs = -1;
    long mtbfNs = 365L * 24 * 3600 * 1_000_000_000L;
    long firstFailureNs = -1;
    int randomPauses;
    long randomPauseNs = -1;
    long cutStallNs;
    int bootStalls;
    long bootStallMinNs = -1;
    long bootStallMaxNs = -1;
    long bootStallLeadNs = -1;
    final List<Injection> injections = new ArrayList<>();

    FaultOptions copy()
    {
        final FaultOptions copy = new FaultOptions();
        copy.placement = placement;
        copy.failures = failures;
        copy.crashWindowNs = crashWindowNs;
        copy.mtbfNs = mtbfNs;
        copy.firstFailureNs = firstFailureNs;
        copy.randomPauses = randomPauses;
        copy.randomPauseNs = randomPauseNs;
        copy.cutStallNs = cutStallNs;
        copy.bootStalls = bootStalls;
        copy.bootStallMinNs = bootStallMinNs;
        copy.bootStallMaxNs = bootStallMaxNs;
        copy.bootStallLeadNs = bootStallLeadNs;
        copy.injections.addAll(injections);
        return copy;
    }

    void conclude(final int nodes, final ProtocolOptions protocol)
    {
        final long deltaNs = protocol.suspicionTimeoutNs;
        require(failures >= 0 && failures < nodes, "failures must be in [0, nodes): " + failures);
        require(mtbfNs > 0, "mtbf must be > 0: " + mtbfNs + "ns");
        require(placement != null, "placement must be set");
        require(cutStallNs >= 0, "stall must be >= 0: " + cutStallNs + "ns");
        if (crashWindowNs < 0)
        {
            crashWindowNs = deltaNs / 2;
        }
        if (randomPauseNs < 0)
        {
            randomPauseNs = 2 * deltaNs;
        }
        require(randomPauses >= 0 && randomPauses + failures < nodes,
            "random pauses must be in [0, nodes - failures): " + randomPauses);
        require(randomPauses == 0 || randomPauseNs > 0, "pause duration must be > 0: " + randomPauseNs + "ns");
        require(crashWindowNs < deltaNs,
            "crash window " + crashWindowNs + "ns must be shorter than delta " + deltaNs + "ns");
        if (firstFailureNs < 0)
        {
            // after every node has seen a heartbeat from its emitter: the start is jittered over one period
            firstFailureNs = deltaNs + protocol.heartbeatPeriodNs;
        }
        final long graceNs = protocol.startupGraceNs;
        if (bootStallMaxNs < 0)
        {
            bootStallMaxNs = 8 * deltaNs;
        }
        if (bootStallMinNs < 0)
        {
            bootStallMinNs = Math.min(2 * deltaNs, bootStallMaxNs);
        }
        if (bootStallLeadNs < 0)
        {
            bootStallLeadNs = graceNs;
        }
        require(bootStalls >= 0 && bootStalls <= nodes, "boot stalls must be in [0, nodes]: " + bootStalls);
        require(bootStalls == 0 || bootStallMinNs > 0 && bootStallMinNs <= bootStallMaxNs,
            "boot stalls must last (0, max] with min <= max: " + bootStallMinNs + "ns.." + bootStallMaxNs + "ns");
        require(bootStalls == 0 || bootStallLeadNs > 0 && bootStallLeadNs <= graceNs,
            "boot stalls start within the grace: lead must be in (0, grace " + graceNs + "ns]: " + bootStallLeadNs +
            "ns");
        for (final Injection injection : injections)
        {
            require(injection.rank() >= 0 && injection.rank() < nodes,
                "injection rank " + injection.rank() + " not in [0, " + nodes + ")");
            require(injection.peer() < nodes, "injection peer " + injection.peer() + " not in [0, " + nodes + ")");
        }
    }

    /**
     * @return how generated crashes are placed.
     */
    public FailurePlacement placement()
    {
        return placement;
    }

    /**
     * @return f: crashes to generate (an upper limit for {@link FailurePlacement#EXPONENTIAL}).
     */
    public int failures()
    {
        return failures;
    }

    /**
     * @return random and contiguous crashes all strike within this long after the first failure time.
     */
    public long crashWindowNs()
    {
        return crashWindowNs;
    }

    /**
     * @return μ_ind, the MTBF of one node, for exponential arrivals.
     */
    public long mtbfNs()
    {
        return mtbfNs;
    }

    /**
     * @return time of the first generated crash.
     */
    public long firstFailureNs()
    {
        return firstFailureNs;
    }

    /**
     * @return nodes paused per run at random within the crash window.
     */
    public int randomPauses()
    {
        return randomPauses;
    }

    /**
     * @return how long each random pause lasts.
     */
    public long randomPauseNs()
    {
        return randomPauseNs;
    }

    /**
     * Scheduling stalls near the cut: the nodes on either side of each edge of the first partition (a node whose
     * ring predecessor is in another group, and that predecessor) pause this long at a random time within the first
     * cut, as an overloaded host's agents would.
     *
     * @return how long each such stall lasts; 0 for none.
     */
    public long cutStallNs()
    {
        return cutStallNs;
    }

    /**
     * Boot stalls, as JVMs warming up on a loaded host: this many distinct random nodes each stall (pause) once for
     * a duration uniform in [{@link #bootStallMinNs()}, {@link #bootStallMaxNs()}], starting at a uniform moment
     * within {@link #bootStallLeadNs()} before its own grace ends (so a stall may run on past the grace).
     *
     * @return nodes that stall once near the end of their startup grace.
     */
    public int bootStalls()
    {
        return bootStalls;
    }

    /**
     * @return the shortest boot stall.
     */
    public long bootStallMinNs()
    {
        return bootStallMinNs;
    }

    /**
     * @return the longest boot stall.
     */
    public long bootStallMaxNs()
    {
        return bootStallMaxNs;
    }

    /**
     * @return boot stalls start within this long before the stalled node's grace ends.
     */
    public long bootStallLeadNs()
    {
        return bootStallLeadNs;
    }

    /**
     * @return the scripted faults, in the order given.
     */
    public List<Injection> injections()
    {
        return List.copyOf(injections);
    }
}
