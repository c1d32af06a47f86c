package io.ringwatch.core.explore;

import java.util.List;

/**
 * What an exploration found.
 *
 * @param states         distinct states visited (by fingerprint).
 * @param transitions    steps executed, replays excluded.
 * @param revisits       steps that led to a state already explored with at least as much depth left.
 * @param maxDepth       the longest execution explored, in steps.
 * @param maxTimeNs      the latest virtual time any execution reached.
 * @param depthCutoffs   executions cut off at the depth bound, unexplored beyond it.
 * @param splitBrainStates states where two running nodes held each other dead (transient: one that lasted would
 *                       have failed liveness).
 * @param complete       true if the search ran out of states, false if it stopped at the state bound or a
 *                       violation.
 * @param findings       the first violating execution of each kind of violation, in the order found.
 * @param replayedSteps  node calls re-made to rebuild nodes on backtracking (the cost of replaying instead of
 *                       copying).
 */
public record ExploreResult(
    long states,
    long transitions,
    long revisits,
    int maxDepth,
    long maxTimeNs,
    long depthCutoffs,
    long splitBrainStates,
    boolean complete,
    List<Finding> findings,
    long replayedSteps)
{
    /**
     * @return true if nothing was violated.
     */
    public boolean passed()
    {
        return findings.isEmpty();
    }

    /**
     * One violating execution.
     *
     * @param violations what it broke, at the first state that broke anything.
     * @param trace      its steps, for {@code explore --replay}.
     */
    public record Finding(List<String> violations, List<Step> trace)
    {
        /**
         * @return the kind of violation: the checker's name that starts the first message.
         */
        public String kind()
        {
            final String first = violations.get(0);
            final int colon = first.indexOf(':');
            return colon < 0 ? first : first.substring(0, colon);
        }
    }
}
