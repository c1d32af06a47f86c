package io.ringwatch.perf.live;

import io.ringwatch.core.config.Durations;
import io.ringwatch.transport.aeron.TransportMode;

import java.util.Locale;

/**
 * One cell of the detection benchmark's matrix.
 *
 * @param nodes              cluster size N.
 * @param suspicionTimeoutNs suspicion timeout δ.
 * @param heartbeatPeriodNs  heartbeat period η.
 * @param profile            node tuning profile: {@code low-latency} or {@code low-noise}.
 * @param transport          ipc or udp.
 */
public record DetectionConfig(
    int nodes, long suspicionTimeoutNs, long heartbeatPeriodNs, String profile, TransportMode transport)
{
    /**
     * @throws IllegalArgumentException on a cluster too small to kill anyone in, or η not below δ.
     */
    public DetectionConfig
    {
        if (nodes < 3)
        {
            throw new IllegalArgumentException("nodes must be >= 3 so a kill leaves ceil(N/2) alive: " + nodes);
        }
        if (heartbeatPeriodNs <= 0 || heartbeatPeriodNs >= suspicionTimeoutNs)
        {
            throw new IllegalArgumentException("need 0 < heartbeat period < suspicion timeout: heartbeat period " +
                Durations.format(heartbeatPeriodNs) + ", suspicion timeout " + Durations.format(suspicionTimeoutNs));
        }
    }

    /**
     * @return survivors kept per cluster start: ⌈N/2⌉.
     */
    public int minAlive()
    {
        return (nodes + 1) / 2;
    }

    /**
     * @return e.g. {@code n=8 δ=10ms η=1ms low-noise ipc}.
     */
    public String label()
    {
        return "n=" + nodes + " δ=" + Durations.format(suspicionTimeoutNs) + " η=" +
            Durations.format(heartbeatPeriodNs) + " " + profile + " " +
            transport.name().toLowerCase(Locale.ROOT);
    }
}
