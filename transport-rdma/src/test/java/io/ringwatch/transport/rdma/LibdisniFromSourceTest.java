package io.ringwatch.transport.rdma;

import com.ibm.disni.util.NativeAffinity;
import com.ibm.disni.verbs.impl.NativeDispatcher;
import io.ringwatch.nativeconfig.NativeLibraryProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * libdisni built from DiSNI 2.1's own source archive with {@code scripts/build-libdisni.sh}, then checked against the
 * DiSNI jar DisniVerbs uses: every native method of its dispatcher and affinity classes has its JNI symbol in the
 * library, the library has no unresolved symbol, and, in a JVM that loads it, the first verbs call (opening an RDMA
 * CM event channel, what {@link RdmaDevices} asks before anything else) fails on a host without an RDMA device with
 * the reason {@code doctor} and the node print, not a crash. Skipped, with the reason, where the source archive, the
 * compilers or rdma-core's headers are missing ({@code .ci/run} installs the headers on Debian).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LibdisniFromSourceTest
{
    /** The DiSNI 2.1 source archive; by default where the project keeps third-party sources, beside the repo. */
    static final String SOURCE_PROP_NAME = "ringwatch.disni.source";

    @TempDir
    Path dir;

    @Test
    void shouldBuildLibdisniFromSourceWithEveryNativeMethodLinkedAndFailTheFirstVerbsCallCleanly() throws Exception
    {
        final Path source = Path.of(System.getProperty(SOURCE_PROP_NAME,
            Path.of("..", "..", "shared", "third_party", "disni-2.1.tar.gz").toString())).toAbsolutePath();
        assumeTrue(Files.isRegularFile(source), () -> "no DiSNI 2.1 source archive at " + source + " (set -D" +
            SOURCE_PROP_NAME + "=FILE)");
        for (final String tool : List.of("gcc", "g++", "nm", "ldd", "bash"))
        {
            assumeTrue(onPath(tool), () -> tool + " not on PATH: cannot build libdisni here");
        }
        for (final String header : List.of("infiniband/verbs.h", "rdma/rdma_cma.h"))
        {
            assumeTrue(run(List.of("bash", "-c", "echo '#include <" + header + ">' | gcc -E -x c - >/dev/null"))
                .exit == 0, () -> "<" + header + "> missing (Debian: apt-get install libibverbs-dev librdmacm-dev)");
        }

        final Path dest = dir.resolve("lib");
        final Path jar = Path.of(NativeDispatcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Result build = run(List.of("bash", Path.of("scripts", "build-libdisni.sh").toString(),
            source.toString(), "--dest", dest.toString(), "--jar", jar.toString()));
        assertEquals(0, build.exit, build.output);
        assertTrue(build.output.contains("reports JNI version 32, as DiSNI 2.1 requires"), build.output);
        final Path library = dest.resolve("libdisni.so");

        final Set<String> exported = new TreeSet<>();
        for (final String line : run(List.of("nm", "-D", "--defined-only", library.toString())).output.split("\n"))
        {
            final String[] fields = line.trim().split("\\s+");
            exported.add(fields[fields.length - 1]);
        }
        final List<String> missing = new ArrayList<>();
        int natives = 0;
        for (final Class<?> type : List.of(NativeDispatcher.class, NativeAffinity.class))
        {
            for (final Method method : type.getDeclaredMethods())
            {
                if (Modifier.isNative(method.getModifiers()))
                {
                    natives++;
                    final String symbol = jniName(type, method);
                    if (!exported.contains(symbol))
                    {
                        missing.add(symbol);
                    }
                }
            }
        }
        assertTrue(natives >= 48, "native methods found: " + natives);
        assertEquals(List.of(), missing, "native methods without a JNI symbol in libdisni");
        final Result unresolved = run(List.of("ldd", "-r", library.toString()));
        assertFalse(unresolved.output.contains("undefined symbol"), unresolved.output);

        // in a JVM that loads it: no RDMA device here, so the first verbs call must fail with a reason
        final Result firstCall = run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djava.library.path=" + dest, "-cp", System.getProperty("java.class.path"),
            FirstVerbsCall.class.getName()));
        assertEquals(0, firstCall.exit, firstCall.output);
        assertTrue(firstCall.output.contains("libdisni loaded: true"), firstCall.output);
        if (!Files.exists(Path.of("/dev/infiniband/rdma_cm")))
        {
            assertTrue(firstCall.output.contains("first verbs call: DiSNI could not open an RDMA CM event channel " +
                "(is /dev/infiniband/rdma_cm present and accessible, rdma_ucm loaded?)"), firstCall.output);
        }
    }

    /** Loads libdisni as DiSNI does and makes the first call DisniVerbs depends on; prints what happened. */
    static final class FirstVerbsCall
    {
        public static void main(final String[] args)
        {
            final NativeLibraryProbe.Result load = NativeLibraryProbe.tryLoad("disni");
            System.out.println("libdisni loaded: " + load.usable() + (load.usable() ? "" : " " + load.loadError()));
            System.out.println("first verbs call: " + RdmaDevices.disniUnusableReason());
        }
    }

    private static String jniName(final Class<?> type, final Method method)
    {
        return "Java_" + mangle(type.getName()) + "_" + mangle(method.getName());
    }

    private static String mangle(final String name)
    {
        final StringBuilder out = new StringBuilder();
        for (final char c : name.toCharArray())
        {
            out.append(c == '.' ? "_" : c == '_' ? "_1" : String.valueOf(c));
        }
        return out.toString();
    }

    private static boolean onPath(final String tool) throws Exception
    {
        return run(List.of("bash", "-c", "command -v " + tool)).exit == 0;
    }

    private record Result(int exit, String output)
    {
    }

    private static Result run(final List<String> command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), output);
    }
}
