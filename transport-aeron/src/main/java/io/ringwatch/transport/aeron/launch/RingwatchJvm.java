package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.internal.cli.Main;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code ringwatch.jar} command ({@code node}, {@code driver}) in a JVM of its own, started with the launcher's JVM
 * options and classpath and the cluster's Aeron directory.
 */
final class RingwatchJvm
{
    private RingwatchJvm()
    {
    }

    /**
     * @param options  JVM options and classpath.
     * @param aeronDir the cluster's Aeron directory, passed as {@code -Daeron.dir}.
     * @param args     the command and its options.
     * @return the whole command line.
     */
    static List<String> command(final LocalCluster.Options options, final File aeronDir, final List<String> args)
    {
        return command(options, List.of(), aeronDir, args);
    }

    /**
     * As {@link #command(LocalCluster.Options, File, List)}, with JVM options of one process's own after the common
     * ones (a later {@code -D} wins).
     *
     * @param options    JVM options and classpath.
     * @param ownOptions this process's own JVM options.
     * @param aeronDir   the cluster's Aeron directory, passed as {@code -Daeron.dir}.
     * @param args       the command and its options.
     * @return the whole command line.
     */
    static List<String> command(
        final LocalCluster.Options options, final List<String> ownOptions, final File aeronDir, final List<String> args)
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(
            System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        if (options.transport() == TransportMode.RDMA)
        {
            // where this JVM found libdisni (build-libdisni.sh --dest DIR and -Djava.library.path=DIR), unless the
            // JVM options given say otherwise: a later -D wins
            cmd.add("-Djava.library.path=" + System.getProperty("java.library.path"));
        }
        cmd.addAll(options.jvmOptions());
        cmd.addAll(ownOptions);
        cmd.add("-Daeron.dir=" + aeronDir.getAbsolutePath());
        cmd.add("-cp");
        cmd.add(options.classpath());
        cmd.add(Main.class.getName());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * @param cmd     command line.
     * @param log     where its stdout and stderr go, unless inherited.
     * @param what    what it is, for the error message.
     * @param inherit true to print to this process's stdout and stderr instead.
     * @param append  true to add to the log (a relaunched node's keeps its earlier lives), false to start it afresh
     *                (a driver's ready line must be this life's).
     * @return the started process.
     * @throws UncheckedIOException if it cannot be started.
     */
    static Process start(
        final List<String> cmd, final File log, final String what, final boolean inherit, final boolean append)
    {
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (inherit)
        {
            pb.inheritIO();
        }
        else
        {
            pb.redirectOutput(append ? ProcessBuilder.Redirect.appendTo(log) : ProcessBuilder.Redirect.to(log));
        }
        try
        {
            return pb.start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start " + what, ex);
        }
    }
}
