package io.ringwatch.core.sim;

import java.util.ArrayList;
import java.util.List;

import static io.ringwatch.core.sim.Options.require;

/**
 * The simulated network: message delays, the one-port model, loss, and the partitions with their flapping. Set
 * through {@link SimConfig}; {@link Network} applies them.
 */
public final class NetworkOptions
{
    long maxDelayNs = 1_000_000L;
    DelayModel delayModel;
    boolean onePort;
    double lossProbability;
    final List<Partition> partitions = new ArrayList<>();
    int flaps = 1;
    long flapUpNs;

    NetworkOptions copy()
    {
        final NetworkOptions copy = new NetworkOptions();
        copy.maxDelayNs = maxDelayNs;
        copy.delayModel = delayModel;
        copy.onePort = onePort;
        copy.lossProbability = lossProbability;
        copy.partitions.addAll(partitions);
        copy.flaps = flaps;
        copy.flapUpNs = flapUpNs;
        return copy;
    }

    void conclude(final int nodes)
    {
        require(maxDelayNs > 0, "max message delay (tau) must be > 0: " + maxDelayNs + "ns");
        require(lossProbability >= 0 && lossProbability < 1, "loss must be in [0, 1): " + lossProbability);
        require(flaps >= 1, "flap needs at least one cut: " + flaps);
        require(flaps == 1 || flapUpNs > 0, "flapping needs an up time > 0: " + flapUpNs + "ns");
        for (final Partition partition : partitions)
        {
            require(partition.nodes() == nodes, "partition groups " + partition.describe() + " must add up to " +
                nodes + " nodes");
        }
    }

    /**
     * @return τ, the delay bound the checks and the Theorem 1 bound assume.
     */
    public long maxDelayNs()
    {
        return maxDelayNs;
    }

    /**
     * @return the delay model: the one set, else uniform in (0, τ].
     */
    public DelayModel delayModel()
    {
        return delayModel != null ? delayModel : DelayModel.uniform(maxDelayNs);
    }

    /**
     * @return true if a delay model was set, which may exceed τ.
     */
    public boolean customDelays()
    {
        return delayModel != null;
    }

    /**
     * @return whether each node's sends and receives are serialized (the paper's one-port model).
     */
    public boolean onePort()
    {
        return onePort;
    }

    /**
     * @return the probability that any single message is lost.
     */
    public double lossProbability()
    {
        return lossProbability;
    }

    /**
     * @return the partitions, in the order given.
     */
    public List<Partition> partitions()
    {
        return List.copyOf(partitions);
    }

    /**
     * A flapping link: the first partition's cut (the same groups) goes down this many times, each for its
     * duration, up for {@link #flapUpNs()} in between.
     *
     * @return times the first partition's cut happens, 1 for a plain partition.
     */
    public int flaps()
    {
        return flaps;
    }

    /**
     * @return how long the network is whole between two flaps.
     */
    public long flapUpNs()
    {
        return flapUpNs;
    }
}
