package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankRuns;

/**
 * Why {@link FrameDecoder} refused a frame. A receiver counts each reason and drops the frame; nothing is thrown.
 * <p>
 * {@link #NONE} means the frame was accepted. The decoder checks bounds, then structure (version, type, the length
 * that type must have), then the MAC, then the header fields, then the body, then freshness ({@link ReplayGuard}),
 * and reports the first check that fails. Structure comes before the MAC so junk costs no hash; what it reads
 * there only ever rejects. Every reason after {@link #BAD_MAC} was found in a frame signed with a cluster key, so it
 * names a sender that holds the key: a misconfigured or buggy node, not an outsider.
 */
public enum RejectReason
{
    NONE("accepted"),

    OUT_OF_BOUNDS("offset or length lies outside the buffer"),
    TOO_SHORT("shorter than a frame header and its MAC"),

    UNSUPPORTED_VERSION("unsupported protocol version"),
    UNKNOWN_TYPE("unknown frame type"),
    NOT_A_HEARTBEAT("a frame other than a heartbeat on the heartbeat port"),
    WRONG_LENGTH("length does not match the frame type"),
    RANGE_COUNT_OUT_OF_RANGE("range, entry or process count outside what the frame type and cluster size allow"),

    UNSIGNED("MAC is zero: the sender runs with ringwatch.auth=off"),
    BAD_MAC("MAC matches no accepted key: forged, corrupted, or signed with a key this node does not hold"),

    BAD_FLAGS("reserved flags are not zero"),
    WRONG_CLUSTER("frame belongs to another cluster"),
    CONFIG_MISMATCH("sender's config digest differs (cluster file, N, eta, delta or protocol version)"),
    SENDER_OUT_OF_RANGE("sender rank outside the cluster"),
    WRONG_DESTINATION("frame addressed to another rank"),
    BAD_FRAME_SEQUENCE("frame sequence below 1: the frame was never stamped"),
    WRONG_RUN("frame of another run of the cluster: a recording replayed, or a node bound to another run"),

    RANK_OUT_OF_RANGE("a rank field lies outside the cluster"),
    EMITTER_NOT_DESTINATION("new-observer emitter rank differs from the frame's destination"),
    BAD_COUNTER("heartbeat counter below 1"),
    BAD_RDMA_REGION("negative RDMA length, or RDMA key or address without a length"),
    RESERVED_NOT_ZERO("reserved field is not zero"),
    BAD_SEQUENCE("notice sequence below 1"),
    EMPTY_RANGE("a notice range has length below 1"),
    RANGE_OUT_OF_RANGE("a notice range extends outside the cluster"),
    RANGES_NOT_SORTED("a notice range (or a view entry) starts before the previous one"),
    RANGES_OVERLAP("a notice range overlaps the previous one"),
    RANGES_NOT_MERGED("a notice range is adjacent to the previous one; the sender must merge them"),
    DEAD_RANK_NOT_IN_SET("the dead rank is missing from the notice's dead set"),
    SOURCE_IN_SET("the notice's source rank is in its own dead set"),

    BAD_INCARNATION("subject incarnation negative, or not above 0 in a VIEW entry or a JOIN other than a heal notice"),
    STALE_INCARNATION("sender incarnation older than the one admitted for its rank"),
    UNKNOWN_INCARNATION("sender incarnation newer than the one admitted for its rank, not (yet) admitted"),
    STALE_SEQUENCE("frame sequence below the replay window of its sender"),
    REPLAYED("frame sequence already accepted from its sender: a duplicate or a replay");

    private final String description;

    RejectReason(final String description)
    {
        this.description = description;
    }

    /**
     * @return a short human readable explanation, suitable for a counter label.
     */
    public String description()
    {
        return description;
    }

    /**
     * The check every decoder makes of a run of ranks in a dead set or a view.
     *
     * @param first       the run's first rank.
     * @param length      how many ranks it holds.
     * @param clusterSize N.
     * @return {@link #EMPTY_RANGE}, {@link #RANGE_OUT_OF_RANGE}, or {@link #NONE} if the run lies inside [0, N).
     */
    public static RejectReason ofRange(final int first, final int length, final int clusterSize)
    {
        if (length < 1)
        {
            return EMPTY_RANGE;
        }
        return first < 0 || first > clusterSize - length ? RANGE_OUT_OF_RANGE : NONE;
    }

    /**
     * The checks every decoder makes of the runs of a dead set or a view, run by run, stopping at the first that
     * fails: {@link #ofRange}, then its place after the previous run ({@link #RANGES_NOT_MERGED} if adjacent), then
     * that it does not hold {@code forbiddenRank}. Frame kinds name a run out of order differently, hence the two
     * reasons given.
     *
     * @param runs          the runs, as the frame carries them.
     * @param clusterSize   N.
     * @param startsBefore  reason for a run starting before the previous run's first rank.
     * @param overlaps      reason for a run starting inside the previous run.
     * @param forbiddenRank a rank no run may hold ({@link #SOURCE_IN_SET} otherwise), or -1 for none.
     * @return the first problem found, or {@link #NONE}.
     */
    public static RejectReason ofRuns(
        final RankRuns runs,
        final int clusterSize,
        final RejectReason startsBefore,
        final RejectReason overlaps,
        final int forbiddenRank)
    {
        int previousFirst = 0;
        int previousEnd = 0;
        for (int i = 0, count = runs.rangeCount(); i < count; i++)
        {
            final int first = runs.rangeFirstRank(i);
            final int length = runs.rangeLength(i);
            final RejectReason badRange = ofRange(first, length, clusterSize);
            if (badRange != NONE)
            {
                return badRange;
            }
            if (i > 0 && first <= previousEnd)
            {
                return first == previousEnd ? RANGES_NOT_MERGED : first < previousFirst ? startsBefore : overlaps;
            }
            if (forbiddenRank >= first && forbiddenRank < first + length)
            {
                return SOURCE_IN_SET;
            }
            previousFirst = first;
            previousEnd = first + length;
        }
        return NONE;
    }
}
