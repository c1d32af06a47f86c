package io.ringwatch.core.codec;

import org.agrona.MutableDirectBuffer;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.MIN_FRAME_LENGTH;

/**
 * The last step before a frame leaves a node: give it the next frame sequence for its destination and the run this
 * node is bound to, and sign it.
 * <p>
 * One stamper per node, shared by everything that sends (heartbeats, control frames, notices), so each destination
 * sees one sequence per sender incarnation whichever stream a frame takes, counting from 1 (see {@link ReplayGuard}).
 * Stamp a frame just before offering it, and stamp it again before each retry: a frame that waited in a retry queue
 * while its stream-mates went out would otherwise arrive older than the receiver's replay window. A stamp whose frame
 * is never sent leaves a gap in the sequence, which receivers ignore.
 * <p>
 * Allocation-free; O(N) memory. Not thread safe: one thread sends, or each thread has its own destinations.
 */
public final class FrameStamper
{
    /** Returned by {@link #stamp} for a frame shorter than a header and a MAC, or with a destination outside N. */
    public static final int INVALID_FRAME = -4;

    private final long[] lastSequence;
    private final FrameAuthenticator authenticator;
    private final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
    private long run = FrameHeaderFlyweight.UNBOUND_RUN;

    /**
     * @param clusterSize   N: destinations are ranks in {@code [0, N)}.
     * @param authenticator signs with its primary key; {@link FrameAuthenticator#NONE} leaves the MAC zero.
     */
    public FrameStamper(final int clusterSize, final FrameAuthenticator authenticator)
    {
        if (clusterSize < 1)
        {
            throw new IllegalArgumentException("clusterSize must be positive: " + clusterSize);
        }
        this.lastSequence = new long[clusterSize];
        this.authenticator = authenticator;
    }

    /**
     * Write the next frame sequence for the frame's destination, this node's run and the MAC over the finished frame.
     *
     * @param buffer holding an encoded frame.
     * @param offset at which the frame begins.
     * @param length of the whole frame, MAC trailer included.
     * @return {@code length}, or {@link #INVALID_FRAME} (nothing written) if the frame is too short to stamp or
     * addressed outside the cluster.
     */
    public int stamp(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        if (length < MIN_FRAME_LENGTH)
        {
            return INVALID_FRAME;
        }
        header.wrap(buffer, offset);
        final int destination = header.destinationRank();
        if (destination < 0 || destination >= lastSequence.length)
        {
            return INVALID_FRAME;
        }
        header.frameSequence(++lastSequence[destination]).runId(run);
        authenticator.sign(buffer, offset, length);
        return length;
    }

    /**
     * Bind the frames stamped from now on to a run: set by the runtime when the protocol draws, adopts or learns one.
     *
     * @param run the run id, {@link FrameHeaderFlyweight#UNBOUND_RUN} while the node knows none.
     */
    public void run(final long run)
    {
        this.run = run;
    }

    /**
     * @return the run frames are stamped with.
     */
    public long run()
    {
        return run;
    }

    /**
     * @param destinationRank in {@code [0, N)}.
     * @return the frame sequence last given to a frame for that destination, 0 if none.
     */
    public long lastSequence(final int destinationRank)
    {
        return lastSequence[destinationRank];
    }

    /**
     * @return the authenticator frames are signed with.
     */
    public FrameAuthenticator authenticator()
    {
        return authenticator;
    }
}
