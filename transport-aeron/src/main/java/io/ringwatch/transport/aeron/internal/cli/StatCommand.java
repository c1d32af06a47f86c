package io.ringwatch.transport.aeron.internal.cli;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.internal.slot.HeartbeatSlots;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.util.Arrays;

/**
 * {@code stat}: print the ringwatch counters and the driver's error log from the media driver's CnC file, the
 * heartbeat slots and every view file in the Aeron directory. Aeron's own {@code AeronStat} shows the same counters
 * (type ids 7700-7799).
 */
final class StatCommand
{
    private StatCommand()
    {
    }

    static int run(final String[] argv)
    {
        final Args args = new Args(argv, 1, "--history");
        final String dir = args.string("--aeron-dir", CommonContext.getAeronDirectoryName());
        final String clusterFilter = args.string("--cluster-id", null);
        final boolean history = args.switchOn("--history");
        args.finish();
        if (history)
        {
            return MembershipHistory.print(new File(dir), clusterFilter, System.out);
        }
        final File cnc = new File(dir, CncFileDescriptor.CNC_FILE);
        if (!cnc.exists())
        {
            throw new IllegalStateException("no media driver CnC file at " + cnc +
                ": pass --aeron-dir (or -Daeron.dir) of a running driver");
        }

        final MappedByteBuffer mapped = IoUtil.mapExistingFile(cnc, "cnc");
        try
        {
            final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(mapped);
            final int version = meta.getInt(CncFileDescriptor.cncVersionOffset(0));
            CncFileDescriptor.checkVersion(version);
            final CountersReader counters = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(mapped, meta),
                CncFileDescriptor.createCountersValuesBuffer(mapped, meta));
            System.out.println("counters (" + cnc + "):");
            counters.forEach((counterId, typeId, keyBuffer, label) ->
            {
                final long value = counters.getCounterValue(counterId);
                // per-reason reject counters are shown only once something was rejected for that reason
                final boolean quietReject = typeId == NodeCounter.FRAMES_REJECTED_BY_REASON.typeId() && value == 0;
                if (NodeCounter.isRingwatch(typeId) && !quietReject &&
                    (clusterFilter == null || label.contains("cluster=" + clusterFilter + " ")))
                {
                    System.out.printf("  %4d: %,20d - %s%n", counterId, value, label);
                }
            });
            // the driver's own troubles (unreachable ports, refused setups) show up here and nowhere else
            System.out.println("media driver errors:");
            CommonContext.printErrorLog(CncFileDescriptor.createErrorLogBuffer(mapped, meta), System.out);
        }
        finally
        {
            IoUtil.unmap(mapped);
        }

        final File[] slotFiles = new File(dir).listFiles((d, name) -> name.startsWith("ringwatch-") &&
            name.endsWith("-heartbeats.dat"));
        if (slotFiles != null)
        {
            Arrays.sort(slotFiles);
            for (final File f : slotFiles)
            {
                System.out.println("heartbeat slots (" + f.getName() + "):");
                try (HeartbeatSlots slots = HeartbeatSlots.mapExisting(f))
                {
                    for (int i = 0; i < slots.clusterSize(); i++)
                    {
                        final int writer = slots.lastWriter(i);
                        final long writtenNs = slots.lastWriterTimestampNs(i);
                        final long ageUs = (System.nanoTime() - writtenNs) / 1000;
                        System.out.println(writer < 0 ? "  slot " + i + ": empty" : "  slot " + i + ": writer " +
                            writer + " counter " + slots.lastCounter(i) + ", written " + ageUs +
                            "us ago (emitter's nanoTime: meaningful on one host only)");
                    }
                }
                catch (final IllegalStateException ex)
                {
                    System.out.println("  " + ex.getMessage());
                }
            }
        }

        final File[] views = new File(dir).listFiles((d, name) -> name.startsWith("ringwatch-") &&
            name.contains("-view-") && name.endsWith(".dat"));
        System.out.println("views:");
        if (views == null || views.length == 0)
        {
            System.out.println("  (no view files in " + dir + ")");
            return 0;
        }
        Arrays.sort(views);
        final ViewSnapshot snapshot = new ViewSnapshot();
        for (final File f : views)
        {
            try (ViewReader reader = new ViewReader(f))
            {
                System.out.println("  " + reader.read(snapshot));
            }
            catch (final IllegalStateException ex)
            {
                System.out.println("  " + f.getName() + ": " + ex.getMessage());
            }
        }
        return 0;
    }
}
