package io.ringwatch.perf;

import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;

/**
 * One sub-command of the perf CLI.
 */
interface Command
{
    /**
     * @return the word that selects it on the command line.
     */
    String name();

    /**
     * @return one line for the CLI's overview.
     */
    String summary();

    /**
     * @return the full usage text, flags included.
     */
    String usage();

    /**
     * @param args arguments after the command name.
     * @param out  results.
     * @param err  progress and diagnostics.
     * @return process exit code: 0 success, 1 a check failed, 2 bad usage.
     * @throws UsageException on a bad flag or value; the dispatcher prints it with the usage and exits 2.
     */
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
}
