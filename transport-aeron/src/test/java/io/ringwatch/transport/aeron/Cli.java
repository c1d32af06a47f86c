package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.Drivers;
import io.ringwatch.transport.aeron.internal.cli.Main;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ringwatch.jar} as an operator runs it, from this test JVM's classpath (the jar is built after the tests):
 * the same main class and JVM options the jar's manifest gives it.
 */
final class Cli
{
    /** What the jar's manifest opens (Add-Opens), for JVMs started with -cp. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED");

    private Cli()
    {
    }

    /**
     * @return {@code java} of this JVM.
     */
    static String java()
    {
        return ProcessHandle.current().info().command().orElse(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    }

    /**
     * @param args the jar's arguments.
     * @return the whole command line, as {@code java -jar ringwatch.jar ARGS} would run.
     */
    static List<String> command(final List<String> args)
    {
        final List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(JVM_OPTIONS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * @param log  where its stdout and stderr go.
     * @param args the jar's arguments.
     * @return the process.
     */
    static Process start(final File log, final String... args)
    {
        return startCommand(log, command(List.of(args)));
    }

    /**
     * @param log where its stdout and stderr go.
     * @param cmd a whole command line.
     * @return the process.
     */
    static Process startCommand(final File log, final List<String> cmd)
    {
        try
        {
            return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Run to its end.
     *
     * @param log  where its output goes.
     * @param args the jar's arguments.
     * @return its exit code.
     * @throws InterruptedException if interrupted.
     */
    static int run(final File log, final String... args) throws InterruptedException
    {
        final Process process = start(log, args);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), () -> "ended: " + read(log));
        return process.exitValue();
    }

    /**
     * @param log a log file.
     * @return its text, or "" if none yet.
     */
    static String read(final File log)
    {
        try
        {
            return log.exists() ? Files.readString(log.toPath(), StandardCharsets.UTF_8) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param stat what {@code stat} printed (its default table).
     * @param rank a rank.
     * @return that rank's row, split into its columns (CLUSTER RANK PID ALIVE STATE INCARNATION EPOCH DEAD ...).
     */
    static String[] statRow(final String stat, final int rank)
    {
        return stat.lines().filter(line -> line.matches("\\d+ +\\d+ .*")).map(line -> line.trim().split(" +"))
            .filter(columns -> columns[1].equals(Integer.toString(rank))).findFirst()
            .orElseThrow(() -> new AssertionError("no row for rank " + rank + " in:\n" + stat));
    }

    /**
     * Wait up to a minute for {@code line} in the process's log.
     *
     * @throws AssertionError with the log if the process ends first or the minute passes.
     */
    static void awaitLine(final Process process, final File log, final String line) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!read(log).contains(line))
        {
            if (!process.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                throw new AssertionError("no '" + line + "' (" + (process.isAlive() ? "running" : "exit " +
                    process.exitValue()) + "): " + read(log));
            }
            Thread.sleep(20);
        }
    }

    /**
     * Start a media driver process and wait until it says it is ready.
     *
     * @param log where its output goes.
     * @param cmd its whole command line.
     * @return the running driver.
     */
    static Process startDriver(final File log, final List<String> cmd) throws InterruptedException
    {
        final Process driver = startCommand(log, cmd);
        awaitLine(driver, log, Drivers.READY_LINE);
        return driver;
    }

    /**
     * A UDP media driver in {@code dir}/aeron, its output in {@code dir}/driver.log, ready.
     */
    static Process startUdpDriver(final Path dir) throws InterruptedException
    {
        final File log = dir.resolve("driver.log").toFile();
        final Process driver = start(log, "driver", "--aeron-dir", dir.resolve("aeron").toString(), "--transport", "udp");
        awaitLine(driver, log, Drivers.READY_LINE);
        return driver;
    }

    /**
     * A cluster file of {@code ranks} ranks on 127.0.0.1 (cluster 9, η 25 ms, δ 250 ms, rank r on ports
     * {@code firstPort + 2r} and the next) and a key made by {@code keygen}, both in {@code dir}.
     *
     * @return the arguments naming them, with the aeron directory of {@link #startUdpDriver}: {@code --cluster},
     * {@code --transport udp}, {@code --driver external}, {@code --aeron-dir}, {@code --key-file}.
     */
    static List<String> udpClusterArgs(final Path dir, final int ranks, final int firstPort)
        throws IOException, InterruptedException
    {
        final StringBuilder conf = new StringBuilder("cluster-id=9\nheartbeat-period=25ms\nsuspicion-timeout=250ms\n");
        for (int r = 0; r < ranks; r++)
        {
            conf.append(r).append(" 127.0.0.1 ").append(firstPort + 2 * r).append(' ').append(firstPort + 2 * r + 1)
                .append('\n');
        }
        final Path cluster = dir.resolve("cluster.conf");
        Files.writeString(cluster, conf);
        final File key = dir.resolve("key").toFile();
        assertEquals(0, run(dir.resolve("keygen.log").toFile(), "keygen", "--out", key.getPath()));
        return List.of("--cluster", cluster.toString(), "--transport", "udp", "--driver", "external", "--aeron-dir",
            dir.resolve("aeron").toString(), "--key-file", key.getPath());
    }
}
