package io.ringwatch.transport.aeron.internal.cli;

import io.aeron.exceptions.DriverTimeoutException;
import io.ringwatch.nativeconfig.Doctor;
import io.ringwatch.transport.aeron.RingwatchConfiguration;
import io.ringwatch.transport.aeron.internal.RankLock;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Entry point of {@code ringwatch.jar}: {@code node}, {@code demo}, {@code driver}, {@code stat}, {@code doctor},
 * {@code keygen}. Exit codes: {@link #EXIT_CODES}.
 */
public final class Main
{
    /**
     * What each exit code means and what a supervisor does with it; {@code --help} prints it and the docs' table
     * is this one.
     */
    static final String[] EXIT_CODES = {
        "exit codes (the shipped systemd units restart on every code but 0, " +
            RingwatchConfiguration.EXIT_ALREADY_RUNNING + ", " + RingwatchConfiguration.EXIT_KEY_MISMATCH + " and " +
            RingwatchConfiguration.EXIT_CONFIG_INVALID + "):",
        "  0   ok; a node or driver stopped on SIGTERM/SIGINT (a node LEFT: it told its observer)",
        "  1   a command's check failed (demo, app), or an internal error (a stack trace follows): restart",
        "  " + RingwatchConfiguration.EXIT_CONFIG_ERROR + "   start failed for a reason that can pass: no media " +
            "driver at --aeron-dir, a port held by another process, a host that does not resolve: restart",
        "  " + RingwatchConfiguration.EXIT_FENCED + "   node excluded (declared dead, fenced, minority side, heard " +
            "nobody): it fenced itself; restart, it rejoins under a new incarnation",
        "  " + RingwatchConfiguration.EXIT_DRIVER_LOST + "   node lost its media driver or (rdma) its HCA port: " +
            "restart the driver, then the node",
        "  " + RingwatchConfiguration.EXIT_ALREADY_RUNNING + "   this rank already runs on this host (same cluster, " +
            "same --aeron-dir): refused before touching anything; do not restart",
        "  " + RingwatchConfiguration.EXIT_KEY_MISMATCH + "  peers told a node by their hellos that they sign with " +
            "another key (udp: it heard nobody; ipc: none agreed with it): do not restart; give it the cluster's key " +
            "file",
        "  " + RingwatchConfiguration.EXIT_CONFIG_INVALID + "  bad command line, cluster file, key file or setting, " +
            "or peers told a node that their configuration differs (udp: it heard nobody; ipc: none agreed with " +
            "it): do not restart; fix it",
        "  143 SIGTERM before the node or driver could handle it (it was still starting): a stop, not a failure"};

    private static final String[] COMMANDS = {"node", "demo", "app", "driver", "stat", "doctor", "keygen"};

    private Main()
    {
    }

    /**
     * @param args command and options.
     */
    public static void main(final String[] args)
    {
        CliLogging.install();
        CliShutdown.arm();
        final int exitCode = run(args);
        CliShutdown.exiting();
        System.exit(exitCode);
    }

    private static int run(final String[] args)
    {
        if (args.length == 0 || "help".equals(args[0]) || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            usage(null, args.length == 0 ? System.err : System.out);
            return args.length == 0 ? RingwatchConfiguration.EXIT_CONFIG_INVALID : 0;
        }
        if ("--version".equals(args[0]) || "version".equals(args[0]))
        {
            System.out.println("ringwatch " + version());
            return 0;
        }
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h"))
        {
            usage(Arrays.asList(COMMANDS).contains(args[0]) ? args[0] : null, System.out);
            return 0;
        }
        try
        {
            switch (args[0])
            {
                case "node":
                    return NodeCommand.run(args);
                case "demo":
                    return DemoCommand.run(args);
                case "app":
                    return AppCommand.run(args);
                case "driver":
                    return DriverCommand.run(args);
                case "stat":
                    return StatCommand.run(args);
                case "keygen":
                    return KeygenCommand.run(args, System.out);
                case "doctor":
                    Doctor.main(Arrays.copyOfRange(args, 1, args.length));
                    return 0;
                default:
                    System.err.println("unknown command: " + args[0]);
                    usage(null, System.err);
                    return RingwatchConfiguration.EXIT_CONFIG_INVALID;
            }
        }
        catch (final RankLock.RankRunningException ex)
        {
            return fail(args[0], ex.getMessage(), RingwatchConfiguration.EXIT_ALREADY_RUNNING);
        }
        catch (final DriverTimeoutException ex)
        {
            // the driver died before or while the node started (a killed driver not yet restarted): as in a run
            return fail(args[0], "DRIVER_LOST at start: " + ex.getMessage() + ": restart the media driver " +
                "(ringwatch.jar driver; its unit restarts the nodes that require it), then the node",
                RingwatchConfiguration.EXIT_DRIVER_LOST);
        }
        catch (final IllegalArgumentException ex)
        {
            return fail(args[0], ex.getMessage() + " (a configuration error: fix it, a restart cannot help)",
                RingwatchConfiguration.EXIT_CONFIG_INVALID);
        }
        catch (final IllegalStateException | UncheckedIOException ex)
        {
            return fail(args[0], ex.getMessage(), RingwatchConfiguration.EXIT_CONFIG_ERROR);
        }
        catch (final Exception ex)
        {
            ex.printStackTrace();
            return 1;
        }
    }

    private static int fail(final String command, final String message, final int exitCode)
    {
        System.err.println("ringwatch " + command + ": " + message + "; exit " + exitCode);
        return exitCode;
    }

    /**
     * @return the version the jar was built as, from its manifest, or "development build" outside a jar.
     */
    static String version()
    {
        final String version = Main.class.getPackage().getImplementationVersion();
        return version != null ? version : "development build (not run from ringwatch.jar)";
    }

    private static void usage(final String command, final PrintStream out)
    {
        final String[][] sections = {
            {"node", "  node   --cluster FILE --rank R [--profile low-latency|low-noise] [--transport ipc|udp|rdma]",
                "         --key-file FILE | --no-auth   [--driver embedded|external] [--aeron-dir DIR] [--cpu N]",
                "         transport and driver follow the cluster file: one host ipc + embedded driver; several " +
                    "hosts udp + the host's driver",
                "         [--heartbeat-period 1ms] [--suspicion-timeout 10ms] [--startup-grace 10s] [--rt-priority 1..99]",
                "         [--seeds S]   ranks 0..S-1 boot the cluster, the others join (default 3; S = N: all boot)",
                "         [--join]   join under a new incarnation even on a first start (a restart joins without it)",
                "         [--metrics-port P [--metrics-bind 127.0.0.1]]   serve this node's counters at " +
                    "http://HOST:P/metrics (Prometheus text)",
                "         [--procs-per-node K | --job FILE] [--exec CMD] [--process-timeout 1s]   two levels: the node is the",
                "         daemon of K application processes (or of those the job file gives it), launched by --exec"},
            {"demo", "  demo   [--nodes 8] [--kills 2] [--transport ipc|udp|rdma] [--heartbeat-period 5ms " +
                "--suspicion-timeout 50ms]",
                "         [--seed S] [--profile low-latency|low-noise] [--startup-grace 3s] [--rt-priority 1..99]",
                "         [--restart]   then restart the killed ranks (same command line) and check each is readmitted",
                "         [--procs-per-node K|K0,K1,..]   two levels: kill a process and a node, check every process"},
            {"driver", "  driver [--aeron-dir DIR] [--rt-priority P] [--cluster FILE] [--transport ipc|udp|rdma]",
                "         [--network-period D]   transport: as the nodes', from the cluster file (one host: ipc; " +
                    "several: udp); udp without one",
                "         media driver for nodes run with --driver external; its network thread wakes every D " +
                    "(default",
                "         100us, 10ms for ipc-only clusters; low-noise udp clusters: a quarter of the probe timeout)"},
            {"stat", "  stat   [--aeron-dir DIR] [--cluster-id ID]   one line per node of this host: state, " +
                "incarnation, epoch, dead set, last change",
                "         [--counters [--all]]   every counter (non-zero ones unless --all), driver errors, slots",
                "         [--json]   the same as JSON    [--watch [--interval 1s] [--count N]]   print again " +
                    "every interval",
                "         [--history]   the membership journals of the host's nodes, merged in time order"},
            {"doctor", "  doctor [--aeron-dir DIR] [--agents N]      host report: cores, pinning, memlock, shm, " +
                "RDMA, and who",
                "         else may write /dev/shm and the Aeron directory"},
            {"keygen", "  keygen [--out FILE]                        new cluster key: FILE created 0600, or the key " +
                "line on stdout (keygen >> FILE adds one for a rotation)"}};
        final StringBuilder text = new StringBuilder(command == null ?
            "usage: java -jar ringwatch.jar <command> [options]   (ringwatch.jar <command> --help, --version)" :
            "usage: java -jar ringwatch.jar " + command + " [options]");
        for (final String[] section : sections)
        {
            if (command == null || command.equals(section[0]))
            {
                for (int i = 1; i < section.length; i++)
                {
                    text.append(System.lineSeparator()).append(section[i]);
                }
            }
        }
        if ("app".equals(command))
        {
            text.append(System.lineSeparator()).append("  app    one application process of a two-level node " +
                "(launched by node --exec; see the README)");
        }
        text.append(System.lineSeparator()).append("durations need their unit: ns, us, ms or s (10ms, 1.5ms, 500us)");
        for (final String line : EXIT_CODES)
        {
            text.append(System.lineSeparator()).append(line);
        }
        out.println(text);
    }
}
