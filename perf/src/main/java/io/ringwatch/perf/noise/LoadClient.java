package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.CpuList;
import io.ringwatch.nativeconfig.ProcessAffinity;
import io.ringwatch.transport.aeron.launch.ChildProcesses;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The harness's end of a {@link LoadWorker}: launches it, places it on the application's cores, sends commands and
 * parses the answers.
 */
final class LoadClient implements AutoCloseable
{
    /** Time allowed beyond a run's own duration before the worker counts as hung. */
    private static final long SLACK_NS = TimeUnit.SECONDS.toNanos(60);

    private final Process process;
    private final PrintStream commands;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final File log;
    private String initLine;

    /**
     * DGEMM result of one run.
     *
     * @param gflops    achieved rate.
     * @param calls     DGEMM calls made.
     * @param elapsedNs wall time of the run.
     * @param callTimes per-call times, ns.
     * @param allocatedBytes bytes the timed thread allocated during the run (0: the loop allocates nothing).
     */
    record DgemmRun(double gflops, long calls, long elapsedNs, Histogram callTimes, long allocatedBytes)
    {
    }

    /**
     * FWQ result of one run.
     *
     * @param quanta    every core's quantum times, ns, merged.
     * @param elapsedNs longest wall time of a core's loop.
     * @param allocatedBytes bytes the timed threads allocated during the run.
     */
    record FwqRun(Histogram quanta, long elapsedNs, long allocatedBytes)
    {
    }

    /**
     * @param classpath  classpath holding this module.
     * @param appCpus    the application's cores.
     * @param dgemmN     matrix order.
     * @param quantumNs  target FWQ quantum.
     * @param seed       matrix contents.
     * @param log        where the worker's stderr goes.
     */
    LoadClient(
        final String classpath,
        final BitSet appCpus,
        final int dgemmN,
        final long quantumNs,
        final long seed,
        final File log) throws InterruptedException
    {
        this.log = log;
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        // the timed loops allocate nothing; a fixed heap keeps the JVM from resizing while they run
        cmd.addAll(List.of("-XX:+UseSerialGC", "-Xms512m", "-Xmx512m", "-XX:+UnlockDiagnosticVMOptions",
            "-XX:GuaranteedSafepointInterval=0", "-cp", classpath, LoadWorker.class.getName()));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(log);
        pb.environment().put("OPENBLAS_NUM_THREADS", Integer.toString(appCpus.cardinality()));
        pb.environment().put("OMP_NUM_THREADS", Integer.toString(appCpus.cardinality()));
        try
        {
            process = pb.start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start the load worker", ex);
        }
        commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // the worker went away: await() reports it
            }
        }, "load-worker-reader");
        reader.setDaemon(true);
        reader.start();
        try
        {
            await("ready", TimeUnit.SECONDS.toNanos(120));
            final ProcessAffinity.Result placed = ProcessAffinity.setProcess(process.pid(), appCpus);
            if (!placed.applied())
            {
                throw new IllegalStateException("cannot place the load worker on cores " + CpuList.format(appCpus) +
                    ": " + placed);
            }
            commands.println("init " + CpuList.format(appCpus) + " " + dgemmN + " " + quantumNs + " " + seed);
            initLine = await("init", TimeUnit.SECONDS.toNanos(300));
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * @return the worker's pid.
     */
    long pid()
    {
        return process.pid();
    }

    /**
     * @return null when DGEMM runs, else why not.
     */
    String dgemmUnavailable()
    {
        final Map<String, String> f = fields(initLine);
        return "ok".equals(f.get("dgemm")) ? null : f.getOrDefault("reason", "unknown").replace('_', ' ');
    }

    /**
     * @return the BLAS library the worker loaded, or null.
     */
    String blasLibrary()
    {
        return fields(initLine).get("blas");
    }

    /**
     * @return iterations of one FWQ quantum.
     */
    long fwqIterations()
    {
        return Long.parseLong(fields(initLine).get("fwqIterations"));
    }

    /**
     * @return median time of one quantum when calibrated, ns.
     */
    long fwqQuantumNs()
    {
        return Long.parseLong(fields(initLine).get("fwqQuantumNs"));
    }

    DgemmRun dgemm(final long durationNs) throws InterruptedException
    {
        commands.println("dgemm " + durationNs);
        final Map<String, String> f = fields(await("dgemm", durationNs + SLACK_NS));
        return new DgemmRun(Double.parseDouble(f.get("gflops")), Long.parseLong(f.get("calls")),
            Long.parseLong(f.get("elapsedNs")), LoadWorker.decode(f.get("hist")), Long.parseLong(f.get("allocatedBytes")));
    }

    FwqRun fwq(final long durationNs) throws InterruptedException
    {
        commands.println("fwq " + durationNs);
        final Histogram merged = new Histogram(1, LoadWorker.HIGHEST_NS, 3);
        long elapsed = 0;
        long allocated = 0;
        while (true)
        {
            final String line = await("fwq", durationNs + SLACK_NS);
            if (line.equals("fwq done"))
            {
                return new FwqRun(merged, elapsed, allocated);
            }
            final Map<String, String> f = fields(line);
            merged.add(LoadWorker.decode(f.get("hist")));
            elapsed = Math.max(elapsed, Long.parseLong(f.get("elapsedNs")));
            allocated += Long.parseLong(f.get("allocatedBytes"));
        }
    }

    private String await(final String command, final long timeoutNs) throws InterruptedException
    {
        final String line = lines.poll(timeoutNs, TimeUnit.NANOSECONDS);
        if (line == null)
        {
            throw new IllegalStateException("load worker: no answer to '" + command + "' within " +
                TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s (alive: " + process.isAlive() + "; log " + log + ")");
        }
        if (line.startsWith("error"))
        {
            throw new IllegalStateException("load worker: " + line);
        }
        if (!line.startsWith(command))
        {
            throw new IllegalStateException("load worker: expected '" + command + "', got: " + line);
        }
        return line;
    }

    private static Map<String, String> fields(final String line)
    {
        final Map<String, String> f = new HashMap<>();
        for (final String word : line.split(" "))
        {
            final int eq = word.indexOf('=');
            if (eq > 0)
            {
                f.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return f;
    }

    public void close()
    {
        if (process.isAlive())
        {
            commands.println("quit");
            ChildProcesses.awaitExitOrKill(process);
        }
    }
}
