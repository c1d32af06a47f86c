package io.ringwatch.transport.aeron;

import io.ringwatch.core.codec.RejectReason;
import org.agrona.concurrent.status.CountersReader;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads a node's {@link NodeCounter#FRAMES_REJECTED_BY_REASON} counters from outside, by their key (cluster id, rank,
 * reason ordinal).
 */
final class RejectCounters
{
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
        final long[] value = {Long.MIN_VALUE};
        counters.forEach((counterId, typeId, key, label) ->
        {
            if (typeId == NodeCounter.FRAMES_REJECTED_BY_REASON.typeId() &&
                key.getInt(0, LITTLE_ENDIAN) == clusterId &&
                key.getInt(4, LITTLE_ENDIAN) == rank && key.getInt(8, LITTLE_ENDIAN) == reason.ordinal())
            {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        assertTrue(value[0] != Long.MIN_VALUE, "no " + reason + " counter for rank " + rank);
        return value[0];
    }
}
