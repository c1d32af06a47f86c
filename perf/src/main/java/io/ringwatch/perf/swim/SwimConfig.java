package io.ringwatch.perf.swim;

/**
 * Parameters of the SWIM model, named after hashicorp/memberlist's {@code Config} fields.
 *
 * @param name                    preset name for reports.
 * @param probeIntervalNs         protocol period: one probe per node per period.
 * @param probeTimeoutNs          wait for a direct ack before asking others to probe (ping-req).
 * @param indirectChecks          k: nodes asked to probe indirectly.
 * @param suspicionMult           suspicion timeout floor = mult · max(1, log₁₀ n) · probe interval.
 * @param suspicionMaxTimeoutMult ceiling = this · floor (Lifeguard); confirmations shrink the timeout towards the
 *                                floor.
 * @param retransmitMult          each update is piggybacked mult · ⌈log₁₀(n + 1)⌉ times.
 * @param gossipIntervalNs        extra gossip of queued updates, when any are queued.
 * @param gossipNodes             random nodes per gossip round.
 * @param maxPiggyback            updates carried per message (a 1400-byte UDP packet holds far more of ours).
 */
public record SwimConfig(
    String name,
    long probeIntervalNs,
    long probeTimeoutNs,
    int indirectChecks,
    int suspicionMult,
    int suspicionMaxTimeoutMult,
    int retransmitMult,
    long gossipIntervalNs,
    int gossipNodes,
    int maxPiggyback)
{
    /**
     * Validates.
     */
    public SwimConfig
    {
        if (probeIntervalNs <= 0 || probeTimeoutNs <= 0 || probeTimeoutNs >= probeIntervalNs)
        {
            throw new IllegalArgumentException("need 0 < probe timeout < probe interval: " + probeTimeoutNs +
                "ns, " + probeIntervalNs + "ns");
        }
        if (indirectChecks < 0 || suspicionMult < 1 || suspicionMaxTimeoutMult < 1 || retransmitMult < 1 ||
            gossipIntervalNs <= 0 || gossipNodes < 0 || maxPiggyback < 1)
        {
            throw new IllegalArgumentException("bad SWIM config: " + name);
        }
    }

    /**
     * memberlist {@code DefaultLANConfig()} (config.go): ProbeInterval 1 s, ProbeTimeout 500 ms, IndirectChecks 3,
     * SuspicionMult 4, SuspicionMaxTimeoutMult 6, RetransmitMult 4, GossipInterval 200 ms, GossipNodes 3.
     *
     * @return the preset.
     */
    public static SwimConfig memberlistLan()
    {
        return new SwimConfig("memberlist LAN", 1_000_000_000L, 500_000_000L, 3, 4, 6, 4, 200_000_000L, 3, 16);
    }

    /**
     * The LAN preset with every time divided by 10, so its probe period (100 ms) equals the ring's LowLat
     * heartbeat period η.
     *
     * @return the preset.
     */
    public static SwimConfig scaledToLowLat()
    {
        return new SwimConfig("SWIM scaled ×0.1", 100_000_000L, 50_000_000L, 3, 4, 6, 4, 20_000_000L, 3, 16);
    }

    /**
     * @param n cluster size.
     * @return the Lifeguard floor of the suspicion timeout, as memberlist computes it.
     */
    public long suspicionMinNs(final int n)
    {
        final double scale = Math.max(1.0, Math.log10(Math.max(1.0, n)));
        return (long)(suspicionMult * scale * probeIntervalNs);
    }

    /**
     * @param n cluster size.
     * @return the Lifeguard ceiling of the suspicion timeout.
     */
    public long suspicionMaxNs(final int n)
    {
        return suspicionMaxTimeoutMult * suspicionMinNs(n);
    }

    /**
     * @param n cluster size.
     * @return confirmations expected before the timeout reaches its floor (memberlist: SuspicionMult − 2).
     */
    public int expectedConfirmations(final int n)
    {
        final int k = suspicionMult - 2;
        return n - 2 < k ? 0 : Math.max(0, k);
    }

    /**
     * @param n cluster size.
     * @return times each update is piggybacked.
     */
    public int retransmitLimit(final int n)
    {
        return retransmitMult * (int)Math.ceil(Math.log10(n + 1.0));
    }

    /**
     * Lifeguard: the timeout after {@code confirmations} independent suspicions beyond the first, interpolated
     * logarithmically from the ceiling down to the floor.
     *
     * @param n             cluster size.
     * @param confirmations independent confirmations so far.
     * @return the timeout.
     */
    public long suspicionTimeoutNs(final int n, final int confirmations)
    {
        final long min = suspicionMinNs(n);
        final long max = suspicionMaxNs(n);
        final int k = expectedConfirmations(n);
        if (k < 1)
        {
            return min;
        }
        final double frac = Math.log(confirmations + 1.0) / Math.log(k + 1.0);
        return Math.max(min, (long)(max - (max - min) * frac));
    }
}
