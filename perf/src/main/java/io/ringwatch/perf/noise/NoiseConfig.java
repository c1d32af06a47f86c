package io.ringwatch.perf.noise;

import io.ringwatch.perf.live.DetectionConfig;
import io.ringwatch.transport.aeron.TransportMode;

import java.util.Locale;

/**
 * One detector configuration the noise benchmark compares against no detector.
 *
 * @param placement    where the detector runs.
 * @param heartbeatNs  η; δ is {@link #timeoutNs()}.
 * @param nodesPerHost node processes on this host (the host under test); one more node, the peer, stands for the
 *                     rest of the cluster and runs on the detector's cores.
 * @param transport    ipc or udp.
 */
public record NoiseConfig(Placement placement, long heartbeatNs, int nodesPerHost, TransportMode transport)
{
    /** δ = {@value} η. */
    public static final int TIMEOUT_RATIO = 10;

    /**
     * @throws IllegalArgumentException on η ≤ 0 or no node.
     */
    public NoiseConfig
    {
        if (heartbeatNs <= 0 || nodesPerHost < 1)
        {
            throw new IllegalArgumentException("need η > 0 and at least one node per host: η=" + heartbeatNs +
                "ns nodes=" + nodesPerHost);
        }
    }

    /**
     * @return δ.
     */
    public long timeoutNs()
    {
        return TIMEOUT_RATIO * heartbeatNs;
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
        return placement.cliName() + " η=" + DetectionConfig.duration(heartbeatNs) + " δ=" +
            DetectionConfig.duration(timeoutNs()) + " " + nodesPerHost + "/host " +
            transport.name().toLowerCase(Locale.ROOT);
    }
}
