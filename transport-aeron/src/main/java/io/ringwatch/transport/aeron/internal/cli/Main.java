package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.nativeconfig.Doctor;
import io.ringwatch.transport.aeron.RingwatchConfiguration;

import java.util.Arrays;

/**
 * Entry point of {@code ringwatch.jar}: {@code node}, {@code demo}, {@code driver}, {@code stat}, {@code doctor},
 * {@code keygen}.
 * <p>
 * Exit codes: 0 success, 1 the command's check failed (demo: wrong views), {@value
 * RingwatchConfiguration#EXIT_CONFIG_ERROR} bad usage or configuration, {@value RingwatchConfiguration#EXIT_FENCED}
 * a node was declared dead by the others and stopped (fail-stop), {@value RingwatchConfiguration#EXIT_DRIVER_LOST}
 * a node lost its media driver or (transport rdma) its HCA port.
 */
public final class Main
{
    private Main()
    {
    }

    /**
     * @param args command and options.
     */
    public static void main(final String[] args)
    {
        if (args.length == 0 || "help".equals(args[0]) || Arrays.asList(args).contains("--help"))
        {
            usage();
            System.exit(args.length == 0 ? RingwatchConfiguration.EXIT_CONFIG_ERROR : 0);
        }
        int exitCode;
        try
        {
            switch (args[0])
            {
                case "node":
                    exitCode = NodeCommand.run(args);
                    break;
                case "demo":
                    exitCode = DemoCommand.run(args);
                    break;
                case "app":
                    exitCode = AppCommand.run(args);
                    break;
                case "driver":
                    exitCode = DriverCommand.run(args);
                    break;
                case "stat":
                    exitCode = StatCommand.run(args);
                    break;
                case "keygen":
                    exitCode = KeygenCommand.run(args, System.out);
                    break;
                case "doctor":
                    Doctor.main(Arrays.copyOfRange(args, 1, args.length));
                    exitCode = 0;
                    break;
                default:
                    System.err.println("unknown command: " + args[0]);
                    usage();
                    exitCode = RingwatchConfiguration.EXIT_CONFIG_ERROR;
            }
        }
        catch (final IllegalArgumentException | IllegalStateException ex)
        {
            System.err.println("ringwatch " + args[0] + ": " + ex.getMessage());
            exitCode = RingwatchConfiguration.EXIT_CONFIG_ERROR;
        }
        catch (final Exception ex)
        {
            ex.printStackTrace();
            exitCode = 1;
        }
        System.exit(exitCode);
    }

    private static void usage()
    {
        System.err.println(String.join(System.lineSeparator(),
            "usage: java -jar ringwatch.jar <command> [options]",
            "  node   --cluster FILE --rank R [--profile low-latency|low-noise] [--transport ipc|udp|rdma]",
            "         --key-file FILE | --no-auth   [--driver embedded|external] [--aeron-dir DIR] [--cpu N]",
            "         [--heartbeat-period 1ms] [--suspicion-timeout 10ms] [--grace 10s] [--rt-priority 1..99]",
            "         [--seeds S]   ranks 0..S-1 boot the cluster, the others join (default 3; S = N: all boot)",
            "         [--join]   rejoin a running cluster under a new incarnation (a restarted rank)",
            "         [--procs K | --job FILE] [--exec CMD] [--process-timeout 1s]   two levels: the node is the",
            "         daemon of K application processes (or of those the job file gives it), launched by --exec",
            "  demo   [--nodes 8] [--kill 2] [--transport ipc|udp|rdma] [--heartbeat-period 5ms --suspicion-timeout 50ms]",
            "         [--seed S] [--profile low-latency|low-noise] [--grace 3s] [--rt-priority 1..99]",
            "         [--restart]   then restart the killed ranks (node --join) and check each is readmitted",
            "         [--procs-per-node K|K0,K1,..]   two levels: kill a process and a node, check every process",
            "  driver [--aeron-dir DIR] [--rt-priority P] [--transport ipc|udp|rdma] [--network-period D]",
            "         media driver for nodes run with --driver external; its network thread wakes every D (default",
            "         100us, 10ms for ipc-only clusters; low-noise udp clusters: a quarter of the probe timeout)",
            "  stat   [--aeron-dir DIR] [--cluster-id ID]   counters from the driver's CnC file and view files",
            "  doctor [--aeron-dir DIR] [--agents N]      host report: cores, pinning, memlock, shm, RDMA, and who",
            "         else may write /dev/shm and the Aeron directory",
            "  keygen [--out FILE]                        new cluster key: FILE created 0600, or the key line on " +
                "stdout (keygen >> FILE adds one for a rotation)",
            "durations need their unit: ns, us, ms or s (10ms, 1.5ms, 500us)",
            "exit codes: 0 ok, 1 check failed, 2 bad configuration, 3 node fenced (declared dead by others): " +
                "restart me with a new incarnation (node --join), 4 node lost its media driver or its RDMA port"));
    }
}
