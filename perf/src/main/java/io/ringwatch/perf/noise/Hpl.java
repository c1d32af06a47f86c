package io.ringwatch.perf.noise;

import io.ringwatch.nativeconfig.ProcessAffinity;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HPL as Debian ships it, inside the HPC Challenge suite ({@code hpcc}, run under Open MPI's {@code mpirun}): one
 * MPI rank per application core, one BLAS thread each. HPCC runs its other kernels too (STREAM, PTRANS,
 * RandomAccess, FFT) and sizes them from HPL's N; only {@code HPL_Tflops} is used, which HPL times itself.
 */
final class Hpl
{
    private final String hpcc;
    private final String mpirun;
    private final int n;

    private Hpl(final String hpcc, final String mpirun, final int n)
    {
        this.hpcc = hpcc;
        this.mpirun = mpirun;
        this.n = n;
    }

    /**
     * Outcome of looking for HPL.
     *
     * @param hpl    usable runner, or null.
     * @param reason why not, when null.
     */
    record Detection(Hpl hpl, String reason)
    {
    }

    /**
     * @param n problem size (HPL's N).
     * @return a runner when {@code hpcc} and {@code mpirun} are on the PATH.
     */
    static Detection detect(final int n)
    {
        final String hpcc = onPath("hpcc");
        if (hpcc == null)
        {
            return new Detection(null, "hpcc not installed (Debian: apt-get install hpcc)");
        }
        String mpirun = onPath("mpirun.openmpi");
        mpirun = mpirun != null ? mpirun : onPath("mpirun");
        if (mpirun == null)
        {
            return new Detection(null, "hpcc found at " + hpcc + " but no mpirun (Debian: openmpi-bin)");
        }
        return new Detection(new Hpl(hpcc, mpirun, n), null);
    }

    private static String onPath(final String name)
    {
        final String path = System.getenv("PATH");
        if (path == null)
        {
            return null;
        }
        for (final String dir : path.split(File.pathSeparator))
        {
            final File f = new File(dir, name);
            if (f.isFile() && f.canExecute())
            {
                return f.getAbsolutePath();
            }
        }
        return null;
    }

    /**
     * @return e.g. {@code hpcc N=8000 via /usr/bin/mpirun.openmpi}.
     */
    String describe()
    {
        return hpcc + " N=" + n + " via " + mpirun;
    }

    /**
     * Run HPCC once on the application's cores.
     *
     * @param appCpus    cores; one rank each.
     * @param workDir    a scratch directory (input and output files).
     * @param harnessCpus mask to restore on the calling thread afterwards.
     * @param timeoutNs  give up after this long.
     * @return HPL's rate in GFLOP/s.
     * @throws IllegalStateException if HPCC fails, times out, or HPL's result is missing or failed its check.
     */
    double run(final BitSet appCpus, final Path workDir, final BitSet harnessCpus, final long timeoutNs)
        throws IOException, InterruptedException
    {
        Files.createDirectories(workDir);
        final int ranks = appCpus.cardinality();
        int p = (int)Math.floor(Math.sqrt(ranks));
        while (ranks % p != 0)
        {
            p--;
        }
        Files.writeString(workDir.resolve("hpccinf.txt"), input(n, p, ranks / p), StandardCharsets.US_ASCII);
        final Path out = workDir.resolve("hpccoutf.txt");
        Files.deleteIfExists(out);

        final List<String> cmd = new ArrayList<>(List.of(mpirun, "--allow-run-as-root", "--oversubscribe",
            "--bind-to", "none", "-np", Integer.toString(ranks), hpcc));
        final ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile())
            .redirectErrorStream(true).redirectOutput(workDir.resolve("mpirun.log").toFile());
        pb.environment().put("OPENBLAS_NUM_THREADS", "1");
        pb.environment().put("OMP_NUM_THREADS", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        // children inherit the launching thread's CPU set: the whole MPI job starts on the application's cores
        final String placed = ProcessAffinity.setThread(0, appCpus);
        final Process process;
        try
        {
            if (placed != null)
            {
                throw new IllegalStateException("cannot place HPL on the application's cores: " + placed);
            }
            process = pb.start();
        }
        finally
        {
            ProcessAffinity.setThread(0, harnessCpus);
        }
        if (!process.waitFor(timeoutNs, TimeUnit.NANOSECONDS))
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("hpcc did not finish within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) +
                " s");
        }
        if (!Files.exists(out))
        {
            throw new IllegalStateException("hpcc exited " + process.exitValue() + " without " + out + "; see " +
                workDir.resolve("mpirun.log"));
        }
        return parseGflops(Files.readString(out, StandardCharsets.US_ASCII));
    }

    /**
     * @param hpccOut contents of {@code hpccoutf.txt}.
     * @return HPL_Tflops in GFLOP/s.
     */
    static double parseGflops(final String hpccOut)
    {
        String tflops = null;
        boolean failed = false;
        for (final String line : hpccOut.split("\n"))
        {
            if (line.startsWith("HPL_Tflops="))
            {
                tflops = line.substring("HPL_Tflops=".length()).trim();
            }
            else if (line.startsWith("Failure=") && !line.trim().equals("Failure=0"))
            {
                failed = true;
            }
        }
        final double gflops = tflops == null ? 0 : Double.parseDouble(tflops) * 1000;
        if (failed || !(gflops > 0))
        {
            throw new IllegalStateException("hpcc output without a passing HPL result" + (failed ? " (Failure set)" : ""));
        }
        return gflops;
    }

    static String input(final int n, final int p, final int q)
    {
        return String.join("\n",
            "HPLinpack benchmark input file",
            "ringwatch noise benchmark",
            "HPL.out      output file name (if any)",
            "8            device out (6=stdout,7=stderr,file)",
            "1            # of problems sizes (N)",
            n + "         Ns",
            "1            # of NBs",
            "192          NBs",
            "0            PMAP process mapping (0=Row-,1=Column-major)",
            "1            # of process grids (P x Q)",
            p + "            Ps",
            q + "            Qs",
            "16.0         threshold",
            "1            # of panel fact",
            "2            PFACTs (0=left, 1=Crout, 2=Right)",
            "1            # of recursive stopping criterium",
            "4            NBMINs (>= 1)",
            "1            # of panels in recursion",
            "2            NDIVs",
            "1            # of recursive panel fact.",
            "1            RFACTs (0=left, 1=Crout, 2=Right)",
            "1            # of broadcast",
            "1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)",
            "1            # of lookahead depth",
            "1            DEPTHs (>=0)",
            "2            SWAP (0=bin-exch,1=long,2=mix)",
            "64           swapping threshold",
            "0            L1 in (0=transposed,1=no-transposed) form",
            "0            U  in (0=transposed,1=no-transposed) form",
            "1            Equilibration (0=no,1=yes)",
            "8            memory alignment in double (> 0)",
            "##### This line (no. 32) is ignored (it serves as a separator). ######",
            "0                      \tNumber of additional problem sizes for PTRANS",
            "1200 10000 30000        \tvalues of N",
            "0                       \tnumber of additional blocking sizes for PTRANS",
            "40 9 8 13 13 20 16 32 64       \tvalues of NB",
            "");
    }
}
