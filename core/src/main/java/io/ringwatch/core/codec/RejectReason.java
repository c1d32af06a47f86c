package io.ringwatch.core.codec;

/**
 * Why {@link FrameDecoder} refused a frame. A receiver counts each reason and drops the frame; nothing is thrown.
 * <p>
 * {@link #NONE} means the frame was accepted. The decoder checks structure first (bounds, header length, version,
 * type, length), then the header fields, then the body, and reports the first check that fails.
 */
public enum RejectReason
{
    NONE("accepted"),

    OUT_OF_BOUNDS("offset or length lies outside the buffer"),
    TOO_SHORT("shorter than the frame header"),
    UNSUPPORTED_VERSION("unsupported protocol version"),
    UNKNOWN_TYPE("unknown frame type"),
    WRONG_LENGTH("length does not match the frame type"),
    RANGE_COUNT_OUT_OF_RANGE("notice range count outside [1, MAX_RANGES]"),

    BAD_FLAGS("reserved flags are not zero"),
    WRONG_CLUSTER("frame belongs to another cluster"),
    SENDER_OUT_OF_RANGE("sender rank outside the cluster"),

    RANK_OUT_OF_RANGE("a rank field lies outside the cluster"),
    BAD_COUNTER("heartbeat counter below 1"),
    BAD_RDMA_REGION("negative RDMA length, or RDMA key or address without a length"),
    RESERVED_NOT_ZERO("reserved field is not zero"),
    BAD_SEQUENCE("notice sequence below 1"),
    EMPTY_RANGE("a notice range has length below 1"),
    RANGE_OUT_OF_RANGE("a notice range extends outside the cluster"),
    RANGES_NOT_SORTED("a notice range starts before the previous one"),
    RANGES_OVERLAP("a notice range overlaps the previous one"),
    RANGES_NOT_MERGED("a notice range is adjacent to the previous one; the sender must merge them"),
    DEAD_RANK_NOT_IN_SET("the dead rank is missing from the notice's dead set"),
    SOURCE_IN_SET("the notice's source rank is in its own dead set");

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
}
