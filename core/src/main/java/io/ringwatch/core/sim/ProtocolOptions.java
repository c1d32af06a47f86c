package io.ringwatch.core.sim;

import io.ringwatch.core.broadcast.BroadcastKind;
import io.ringwatch.core.config.PartitionPolicy;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.protocol.ProtocolSettings;

import static io.ringwatch.core.sim.Options.require;

/**
 * What every simulated node runs: the protocol's parameters, as {@link ProtocolSettings} holds them for a live
 * node, plus the broadcast schedule and whether frames are authenticated. Set through {@link SimConfig}; the
 * defaults that derive from η and δ are filled when it is concluded.
 */
public final class ProtocolOptions
{
    long heartbeatPeriodNs = 100_000_000L;
    long suspicionTimeoutNs = 1_000_000_000L;
    long pauseThresholdNs = -1;
    long fenceIntervalNs = -1;
    long probeTimeoutNs = -1;
    long viewDigestPeriodNs = -1;
    long startupGraceNs;
    int brokenRules;
    PartitionPolicy partitionPolicy = PartitionPolicy.MAJORITY;
    BroadcastKind broadcast = BroadcastKind.DOUBLE_HYPERCUBE;
    boolean authentication = true;
    boolean replayGuards;
    boolean runBinding;

    ProtocolOptions copy()
    {
        final ProtocolOptions copy = new ProtocolOptions();
        copy.heartbeatPeriodNs = heartbeatPeriodNs;
        copy.suspicionTimeoutNs = suspicionTimeoutNs;
        copy.pauseThresholdNs = pauseThresholdNs;
        copy.fenceIntervalNs = fenceIntervalNs;
        copy.probeTimeoutNs = probeTimeoutNs;
        copy.viewDigestPeriodNs = viewDigestPeriodNs;
        copy.startupGraceNs = startupGraceNs;
        copy.brokenRules = brokenRules;
        copy.partitionPolicy = partitionPolicy;
        copy.broadcast = broadcast;
        copy.authentication = authentication;
        copy.replayGuards = replayGuards;
        copy.runBinding = runBinding;
        return copy;
    }

    void conclude()
    {
        require(heartbeatPeriodNs > 0, "heartbeat period (eta) must be > 0: " + heartbeatPeriodNs + "ns");
        require(suspicionTimeoutNs > heartbeatPeriodNs,
            "suspicion timeout (delta) " + suspicionTimeoutNs + "ns must exceed eta " + heartbeatPeriodNs + "ns");
        require(broadcast != null, "broadcast must be set");
        if (pauseThresholdNs < 0)
        {
            pauseThresholdNs = suspicionTimeoutNs / 2;
        }
        require(pauseThresholdNs > 0 && pauseThresholdNs < suspicionTimeoutNs,
            "pause threshold must be in (0, delta): " + pauseThresholdNs + "ns");
        if (fenceIntervalNs < 0)
        {
            fenceIntervalNs = suspicionTimeoutNs;
        }
        require(fenceIntervalNs > 0, "fence interval must be > 0: " + fenceIntervalNs + "ns");
        require(partitionPolicy != null, "partition policy must be set");
        if (probeTimeoutNs < 0)
        {
            probeTimeoutNs = ProtocolSettings.defaultProbeTimeoutNs(heartbeatPeriodNs, suspicionTimeoutNs);
        }
        require(probeTimeoutNs < suspicionTimeoutNs, "probe timeout must be below delta: " + probeTimeoutNs + "ns");
        if (viewDigestPeriodNs < 0)
        {
            viewDigestPeriodNs = ProtocolSettings.defaultViewDigestPeriodNs(suspicionTimeoutNs);
        }
        require(startupGraceNs >= 0, "startup grace must be >= 0: " + startupGraceNs + "ns");
    }

    /**
     * @param nodes N.
     * @return the settings every node of an N-node run gets.
     */
    public ProtocolSettings settings(final int nodes)
    {
        return ProtocolSettings.of(nodes, heartbeatPeriodNs, suspicionTimeoutNs)
            .withPauseThresholdNs(pauseThresholdNs)
            .withFenceIntervalNs(fenceIntervalNs)
            .withPartitionPolicy(partitionPolicy)
            .withProbeTimeoutNs(probeTimeoutNs)
            .withViewDigestPeriodNs(viewDigestPeriodNs)
            .withStartupGraceNs(startupGraceNs)
            .withBrokenRules(brokenRules);
    }

    /**
     * @return η.
     */
    public long heartbeatPeriodNs()
    {
        return heartbeatPeriodNs;
    }

    /**
     * @return δ.
     */
    public long suspicionTimeoutNs()
    {
        return suspicionTimeoutNs;
    }

    /**
     * @return a duty cycle this late restarts the node's suspicion window.
     */
    public long pauseThresholdNs()
    {
        return pauseThresholdNs;
    }

    /**
     * @return least time between two fencing notices to the same zombie.
     */
    public long fenceIntervalNs()
    {
        return fenceIntervalNs;
    }

    /**
     * @return the probe round timeout; 0 declares suspicions without probing.
     */
    public long probeTimeoutNs()
    {
        return probeTimeoutNs;
    }

    /**
     * @return the view digest period; 0 turns view repair off.
     */
    public long viewDigestPeriodNs()
    {
        return viewDigestPeriodNs;
    }

    /**
     * @return every node's startup grace.
     */
    public long startupGraceNs()
    {
        return startupGraceNs;
    }

    /**
     * @return {@code BrokenRules.BREAK_*} bits: rules every node runs without.
     */
    public int brokenRules()
    {
        return brokenRules;
    }

    /**
     * @return what nodes do when they cannot count a majority alive.
     */
    public PartitionPolicy partitionPolicy()
    {
        return partitionPolicy;
    }

    /**
     * @return the broadcast schedule every node runs.
     */
    public BroadcastKind broadcast()
    {
        return broadcast;
    }

    /**
     * @return whether frames are authenticated, so that forged ones are refused.
     */
    public boolean authentication()
    {
        return authentication;
    }

    /**
     * @return whether each node judges its frames with a replay guard of its own, as live ({@code Wire}).
     */
    public boolean replayGuards()
    {
        return replayGuards;
    }

    /**
     * @return whether each node draws a candidate run and binds its frames to a run, as live ({@code Wire}).
     */
    public boolean runBinding()
    {
        return runBinding;
    }
}
