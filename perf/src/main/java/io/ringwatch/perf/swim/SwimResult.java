package io.ringwatch.perf.swim;

/**
 * Outcome of one SWIM run. Times are from each crash, averaged over the crashed nodes; −1 when not reached.
 *
 * @param seed               the run's seed.
 * @param nodes              n.
 * @param crashes            crashed nodes.
 * @param firstSuspectNs     crash to the first suspicion of it anywhere.
 * @param firstDeadNs        crash to the first node declaring it dead.
 * @param allDeadNs          crash to every live node holding it dead (−1 if the cap came first).
 * @param falseSuspicions    probes that suspected a live node.
 * @param falseDeaths        suspicion timeouts that declared a live node dead.
 * @param refutations        times a node raised its incarnation to refute a suspicion or death.
 * @param messages           messages sent (ping, ack, ping-req, gossip).
 * @param endTimeNs          virtual time at which the run stopped.
 */
public record SwimResult(
    long seed,
    int nodes,
    int crashes,
    long firstSuspectNs,
    long firstDeadNs,
    long allDeadNs,
    long falseSuspicions,
    long falseDeaths,
    long refutations,
    long messages,
    long endTimeNs)
{
    /**
     * @return messages per node per second over the whole run.
     */
    public double messagesPerNodePerSecond()
    {
        return messages / (nodes * (endTimeNs / 1e9));
    }
}
