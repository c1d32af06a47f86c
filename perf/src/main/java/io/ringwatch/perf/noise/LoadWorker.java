package io.ringwatch.perf.noise;

import com.sun.jna.Memory;
import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.CpuPinning;
import io.ringwatch.nativeconfig.PinResult;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.BitSet;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/**
 * The application of the noise benchmark, in a JVM of its own on the application's cores: it runs the DGEMM and
 * FWQ loads on command and reports what they achieved. One long-lived process serves every run of a benchmark, so
 * baseline and detector runs meet the same warmed-up code, the same matrices and the same pinning.
 * <p>
 * Protocol, one line each way (results on stdout, anything else on stderr):
 * <pre>
 *   (worker)  ready PID
 *   init CPUS DGEMM_N FWQ_QUANTUM_NS SEED  ->  init dgemm=ok|unavailable fwqIterations=I fwqQuantumNs=Q [reason=...]
 *   dgemm DURATION_NS                      ->  dgemm calls=C elapsedNs=E gflops=G allocatedBytes=A hist=BASE64
 *   fwq DURATION_NS                        ->  fwq cpu=C quanta=Q elapsedNs=E allocatedBytes=A hist=BASE64
 *                                              (one per CPU), fwq done
 *   quit
 * </pre>
 * The harness places the process on the application's cores before {@code init}, so the BLAS threads created then
 * inherit them; FWQ threads pin themselves one per core. Timed loops allocate nothing: histograms are made before.
 */
public final class LoadWorker
{
    /** Longest single DGEMM call or FWQ quantum a histogram holds (longer ones are clamped). */
    static final long HIGHEST_NS = 60_000_000_000L;

    /** Bytes allocated by the timed thread, reported with every run: the timed loops must allocate nothing. */
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();

    private static volatile long sink;

    private final PrintStream out;
    private int[] cpus;
    private int dgemmN;
    private Memory a;
    private Memory b;
    private Memory c;
    private String dgemmUnavailable;
    private int fwqIterations;

    private LoadWorker(final PrintStream out)
    {
        this.out = out;
    }

    /**
     * @param args none.
     * @throws Exception on a broken pipe.
     */
    public static void main(final String[] args) throws Exception
    {
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        final LoadWorker worker = new LoadWorker(out);
        out.println("ready " + ProcessHandle.current().pid());
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null)
        {
            final String[] words = line.trim().split("\\s+");
            try
            {
                switch (words[0])
                {
                    case "init" -> worker.init(words);
                    case "dgemm" -> worker.dgemm(Long.parseLong(words[1]));
                    case "fwq" -> worker.fwq(Long.parseLong(words[1]));
                    case "quit" ->
                    {
                        return;
                    }
                    default -> out.println("error unknown command " + words[0]);
                }
            }
            catch (final RuntimeException ex)
            {
                out.println("error " + words[0] + ": " + ex.toString().replace('\n', ' '));
            }
        }
    }

    private void init(final String[] words)
    {
        final BitSet set = CpuList.parse(words[1]);
        cpus = set.stream().toArray();
        dgemmN = Integer.parseInt(words[2]);
        final long quantumNs = Long.parseLong(words[3]);
        final Random random = new Random(Long.parseLong(words[4]));

        dgemmUnavailable = Blas.unavailableReason();
        if (dgemmUnavailable == null)
        {
            final long bytes = (long)dgemmN * dgemmN * Double.BYTES;
            a = new Memory(bytes);
            b = new Memory(bytes);
            c = new Memory(bytes);
            for (long i = 0; i < (long)dgemmN * dgemmN; i++)
            {
                a.setDouble(i * Double.BYTES, random.nextDouble() - 0.5);
                b.setDouble(i * Double.BYTES, random.nextDouble() - 0.5);
                c.setDouble(i * Double.BYTES, 0);
            }
            // warm: BLAS threads start, pages are touched, the call path is compiled
            dgemmLoop(new Histogram(1, HIGHEST_NS, 3), System.nanoTime() + 300_000_000L);
        }

        fwqIterations = calibrate(quantumNs);
        final Histogram warm = new Histogram(1, HIGHEST_NS, 3);
        fwqLoop(warm, fwqIterations, System.nanoTime() + 500_000_000L);
        out.printf(Locale.ROOT, "init dgemm=%s fwqIterations=%d fwqQuantumNs=%d%s%n",
            dgemmUnavailable == null ? "ok" : "unavailable", fwqIterations, warm.getValueAtPercentile(50),
            dgemmUnavailable == null ? " blas=" + Blas.library() :
            " reason=" + dgemmUnavailable.replaceAll("\\s", "_"));
    }

    /**
     * Iterations whose median time is the requested quantum, measured on the calling thread.
     */
    private static int calibrate(final long quantumNs)
    {
        int iterations = 1_000;
        for (int round = 0; round < 6; round++)
        {
            final long[] times = new long[201];
            for (int i = 0; i < times.length; i++)
            {
                final long start = System.nanoTime();
                sink += Fwq.quantum(iterations, start);
                times[i] = System.nanoTime() - start;
            }
            Arrays.sort(times);
            final double scale = (double)quantumNs / Math.max(1, times[times.length / 2]);
            iterations = (int)Math.max(1, Math.min(Integer.MAX_VALUE / 2, iterations * scale));
        }
        return iterations;
    }

    private void dgemm(final long durationNs)
    {
        if (dgemmUnavailable != null)
        {
            out.println("error dgemm: " + dgemmUnavailable);
            return;
        }
        final Histogram histogram = new Histogram(1, HIGHEST_NS, 3);
        final long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        final long start = System.nanoTime();
        final long calls = dgemmLoop(histogram, start + durationNs);
        final long elapsed = System.nanoTime() - start;
        final long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
        final double flops = 2.0 * dgemmN * dgemmN * (double)dgemmN * calls;
        out.printf(Locale.ROOT, "dgemm calls=%d elapsedNs=%d gflops=%.6f allocatedBytes=%d hist=%s%n",
            calls, elapsed, flops / elapsed, allocated, encode(histogram));
    }

    private long dgemmLoop(final Histogram histogram, final long endNs)
    {
        long calls = 0;
        long now = System.nanoTime();
        while (endNs - now > 0)
        {
            Blas.cblas_dgemm(Blas.ROW_MAJOR, Blas.NO_TRANS, Blas.NO_TRANS, dgemmN, dgemmN, dgemmN, 1.0, a, dgemmN, b,
                dgemmN, 0.0, c, dgemmN);
            final long after = System.nanoTime();
            histogram.recordValue(Math.min(HIGHEST_NS, after - now));
            now = after;
            calls++;
        }
        return calls;
    }

    private void fwq(final long durationNs) throws RuntimeException
    {
        final Histogram[] histograms = new Histogram[cpus.length];
        final long[] elapsed = new long[cpus.length];
        final long[] allocated = new long[cpus.length];
        final String[] pinned = new String[cpus.length];
        final CountDownLatch ready = new CountDownLatch(cpus.length);
        final CountDownLatch go = new CountDownLatch(1);
        final Thread[] threads = new Thread[cpus.length];
        final long[] startNs = new long[1];
        for (int i = 0; i < cpus.length; i++)
        {
            final int index = i;
            histograms[i] = new Histogram(1, HIGHEST_NS, 3);
            threads[i] = new Thread(() ->
            {
                final PinResult pin = CpuPinning.forThisHost().pinCurrentThread(cpus[index]);
                pinned[index] = pin.pinned() ? null : pin.toString();
                ready.countDown();
                try
                {
                    go.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                final long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
                final long begin = System.nanoTime();
                fwqLoop(histograms[index], fwqIterations, startNs[0] + durationNs);
                elapsed[index] = System.nanoTime() - begin;
                allocated[index] = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
            }, "fwq-" + cpus[i]);
            threads[i].start();
        }
        try
        {
            ready.await();
            startNs[0] = System.nanoTime();
            go.countDown();
            for (final Thread t : threads)
            {
                t.join();
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
        for (int i = 0; i < cpus.length; i++)
        {
            if (pinned[i] != null)
            {
                out.println("error fwq: " + pinned[i]);
                return;
            }
        }
        for (int i = 0; i < cpus.length; i++)
        {
            out.printf(Locale.ROOT, "fwq cpu=%d quanta=%d elapsedNs=%d allocatedBytes=%d hist=%s%n", cpus[i],
                histograms[i].getTotalCount(), elapsed[i], allocated[i], encode(histograms[i]));
        }
        out.println("fwq done");
    }

    private static void fwqLoop(final Histogram histogram, final int iterations, final long endNs)
    {
        long acc = 0;
        long now = System.nanoTime();
        while (endNs - now > 0)
        {
            acc += Fwq.quantum(iterations, now);
            final long after = System.nanoTime();
            histogram.recordValue(Math.min(HIGHEST_NS, after - now));
            now = after;
        }
        sink += acc;
    }

    static String encode(final Histogram histogram)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decode(final String base64)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        }
        catch (final java.util.zip.DataFormatException ex)
        {
            throw new IllegalArgumentException("bad histogram from the load worker", ex);
        }
    }
}
