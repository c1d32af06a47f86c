package io.ringwatch.transport.aeron;

import io.ringwatch.core.codec.RejectReason;
import org.agrona.concurrent.status.CountersReader;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads a node's {@link NodeCounter#FRAMES_REJECTED_BY_REASON} counters from outside, by their key (cluster id, rank,
 * reason ordinal), and its other counters by cluster id and rank.
 */
final class RejectCounters
{
    private static final int ANY_REASON = Integer.MIN_VALUE;

    private RejectCounters()
    {
    }

    /**
     * @param counters  the counters of the node's media driver.
     * @param clusterId the node's cluster.
     * @param rank      the node.
     * @param reason    the reject reason.
     * @return the frames that node rejected for that reason; fails the test if it has no such counter.
     */
    static long rejected(
        final CountersReader counters, final int clusterId, final int rank, final RejectReason reason)
    {
        return find(counters, NodeCounter.FRAMES_REJECTED_BY_REASON, clusterId, rank, reason.ordinal(),
            reason.toString());
    }

    /**
     * @param counters  the counters of the node's media driver.
     * @param clusterId the node's cluster.
     * @param rank      the node.
     * @param counter   one of the node's counters (not a per-reason one).
     * @return its value; fails the test if the node has no such counter.
     */
    static long counter(final CountersReader counters, final int clusterId, final int rank, final NodeCounter counter)
    {
        return find(counters, counter, clusterId, rank, ANY_REASON, counter.label());
    }

    private static long find(
        final CountersReader counters,
        final NodeCounter counter,
        final int clusterId,
        final int rank,
        final int reason,
        final String name)
    {
        final long[] value = {Long.MIN_VALUE};
        counters.forEach((counterId, typeId, key, label) ->
        {
            if (typeId == counter.typeId() && key.getInt(0, LITTLE_ENDIAN) == clusterId &&
                key.getInt(4, LITTLE_ENDIAN) == rank && (reason == ANY_REASON || key.getInt(8, LITTLE_ENDIAN) == reason))
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        assertTrue(value[0] != Long.MIN_VALUE, "no " + name + " counter for rank " + rank);
        return value[0];
    }
}
