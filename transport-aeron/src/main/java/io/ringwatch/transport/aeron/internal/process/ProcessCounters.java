package io.ringwatch.transport.aeron.internal.process;

import io.aeron.Aeron;
import io.aeron.Counter;
import io.ringwatch.transport.aeron.ProcessCounter;
import io.ringwatch.transport.aeron.internal.NodeCounters;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.agrona.BitUtil.SIZE_OF_INT;

/**
 * A daemon's {@link ProcessCounter}s, allocated at start by its own Aeron client, keyed and labelled like the
 * {@link NodeCounters}, updated with release stores.
 */
final class ProcessCounters implements AutoCloseable
{
    private final Counter[] counters = new Counter[ProcessCounter.values().length];

    ProcessCounters(final Aeron aeron, final int clusterId, final int rank)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[NodeCounters.KEY_LENGTH]);
        key.putInt(0, clusterId, LITTLE_ENDIAN);
        key.putInt(SIZE_OF_INT, rank, LITTLE_ENDIAN);
        key.putInt(2 * SIZE_OF_INT, -1, LITTLE_ENDIAN);
        try
        {
            for (final ProcessCounter c : ProcessCounter.values())
            {
                final byte[] label = ("ringwatch " + c.label() + ": cluster=" + clusterId + " rank=" + rank)
                    .getBytes(StandardCharsets.US_ASCII);
                counters[c.ordinal()] = aeron.addCounter(
                    c.typeId(), key, 0, key.capacity(), new UnsafeBuffer(label), 0, label.length);
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    void set(final ProcessCounter c, final long value)
    {
        counters[c.ordinal()].setRelease(value);
    }

    public void close()
    {
        CloseHelper.closeAll(counters);
    }
}
