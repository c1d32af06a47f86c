package io.ringwatch.perf.noise;

import io.ringwatch.core.config.Durations;
import io.ringwatch.transport.aeron.TransportMode;

import java.util.Locale;

/**
 * One detector configuration the noise benchmark compares against no detector.
 *
 * @param placement    where the detector runs.
 * @param heartbeatPeriodNs  η; δ is {@link #suspicionTimeoutNs()}.
 * @param nodesPerHost node processes on this host (the host under test); one more node, the peer, stands for the
 *                     rest of the cluster and runs on the detector's cores.
 * @param transport    ipc or udp.
 */
public record NoiseConfig(Placement placement, long heartbeatPeriodNs, int nodesPerHost, TransportMode transport)
{
    /** δ = {@value} η. */
    public static final int TIMEOUT_RATIO = 10;

    /**
     * @throws IllegalArgumentException on η ≤ 0 or no node.
     */
    public NoiseConfig
    {
        if (heartbeatPeriodNs <= 0 || nodesPerHost < 1)
        {
            throw new IllegalArgumentException("need η > 0 and at least one node per host: η=" + heartbeatPeriodNs +
                "ns nodes=" + nodesPerHost);
        }
    }

    /**
     * @return δ.
     */
    public long suspicionTimeoutNs()
    {
        return TIMEOUT_RATIO * heartbeatPeriodNs;
    }

    /**
     * @return nodes in the cluster: this host's and the peer.
     */
    public int clusterSize()
    {
        return nodesPerHost + 1;
    }

    /**
     * @return e.g. {@code low-noise η=1ms δ=10ms 1/host ipc}.
     */
    public String label()
    {
        return placement.cliName() + " η=" + Durations.format(heartbeatPeriodNs) + " δ=" +
            Durations.format(suspicionTimeoutNs()) + " " + nodesPerHost + "/host " +
            transport.name().toLowerCase(Locale.ROOT);
    }
}
