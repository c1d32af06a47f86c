package io.ringwatch.core.spi;

/**
 * Application callbacks. Called on the thread that drives the protocol (the agent thread live, the event
 * loop in the simulator); implementations must not block and should not allocate.
 */
public interface MembershipListener
{
    /**
     * A rank joined the local dead set.
     *
     * @param rank         the dead rank.
     * @param nowNs        protocol time at which this node learned it.
     * @param cause        how it was learned.
     * @param reporterRank the node that detected it (this node for {@link FailureCause#DETECTED}, the broadcast
     *                     source for {@link FailureCause#NOTICE}, the leaver for {@link FailureCause#LEFT}).
     */
    void onFailure(int rank, long nowNs, FailureCause cause, int reporterRank);

    /**
     * This node was declared dead by others, was fenced, or left, and has stopped taking part (fail-stop).
     *
     * @param nowNs        protocol time.
     * @param cause        why it stopped.
     * @param reporterRank the broadcast source that named this node, the node that fenced it, or this node's rank
     *                     after a leave.
     */
    void onExcluded(long nowNs, ExclusionCause cause, int reporterRank);

    /**
     * The dead set changed; called once per change after the {@link #onFailure} calls it contains.
     *
     * @param viewEpoch new epoch, incremented by one per change.
     * @param deadCount size of the dead set.
     * @param nowNs     protocol time.
     */
    void onViewChange(long viewEpoch, int deadCount, long nowNs);

    /**
     * A rank was admitted under a new incarnation: it left the local dead set (or its previous incarnation was
     * replaced). Called before the {@link #onViewChange} of the same change. A joining node gets this for itself once
     * it has received the view, before it takes part.
     *
     * @param rank        the rank admitted.
     * @param incarnation its new incarnation.
     * @param nowNs       protocol time at which this node learned it.
     */
    default void onJoin(final int rank, final long incarnation, final long nowNs)
    {
    }

    /**
     * How a failure was learned. The code is stable: view files carry it (0 means alive).
     */
    enum FailureCause
    {
        /** This node's emitter went silent for longer than the timeout. */
        DETECTED(1),
        /** Carried by a failure notice. */
        NOTICE(2),
        /** The node announced a graceful leave to this node. */
        LEFT(3);

        private final int code;

        FailureCause(final int code)
        {
            this.code = code;
        }

        /**
         * @return the stable code of this cause.
         */
        public int code()
        {
            return code;
        }
    }

    /**
     * A listener that ignores everything.
     */
    MembershipListener NO_OP = new MembershipListener()
    {
        public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
        {
        }

        public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
        {
        }

        public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
        {
        }
    };
}
