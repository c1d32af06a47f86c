package io.ringwatch.perf;

import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of {@code ringwatch-perf.jar}: {@code java -jar ringwatch-perf.jar <command> [flags]}.
 * Each command is its own class; adding one is one line in {@link #COMMANDS}.
 */
public final class Main
{
    private static final List<Command> COMMANDS = List.of(
        new SimulateCommand(),
        new ReproduceCommand(),
        new DetectionCommand(),
        new HeartbeatPathCommand(),
        new RdmaHeartbeatCommand(),
        new NoiseCommand(),
        new NetnsCommand(),
        new NemesisCommand(),
        new FloodCommand(),
        new ExploreCommand());

    private Main()
    {
    }

    /**
     * @param args command name then its flags.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * @param args command name then its flags.
     * @param out  results.
     * @param err  progress and diagnostics.
     * @return the exit code.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0]))
        {
            printOverview(args.length == 0 ? err : out);
            return args.length == 0 ? 2 : 0;
        }

        for (final Command command : COMMANDS)
        {
            if (command.name().equals(args[0]))
            {
                final String[] rest = Arrays.copyOfRange(args, 1, args.length);
                if (Arrays.asList(rest).contains("--help"))
                {
                    out.println(command.usage());
                    return 0;
                }
                try
                {
                    return command.run(rest, out, err);
                }
                catch (final UsageException ex)
                {
                    err.println(command.name() + ": " + ex.getMessage());
                    err.println(command.usage());
                    return 2;
                }
                catch (final Exception ex)
                {
                    err.println(command.name() + ": failed: " + ex);
                    ex.printStackTrace(err);
                    return 1;
                }
            }
        }

        err.println("unknown command '" + args[0] + "'");
        printOverview(err);
        return 2;
    }

    private static void printOverview(final PrintStream stream)
    {
        stream.println("usage: java -jar ringwatch-perf.jar <command> [flags]   (<command> --help for its flags)");
        stream.println("commands:");
        for (final Command command : COMMANDS)
        {
            stream.printf("  %-12s %s%n", command.name(), command.summary());
        }
    }
}
