package io.ringwatch.perf.reproduce;

/**
 * The paper's two detector settings (§4.1).
 *
 * @param name               LowNoise or LowLat.
 * @param heartbeatPeriodNs  heartbeat period η.
 * @param suspicionTimeoutNs suspicion timeout δ.
 */
public record RingScenario(String name, long heartbeatPeriodNs, long suspicionTimeoutNs)
{
    /** η = 10 s, δ = 60 s: heartbeats as a last resort, negligible noise. */
    public static final RingScenario LOW_NOISE = new RingScenario("LowNoise", 10_000_000_000L, 60_000_000_000L);
    /** η = 0.1 s, δ = 1 s: heartbeats as the primary detection. */
    public static final RingScenario LOW_LAT = new RingScenario("LowLat", 100_000_000L, 1_000_000_000L);
    /** τ = 1 ms, the journal version's message-delay bound (the research report says 1 µs). */
    public static final long TAU_NS = 1_000_000L;

    /**
     * @return η in seconds.
     */
    public double heartbeatPeriodS()
    {
        return heartbeatPeriodNs / 1e9;
    }

    /**
     * @return δ in seconds.
     */
    public double suspicionTimeoutS()
    {
        return suspicionTimeoutNs / 1e9;
    }
}
