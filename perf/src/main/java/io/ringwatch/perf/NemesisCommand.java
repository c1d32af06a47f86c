package io.ringwatch.perf;

import io.ringwatch.core.config.Durations;
import io.ringwatch.perf.nemesis.FaultKind;
import io.ringwatch.perf.nemesis.Nemesis;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code nemesis}: a seeded, Jepsen-style live test. Node processes on namespace hosts (one driver per host, UDP,
 * authenticated), each under a supervisor loop that restarts it as its unit file would, while a nemesis injects faults
 * drawn from a menu; then a checker judges the nodes' membership journals against what the nemesis did. With
 * {@code --faults none} it is the soak: no fault, resources sampled every minute.
 */
final class NemesisCommand implements Command
{
    public String name()
    {
        return "nemesis";
    }

    public String summary()
    {
        return "seeded faults against supervised node processes on namespace hosts, judged by a history checker; " +
            "--faults none is the soak";
    }

    public String usage()
    {
        final List<String> kinds = new ArrayList<>();
        for (final FaultKind k : FaultKind.values())
        {
            kinds.add(k.cliName());
        }
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar nemesis [flags]   (as root or with CAP_NET_ADMIN for namespace hosts)",
            "  --duration D              how long faults are injected (default 120s); re-admission is awaited after",
            "  --seed S                  the nemesis's seed (default: drawn and printed)",
            "  --faults LIST             " + String.join(",", kinds) + ",overlap; all (default) or none",
            "  --out DIR                 faults.log, history.txt, nemesis.md, resources.csv, logs/ (default " +
                "results/nemesis)",
            "  --hosts H                 namespace hosts (default 4); 0 runs every node on this host sharing one " +
                "driver",
            "  --nodes-per-host K        (default 2); with --hosts 0 the node count",
            "  --transport udp|ipc       ipc (shared memory) needs --hosts 0 (default udp)",
            "  --suspicion-timeout D     δ (default 250ms)",
            "  --heartbeat-period D      η (default 25ms)",
            "  --grace D                 the nodes' startup grace (default 10s)",
            "  --slack D                 added to Theorem 1's T(f) for the detection bound (default δ)",
            "  --readmit-bound D         from the last heal to the whole cluster admitted everywhere (default 60s)",
            "  --sample-period D         resources (RSS, heap after GC, direct memory, fds, threads, /dev/shm, driver",
            "                            counters) every D, 0s for none (default 60s)",
            "Ends with one JSON line; exit 0 only when the checker passed, 1 when it did not.");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0);
        final Nemesis.Settings s = new Nemesis.Settings();
        s.durationNs = flags.durationNs("--duration", TimeUnit.MINUTES.toNanos(2));
        s.seed = flags.isSet("--seed") ? flags.longValue("--seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) :
            System.nanoTime() ^ System.currentTimeMillis();
        final List<String> faults = flags.list("--faults", "all");
        s.outDir = Path.of(flags.string("--out", "results/nemesis"));
        s.hosts = (int)flags.longValue("--hosts", 4, 0, 32);
        s.nodesPerHost = (int)flags.longValue("--nodes-per-host", 2, 1, 64);
        final String transport = flags.string("--transport", "udp").toLowerCase(Locale.ROOT);
        s.deltaNs = flags.durationNs(Args.SUSPICION_TIMEOUT, TimeUnit.MILLISECONDS.toNanos(250));
        s.etaNs = flags.durationNs(Args.HEARTBEAT_PERIOD, TimeUnit.MILLISECONDS.toNanos(25));
        s.graceNs = flags.durationNs("--grace", TimeUnit.SECONDS.toNanos(10));
        s.slackNs = flags.durationNs("--slack", s.deltaNs);
        s.readmitBoundNs = flags.durationNs("--readmit-bound", TimeUnit.SECONDS.toNanos(60));
        s.samplePeriodNs = flags.durationNs("--sample-period", TimeUnit.MINUTES.toNanos(1));
        s.realtimePriority = (int)flags.longValue("--rt-priority", 0, 0, 99);
        s.backgroundLoad = (int)flags.longValue("--background-load", 0, 0, 64);
        flags.finish();
        switch (transport)
        {
            case "udp" -> s.transport = TransportMode.UDP;
            case "ipc" -> s.transport = TransportMode.IPC;
            default -> throw new UsageException("bad value for --transport: '" + transport + "' (udp or ipc)");
        }
        if (s.transport == TransportMode.IPC && s.hosts != 0)
        {
            throw new UsageException("--transport ipc runs on one host: add --hosts 0");
        }
        for (final String f : faults)
        {
            switch (f)
            {
                case "none" -> s.kinds.clear();
                case "all" ->
                {
                    s.kinds.addAll(List.of(FaultKind.values()));
                    s.overlaps = true;
                }
                case "overlap" -> s.overlaps = true;
                default ->
                {
                    try
                    {
                        s.kinds.add(FaultKind.fromCliName(f));
                    }
                    catch (final IllegalArgumentException ex)
                    {
                        throw new UsageException("bad value for --faults: " + ex.getMessage());
                    }
                }
            }
        }
        if (faults.contains("none") && faults.size() > 1)
        {
            throw new UsageException("--faults none takes no other kind");
        }
        if (s.hosts == 0 && s.kinds.stream().anyMatch(k -> k.scope() != FaultKind.Scope.NODE))
        {
            throw new UsageException("--hosts 0 (one host) takes node faults only: kill, pause-short, pause-long, " +
                "restart-storm");
        }
        err.printf("nemesis: seed %d, faults %s%s, δ %s, η %s, %s%n", s.seed, s.kinds.isEmpty() ? "none" : s.kinds,
            s.overlaps ? " with overlaps" : "", Durations.format(s.deltaNs), Durations.format(s.etaNs),
            s.hosts == 0 ? s.nodesPerHost + " nodes on this host, " + transport :
            s.hosts + " hosts x " + s.nodesPerHost + " nodes, udp");
        final Nemesis.Outcome outcome = new Nemesis(s, err).run();
        out.println(outcome.table());
        out.println(outcome.json());
        return outcome.result().passed() ? 0 : 1;
    }
}
