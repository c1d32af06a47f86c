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
     * This node was declared dead by others, or left, and has stopped taking part (fail-stop).
     *
     * @param nowNs        protocol time.
     * @param reporterRank the broadcast source that named this node, or this node's rank after a leave.
     */
    void onExcluded(long nowNs, int reporterRank);

    /**
     * The dead set changed; called once per change after the {@link #onFailure} calls it contains.
     *
     * @param viewEpoch new epoch, incremented by one per change.
     * @param deadCount size of the dead set.
     * @param nowNs     protocol time.
     */
    void onViewChange(long viewEpoch, int deadCount, long nowNs);

    /**
     * How a failure was learned.
     */
    enum FailureCause
    {
        /** This node's emitter went silent for longer than the timeout. */
        DETECTED,
        /** Carried by a failure notice. */
        NOTICE,
        /** The node announced a graceful leave to this node. */
        LEFT
    }

    /**
     * A listener that ignores everything.
     */
    MembershipListener NO_OP = new MembershipListener()
    {
        public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
        {
        }

        public void onExcluded(final long nowNs, final int reporterRank)
        {
        }

        public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
        {
        }
    };
}
