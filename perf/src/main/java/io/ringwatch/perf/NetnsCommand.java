package io.ringwatch.perf;

import io.ringwatch.core.config.Durations;
import io.ringwatch.perf.netns.NetnsScenario;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.launch.NetnsCluster;
import io.ringwatch.transport.aeron.launch.NetnsHosts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code netns}: the network faults of issue 10 across test hosts built from network namespaces (needs root or
 * CAP_NET_ADMIN), each scenario repeated on fresh clusters, and an outcomes table: scenario, expected, observed,
 * time to fence, time to stabilize.
 */
final class NetnsCommand implements Command
{
    public String name()
    {
        return "netns";
    }

    public String summary()
    {
        return "network faults across namespace test hosts (kills, driver loss, cuts, partitions): outcomes table";
    }

    public String usage()
    {
        final List<String> names = new ArrayList<>();
        for (final NetnsScenario s : NetnsScenario.values())
        {
            names.add(s.cliName());
        }
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar netns [flags]   (as root or with CAP_NET_ADMIN)",
            "  --scenarios LIST          " + String.join(",", names) + " (default all)",
            "  --runs R                  repetitions of each, a fresh cluster each (default 3)",
            "  --suspicion-timeout D     δ (default 250ms)",
            "  --heartbeat-period D      η (default 25ms)",
            "  --startup-grace D         nodes' startup grace (default 10s)",
            "  --out DIR                 writes DIR/netns.md and DIR/netns.csv after every run (default results)",
            "Eight nodes on five hosts {2, 2, 1, 2, 1}, one media driver per host, UDP on a bridge. Exit code 1 if a",
            "run did not turn out as the contract of issue 10 expects (the partition scenarios need the partition",
            "rules in core).");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0);
        final List<NetnsScenario> scenarios = new ArrayList<>();
        for (final String s : flags.list("--scenarios", "all"))
        {
            if ("all".equals(s))
            {
                scenarios.addAll(List.of(NetnsScenario.values()));
                continue;
            }
            try
            {
                scenarios.add(NetnsScenario.fromName(s));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("bad value for --scenarios: " + ex.getMessage());
            }
        }
        final int runs = (int)flags.longValue("--runs", 3, 1, 1000);
        final long deltaNs = flags.durationNs(Args.SUSPICION_TIMEOUT, TimeUnit.MILLISECONDS.toNanos(250));
        final long etaNs = flags.durationNs(Args.HEARTBEAT_PERIOD, TimeUnit.MILLISECONDS.toNanos(25));
        final long graceNs = flags.durationNs(Args.STARTUP_GRACE, TimeUnit.SECONDS.toNanos(10));
        final Path outDir = Path.of(flags.string("--out", "results"));
        flags.finish();

        final String unavailable = NetnsHosts.unavailableReason();
        if (unavailable != null)
        {
            err.println("netns: " + unavailable);
            return 1;
        }
        final String header = String.format(Locale.ROOT,
            "`java -jar ringwatch-perf.jar netns %s`%n%nStarted %s; %d CPUs; 8 nodes on 5 hosts {2, 2, 1, 2, 1}, " +
            "UDP, η = %s, δ = %s, grace %s, driver per host. Times: from the fault to the last node stopping itself " +
            "(fence; exit 3 with its own cause, or 4 on driver loss) and to the last view change of a running node " +
            "(stabilize), from the nodes' own clocks in their view files.%n%n",
            String.join(" ", args), Instant.now(), Runtime.getRuntime().availableProcessors(),
            Durations.format(etaNs), Durations.format(deltaNs), Durations.format(graceNs));
        Files.createDirectories(outDir);
        final List<NetnsScenario.Outcome> outcomes = new ArrayList<>();
        final long deltaMs = TimeUnit.NANOSECONDS.toMillis(deltaNs);
        for (final NetnsScenario scenario : scenarios)
        {
            for (int run = 1; run <= runs; run++)
            {
                err.printf("netns: %s run %d/%d%n", scenario.cliName(), run, runs);
                NetnsScenario.Outcome outcome;
                try (NetnsCluster cluster = new NetnsCluster(NetnsScenario.LAYOUT, new LocalCluster.Options()
                    .heartbeatPeriodNs(etaNs).suspicionTimeoutNs(deltaNs).graceNs(graceNs)))
                {
                    cluster.start();
                    if (!cluster.awaitAllUp(120_000))
                    {
                        throw new IllegalStateException("cluster not up within 120 s:" + cluster.describeViews());
                    }
                    outcome = scenario.run(cluster, deltaMs);
                }
                catch (final IllegalStateException ex)
                {
                    outcome = new NetnsScenario.Outcome(scenario, false, "run failed: " +
                        ex.getMessage().replace('\n', ' '), -1, -1);
                }
                outcomes.add(outcome);
                out.println(row(outcome));
                out.flush();
                write(outDir, header, outcomes);
            }
        }
        out.println("written: " + outDir.resolve("netns.md") + ", " + outDir.resolve("netns.csv"));
        return outcomes.stream().allMatch(NetnsScenario.Outcome::asExpected) ? 0 : 1;
    }

    static String row(final NetnsScenario.Outcome o)
    {
        return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |", o.scenario().cliName(),
            o.scenario().expected(), o.asExpected() ? "yes" : "**no**", o.observed().replace("|", "/"),
            o.fenceMs() < 0 ? "-" : o.fenceMs() + " ms", o.stabilizeMs() < 0 ? "-" : o.stabilizeMs() + " ms");
    }

    static void write(final Path outDir, final String header, final List<NetnsScenario.Outcome> outcomes)
        throws IOException
    {
        final StringBuilder md = new StringBuilder("# Network faults across namespace test hosts\n\n").append(header)
            .append("| scenario | expected | as expected | observed | fence | stabilize |\n")
            .append("| --- | --- | --- | --- | --- | --- |\n");
        final StringBuilder csv = new StringBuilder("scenario,as_expected,fence_ms,stabilize_ms,observed\n");
        for (final NetnsScenario.Outcome o : outcomes)
        {
            md.append(row(o)).append('\n');
            csv.append(o.scenario().cliName()).append(',').append(o.asExpected()).append(',').append(o.fenceMs())
                .append(',').append(o.stabilizeMs()).append(",\"").append(o.observed().replace("\"", "'"))
                .append("\"\n");
        }
        Files.writeString(outDir.resolve("netns.md"), md, StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve("netns.csv"), csv, StandardCharsets.UTF_8);
    }
}
