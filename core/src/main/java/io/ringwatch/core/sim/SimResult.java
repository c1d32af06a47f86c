package io.ringwatch.core.sim;

import java.util.List;

/**
 * Outcome of one simulation run. Times are virtual nanoseconds; -1 means "does not apply" (no failure was
 * injected, or the run never stabilized, which is then also a violation).
 *
 * @param seed                        the run's seed: rerun it with the same config to reproduce.
 * @param nodes                       N.
 * @param crashes                     crashes that happened.
 * @param leaves                      graceful leaves that happened.
 * @param exclusions                  nodes that fenced themselves after being declared dead.
 * @param firstFailureNs              time of the first crash or leave.
 * @param firstKnownNs                from the first failure until every survivor knew of it.
 * @param firstBroadcastNs            from the first survivor learning the first failure (its detector) to the last,
 *                                    -1 as for firstKnownNs: the broadcast alone.
 * @param stabilizationNs             from the first failure until the configuration was stable.
 * @param failuresDuringStabilization crashes between the first failure and stability, the first included.
 * @param boundNs                     the stabilization bound the run was checked against, -1 if unchecked.
 * @param heartbeatMessages           heartbeats sent.
 * @param newObserverMessages         NEW_OBSERVER messages sent.
 * @param noticeMessages              failure notice copies sent.
 * @param leaveMessages               LEAVE messages sent.
 * @param lostMessages                messages dropped by the loss model.
 * @param vanishedMessages            messages that reached a crashed or stopped node.
 * @param eventsProcessed             events taken off the queue, stale wake-ups included.
 * @param endTimeNs                   virtual time at which the run stopped.
 * @param violations                  broken safety or liveness properties, each naming the seed.
 * @param boundViolations             stabilization times above the bound, each naming the seed.
 * @param splitBrainPairs             pairs of running nodes that ended holding each other dead.
 * @param majorityLost                nodes of the side of the first partition with a majority (see
 *                                    {@code PartitionOutcome}) that ended excluded.
 * @param fencesSent                  fencing notices sent to zombies (ranks held dead but still heard from).
 * @param minorityFenceNs             from the first partition's cut to the last node of a side without a majority
 *                                    stopping, -1 if no side lacks one or one of its nodes still runs.
 * @param probeMessages               PROBE and PROBE_ACK messages sent.
 * @param restarts                    nodes restarted under a new incarnation.
 * @param rejoined                    restarted nodes running at the end and admitted by every live node under
 *                                    their latest incarnation.
 * @param joinSpreadMaxNs             longest time a JOIN took from its contact to the last node that applied it,
 *                                    -1 without joins.
 * @param boots                       ranks that started after the seeds ({@link BootMode}); under
 *                                    {@link BootMode#JOIN} they are also counted in {@code rejoined} once admitted.
 * @param healsAnnounced              heal notices announced: emitters heard again after a silence judged a cut.
 * @param viewDigestMessages          VIEW_DIGEST messages sent (view repair).
 * @param viewsRepaired               neighbours' views merged that changed a node's view: broadcasts it had missed.
 * @param reforms                     clusters re-formed by the lowest rank after every rank was joining.
 * @param graceChecked                whether the startup grace checker judged the run (see {@code Checks}).
 * @param refusedFrames               frames the simulator sent that the real encoder or decoder refused
 *                                    ({@code Wire}): each a wire bug, and a violation.
 */
public record SimResult(
    long seed,
    int nodes,
    int crashes,
    int leaves,
    int exclusions,
    long firstFailureNs,
    long firstKnownNs,
    long firstBroadcastNs,
    long stabilizationNs,
    int failuresDuringStabilization,
    long boundNs,
    long heartbeatMessages,
    long newObserverMessages,
    long noticeMessages,
    long leaveMessages,
    long lostMessages,
    long vanishedMessages,
    long eventsProcessed,
    long endTimeNs,
    List<String> violations,
    List<String> boundViolations,
    int splitBrainPairs,
    int majorityLost,
    long fencesSent,
    long minorityFenceNs,
    long probeMessages,
    int restarts,
    int rejoined,
    long joinSpreadMaxNs,
    int boots,
    long healsAnnounced,
    long viewDigestMessages,
    long viewsRepaired,
    long reforms,
    boolean graceChecked,
    long refusedFrames)
{
    /**
     * Copies the lists.
     */
    public SimResult
    {
        violations = List.copyOf(violations);
        boundViolations = List.copyOf(boundViolations);
    }

    /**
     * @return true if nothing was violated, bound included.
     */
    public boolean passed()
    {
        return violations.isEmpty() && boundViolations.isEmpty();
    }
}
