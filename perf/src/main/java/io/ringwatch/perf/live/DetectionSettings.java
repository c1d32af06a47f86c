package io.ringwatch.perf.live;

/**
 * How hard to push each configuration of the detection benchmark.
 *
 * @param killsPerConfig SIGKILLs to measure per configuration (across as many cluster starts as needed).
 * @param seed           seeds victim choice and kill moments; configuration i uses a seed derived from (seed, i).
 * @param settleNs       quiet time after the cluster is up, before its first kill.
 * @param missTimeoutNs  a kill not known by every survivor within this is counted as missed.
 * @param startTimeoutNs how long a cluster may take until every node sees heartbeats.
 * @param graceNs        the nodes' startup grace (covers JVMs starting one after another on a busy host).
 * @param maxStarts      cluster starts allowed per configuration before giving up on reaching the kill count;
 *                       0 for three times the starts the kill count needs at that cluster size.
 * @param configBudgetNs no new cluster start for a configuration after this much time on it; 0 for no limit.
 * @param realtimePriority SCHED_FIFO priority of low-noise node agents (the driver's conductor one below, its
 *                       network thread one above); 0 for none. Busy-spinning agents are never raised: unpinned
 *                       they would take a core outright.
 * @param oversubscribe  run low-latency configurations even with more agents than spare cores (their results then
 *                       measure cores being fought over, not the profile).
 */
public record DetectionSettings(
    int killsPerConfig,
    long seed,
    long settleNs,
    long missTimeoutNs,
    long startTimeoutNs,
    long graceNs,
    int maxStarts,
    long configBudgetNs,
    int realtimePriority,
    boolean oversubscribe)
{
    /**
     * @throws IllegalArgumentException on a non-positive count or duration.
     */
    public DetectionSettings
    {
        if (killsPerConfig < 1 || maxStarts < 0)
        {
            throw new IllegalArgumentException("killsPerConfig must be >= 1 and maxStarts >= 0");
        }
        if (settleNs < 0 || missTimeoutNs <= 0 || startTimeoutNs <= 0 || graceNs < 0 || configBudgetNs < 0)
        {
            throw new IllegalArgumentException("durations must be positive");
        }
        if (realtimePriority < 0 || realtimePriority > 99)
        {
            throw new IllegalArgumentException("realtimePriority must be 0 (off) or 1..99: " + realtimePriority);
        }
    }

    /**
     * @param config a configuration.
     * @return cluster starts allowed for it.
     */
    public int maxStartsFor(final DetectionConfig config)
    {
        if (maxStarts > 0)
        {
            return maxStarts;
        }
        final int killsPerStart = config.nodes() - config.minAlive();
        return 3 * ((killsPerConfig + killsPerStart - 1) / killsPerStart);
    }
}
