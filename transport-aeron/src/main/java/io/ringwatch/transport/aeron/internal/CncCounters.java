package io.ringwatch.transport.aeron.internal;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.ringwatch.transport.aeron.NodeCounter;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.io.PrintStream;
import java.nio.MappedByteBuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.agrona.BitUtil.SIZE_OF_INT;

/**
 * The ringwatch counters of every node on a host, read from the media driver's CnC file as {@code AeronStat} reads
 * it: a mapping of its own, so a reader on another thread or process never touches a node's agent or its Aeron
 * client. Used by {@code stat} and by the metrics endpoint.
 */
public final class CncCounters implements AutoCloseable
{
    /**
     * One ringwatch counter as found in the file.
     */
    @FunctionalInterface
    public interface Visitor
    {
        /**
         * @param counter   which counter.
         * @param clusterId from its key.
         * @param rank      from its key.
         * @param detail    from its key: the reject reason's ordinal for per-reason counters, else 0.
         * @param value     its current value.
         * @param label     its label.
         */
        void visit(NodeCounter counter, int clusterId, int rank, int detail, long value, String label);
    }

    private final File cnc;
    private final MappedByteBuffer mapped;
    private final DirectBuffer meta;
    private final CountersReader reader;

    private CncCounters(final File cnc)
    {
        this.cnc = cnc;
        mapped = IoUtil.mapExistingFile(cnc, "cnc");
        try
        {
            meta = CncFileDescriptor.createMetaDataBuffer(mapped);
            CncFileDescriptor.checkVersion(meta.getInt(CncFileDescriptor.cncVersionOffset(0)));
            reader = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(mapped, meta),
                CncFileDescriptor.createCountersValuesBuffer(mapped, meta));
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(mapped);
            throw ex;
        }
    }

    /**
     * @param aeronDir a media driver's directory.
     * @return the driver's counters, or null if it has no CnC file (no driver ran there).
     */
    public static CncCounters open(final String aeronDir)
    {
        final File cnc = new File(aeronDir, CncFileDescriptor.CNC_FILE);
        return cnc.exists() ? new CncCounters(cnc) : null;
    }

    /**
     * @return the CnC file read.
     */
    public File file()
    {
        return cnc;
    }

    /**
     * Visit every ringwatch counter in allocation order.
     *
     * @param visitor called once per counter.
     */
    public void forEach(final Visitor visitor)
    {
        reader.forEach((counterId, typeId, key, label) ->
        {
            final NodeCounter counter = NodeCounter.ofTypeId(typeId);
            if (counter != null)
            {
                visitor.visit(counter, key.getInt(0, LITTLE_ENDIAN), key.getInt(SIZE_OF_INT, LITTLE_ENDIAN),
                    key.getInt(2 * SIZE_OF_INT, LITTLE_ENDIAN), reader.getCounterValue(counterId), label);
            }
        });
    }

    /**
     * @param clusterId cluster.
     * @param rank      node.
     * @param counter   which one.
     * @return its value, summed over its details; -1 if the node has no such counter in this file.
     */
    public long value(final int clusterId, final int rank, final NodeCounter counter)
    {
        final long[] sum = {-1};
        forEach((c, cluster, r, detail, value, label) ->
        {
            if (c == counter && cluster == clusterId && r == rank)
            {
                sum[0] = Math.max(sum[0], 0) + value;
            }
        });
        return sum[0];
    }

    /**
     * Print the driver's error log: unreachable ports and refused setups show up there and nowhere else.
     *
     * @param out where to.
     * @return how many distinct errors it holds.
     */
    public int printErrorLog(final PrintStream out)
    {
        return CommonContext.printErrorLog(CncFileDescriptor.createErrorLogBuffer(mapped, meta), out);
    }

    /**
     * Unmap the file.
     */
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
