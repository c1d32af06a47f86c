package io.ringwatch.perf.live;

import io.ringwatch.transport.aeron.TransportMode;

import java.util.Locale;

/**
 * One cell of the detection benchmark's matrix.
 *
 * @param nodes       cluster size N.
 * @param timeoutNs   suspicion timeout δ.
 * @param heartbeatNs heartbeat period η.
 * @param profile     node tuning profile: {@code low-latency} or {@code low-noise}.
 * @param transport   ipc or udp.
 */
public record DetectionConfig(int nodes, long timeoutNs, long heartbeatNs, String profile, TransportMode transport)
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
        if (heartbeatNs <= 0 || heartbeatNs >= timeoutNs)
        {
            throw new IllegalArgumentException("need 0 < eta < delta: eta=" + heartbeatNs + "ns delta=" + timeoutNs + "ns");
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
        return "n=" + nodes + " δ=" + duration(timeoutNs) + " η=" + duration(heartbeatNs) + " " + profile + " " +
            transport.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param ns a duration.
     * @return it in the largest unit that keeps it whole: s, ms, us or ns.
     */
    public static String duration(final long ns)
    {
        if (ns % 1_000_000_000L == 0)
        {
            return ns / 1_000_000_000L + "s";
        }
        if (ns % 1_000_000L == 0)
        {
            return ns / 1_000_000L + "ms";
        }
        if (ns % 1_000L == 0)
        {
            return ns / 1_000L + "us";
        }
        return ns + "ns";
    }
}
