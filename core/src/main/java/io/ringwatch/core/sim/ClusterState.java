package io.ringwatch.core.sim;

import io.ringwatch.core.spi.RankSet;

/**
 * What the checkers need to know about a cluster at one instant: ground truth (who really stopped) and each
 * live node's view. Lets the checkers run on a simulation or on a hand-made state.
 */
public interface ClusterState
{
    /**
     * @return N.
     */
    int clusterSize();

    /**
     * @param rank a rank.
     * @return true if it crashed, left or fenced itself: ground truth, not anyone's opinion.
     */
    boolean isStopped(int rank);

    /**
     * @param rank a rank that has not stopped.
     * @return its dead set D.
     */
    RankSet deadSet(int rank);

    /**
     * @param rank a rank that has not stopped.
     * @return the rank it watches.
     */
    int emitter(int rank);

    /**
     * @param rank a rank that has not stopped.
     * @return the rank that watches it.
     */
    int observer(int rank);

    /**
     * Value of {@link #lastResumeNs(int)} for a rank that never resumed from a pause.
     */
    long NEVER = -1;

    /**
     * @param rank a rank.
     * @return true if it is paused right now (alive but silent): ground truth.
     */
    default boolean isPaused(final int rank)
    {
        return false;
    }

    /**
     * @param rank a rank.
     * @return when it last resumed from a pause, or {@link #NEVER}.
     */
    default long lastResumeNs(final int rank)
    {
        return NEVER;
    }

    /**
     * @param from    sender.
     * @param to      receiver.
     * @param fromNs  start of a time window.
     * @param untilNs its end, exclusive.
     * @return true if the network lost every message from {@code from} to {@code to} at some time in the window
     * (a link cut or a partition): ground truth.
     */
    default boolean wasCut(final int from, final int to, final long fromNs, final long untilNs)
    {
        return false;
    }

    /**
     * @param rank a rank.
     * @return the incarnation of its current life (or its last, if it stopped): ground truth; 0 until it restarts.
     */
    default long incarnation(final int rank)
    {
        return 0;
    }

    /**
     * @param viewer a rank that has not stopped.
     * @param rank   any rank.
     * @return the incarnation {@code viewer}'s view holds for {@code rank}.
     */
    default long knownIncarnation(final int viewer, final int rank)
    {
        return 0;
    }

    /**
     * @param rank a rank that has not stopped.
     * @return true if it takes part: a boot member, or a joiner that got its view and was adopted by its neighbours.
     */
    default boolean isAdmitted(final int rank)
    {
        return true;
    }
}
