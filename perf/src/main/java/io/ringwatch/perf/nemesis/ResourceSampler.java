package io.ringwatch.perf.nemesis;

import io.aeron.CncFileDescriptor;
import io.ringwatch.perf.reproduce.Chart;
import io.ringwatch.transport.aeron.launch.LaunchedCluster;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Samples what a long run could leak, per node process and per host, into CSV files and a table with one row per
 * sample, so a leak shows as a slope: RSS, threads and file descriptors ({@code /proc}), heap after the last GC (the
 * node's {@code -Xlog:gc} file: nodes allocate nothing in steady state, so GCs are rare and this is what survives),
 * direct and other native memory outside the heap (Native Memory Tracking's "Other", through {@code jcmd}),
 * {@code /dev/shm} used, and each driver's counters (allocated, errors, NAKs received).
 */
final class ResourceSampler
{
    private static final Pattern GC_AFTER = Pattern.compile("->(\\d+)M\\(\\d+M\\)");
    private static final Pattern NMT_OTHER = Pattern.compile("-\\s+Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

    private final LaunchedCluster cluster;
    private final Path logDir;
    private final Path nodesCsv;
    private final Path hostsCsv;
    private final PrintStream err;
    private final long startNs = System.nanoTime();
    private final List<String> rows = new ArrayList<>();
    /** Per sample: elapsed s, RSS MB, threads (max node), fds, heap after GC MB, NMT other MB, /dev/shm MB, counters. */
    private final List<double[]> series = new ArrayList<>();

    ResourceSampler(final LaunchedCluster cluster, final Path logDir, final Path csv, final PrintStream err)
    {
        this.cluster = cluster;
        this.logDir = logDir;
        this.nodesCsv = csv;
        this.hostsCsv = csv.resolveSibling("drivers.csv");
        this.err = err;
        try
        {
            Files.writeString(nodesCsv, "elapsed_s,rank,pid,rss_kb,threads,fds,heap_after_gc_mb,nmt_other_kb\n",
                StandardCharsets.UTF_8);
            Files.writeString(hostsCsv, "elapsed_s,host,shm_used_kb,counters_allocated,errors,naks_received\n",
                StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /**
     * Sample now and every period until interrupted.
     *
     * @param periodNs how often.
     */
    void sampleEvery(final long periodNs)
    {
        try
        {
            while (!Thread.currentThread().isInterrupted())
            {
                sample();
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(periodNs));
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Take one sample of every node and host.
     */
    synchronized void sample()
    {
        final long elapsedS = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
        final StringBuilder nodes = new StringBuilder();
        long rss = 0;
        long threads = 0;
        long fds = 0;
        long heap = 0;
        long other = 0;
        for (int r = 0; r < cluster.size(); r++)
        {
            final Process p = cluster.process(r);
            if (!p.isAlive())
            {
                continue;
            }
            final long pid = p.pid();
            final long[] status = status(pid);
            final long fd = count(Path.of("/proc", Long.toString(pid), "fd"));
            final long heapMb = heapAfterGcMb(pid);
            final long otherKb = nmtOtherKb(pid);
            nodes.append(elapsedS).append(',').append(r).append(',').append(pid).append(',').append(status[0])
                .append(',').append(status[1]).append(',').append(fd).append(',').append(heapMb).append(',')
                .append(otherKb).append('\n');
            rss += status[0];
            threads = Math.max(threads, status[1]);
            fds += fd;
            heap = Math.max(heap, heapMb);
            other += Math.max(0, otherKb);
        }
        final StringBuilder hosts = new StringBuilder();
        long counters = 0;
        long errors = 0;
        long naks = 0;
        final long shmKb = shmUsedKb();
        for (int h = 0; h < cluster.hostCount(); h++)
        {
            final long[] c = driverCounters(cluster.aeronDir(h));
            hosts.append(elapsedS).append(',').append(h).append(',').append(shmKb).append(',').append(c[0])
                .append(',').append(c[1]).append(',').append(c[2]).append('\n');
            counters += c[0];
            errors += c[1];
            naks += c[2];
        }
        rows.add(String.format(Locale.ROOT, "| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |", elapsedS,
            rss / 1024, threads, fds, heap, other / 1024, shmKb / 1024, counters, errors, naks));
        series.add(new double[]{elapsedS, rss / 1024.0, threads, fds, heap, other / 1024.0, shmKb / 1024.0, counters});
        try
        {
            Files.writeString(nodesCsv, nodes, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            Files.writeString(hostsCsv, hosts, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
        catch (final IOException ex)
        {
            err.println("nemesis: cannot write resources: " + ex.getMessage());
        }
    }

    /**
     * @return one row per sample.
     */
    synchronized String table()
    {
        return "| elapsed s | RSS MB (all nodes) | threads (max node) | fds (all nodes) | heap after GC MB (max " +
            "node) | NMT other MB (all nodes) | /dev/shm used MB | driver counters allocated | driver errors | " +
            "NAKs received |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
            String.join("\n", rows) + "\n";
    }

    /**
     * @param fromS leave out the samples before this (start-up and warm-up).
     * @return the least-squares slope of the nodes' summed RSS, in MB per minute, or NaN with fewer than 3 samples.
     */
    synchronized double rssSlopeMbPerMinute(final long fromS)
    {
        final List<double[]> kept = series.stream().filter(v -> v[0] >= fromS).toList();
        if (kept.size() < 3)
        {
            return Double.NaN;
        }
        final double mx = kept.stream().mapToDouble(v -> v[0]).average().orElseThrow();
        final double my = kept.stream().mapToDouble(v -> v[1]).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (final double[] v : kept)
        {
            sxy += (v[0] - mx) * (v[1] - my);
            sxx += (v[0] - mx) * (v[0] - mx);
        }
        return sxx == 0 ? Double.NaN : 60 * sxy / sxx;
    }

    /**
     * Plot the samples: memory in one chart, counts in another.
     *
     * @param dir where {@code resources-memory.png} and {@code resources-counts.png} go.
     * @throws IOException on a write failure.
     */
    synchronized void plot(final Path dir) throws IOException
    {
        if (series.size() < 2)
        {
            return;
        }
        final double[] minutes = column(0, 1.0 / 60);
        new Chart("Node and host memory over the run", "minutes", "MB").yMin(0)
            .pointsAndLine("RSS, all nodes", minutes, column(1, 1))
            .pointsAndLine("/dev/shm used", minutes, column(6, 1))
            .pointsAndLine("NMT other (direct and native), all nodes", minutes, column(5, 1))
            .pointsAndLine("heap after GC, largest node", minutes, column(4, 1))
            .save(dir, "resources-memory.png");
        new Chart("Threads, file descriptors and driver counters over the run", "minutes", "count").yMin(0)
            .pointsAndLine("file descriptors, all nodes", minutes, column(3, 1))
            .pointsAndLine("threads, largest node", minutes, column(2, 1))
            .pointsAndLine("driver counters allocated, all hosts", minutes, column(7, 1))
            .save(dir, "resources-counts.png");
    }

    private double[] column(final int index, final double scale)
    {
        final double[] values = new double[series.size()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = Math.max(0, series.get(i)[index]) * scale;
        }
        return values;
    }

    private static long[] status(final long pid)
    {
        long rss = -1;
        long threads = -1;
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    rss = Long.parseLong(line.replaceAll("\\D", ""));
                }
                else if (line.startsWith("Threads:"))
                {
                    threads = Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            // gone since: a sample without it
        }
        return new long[]{rss, threads};
    }

    private static long count(final Path dir)
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.count();
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    private long heapAfterGcMb(final long pid)
    {
        final File log = logDir.resolve("gc-" + pid + ".log").toFile();
        if (!log.isFile())
        {
            return -1;
        }
        try
        {
            final Matcher m = GC_AFTER.matcher(Files.readString(log.toPath(), StandardCharsets.UTF_8));
            long last = -1;
            while (m.find())
            {
                last = Long.parseLong(m.group(1));
            }
            return last;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    private static long nmtOtherKb(final long pid)
    {
        try
        {
            final Process jcmd = new ProcessBuilder(jcmd(), Long.toString(pid), "VM.native_memory", "summary")
                .redirectErrorStream(true).start();
            final String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor();
            final Matcher m = NMT_OTHER.matcher(out);
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * @return this JVM's {@code jcmd}, which attaches to the nodes (they run on the same JDK).
     */
    static String jcmd()
    {
        return Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    }

    private static long shmUsedKb()
    {
        try
        {
            final java.nio.file.FileStore store = Files.getFileStore(Path.of("/dev/shm"));
            return (store.getTotalSpace() - store.getUnallocatedSpace()) / 1024;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /**
     * @return counters allocated, the driver's error count, NAKs it received; -1 each if its CnC file is unreadable.
     */
    private static long[] driverCounters(final File aeronDir)
    {
        final File cnc = new File(aeronDir, CncFileDescriptor.CNC_FILE);
        final long[] values = {-1, -1, -1};
        if (!cnc.isFile())
        {
            return values;
        }
        MappedByteBuffer mapped = null;
        try
        {
            mapped = IoUtil.mapExistingFile(cnc, "cnc");
            final DirectBuffer meta = CncFileDescriptor.createMetaDataBuffer(mapped);
            final CountersReader counters = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(mapped, meta),
                CncFileDescriptor.createCountersValuesBuffer(mapped, meta));
            values[0] = 0;
            counters.forEach((id, typeId, key, label) ->
            {
                values[0]++;
                if (label.startsWith("Errors"))
                {
                    values[1] = counters.getCounterValue(id);
                }
                else if (label.startsWith("NAKs received"))
                {
                    values[2] = counters.getCounterValue(id);
                }
            });
        }
        catch (final RuntimeException ex)
        {
            // the driver is restarting
        }
        finally
        {
            if (mapped != null)
            {
                IoUtil.unmap(mapped);
            }
        }
        return values;
    }
}
