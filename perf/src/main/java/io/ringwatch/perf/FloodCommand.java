package io.ringwatch.perf;

import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.launch.HostileTraffic;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code flood}: the largest heartbeat gap of a node whose ports take a flood of foreign datagrams, of each kind in
 * turn, and whether anyone was falsely excluded.
 */
final class FloodCommand implements Command
{
    /** A cluster large enough that notices of the longest length are legitimate. */
    private static final int SWEEP_LARGE_CLUSTER = 2048;

    public String name()
    {
        return "flood";
    }

    public String summary()
    {
        return "decode cost of junk frames by size; largest heartbeat gap of a UDP node flooded with junk datagrams";
    }

    public String usage()
    {
        return String.join(System.lineSeparator(),
            "usage: java -jar ringwatch-perf.jar flood [--rate R] [--seconds S] [--nodes N] [--suspicion-timeout D]",
            "                                          [--heartbeat-period D] [--driver-nice K] [--ports P] [--seed X]",
            "  --rate R               datagrams per second, all of the node's ports together (default 60000)",
            "  --seconds S            length of each flood (default 3)",
            "  --nodes N              local UDP cluster size (default 4); rank 1 is flooded",
            "  --suspicion-timeout D  δ (default 250ms); --heartbeat-period D: η (default δ/10)",
            "  --driver-nice K        niceness of the shared media driver (default 10; 0 to leave it)",
            "  --ports P              all (default: control and heartbeat alternately), control or heartbeat",
            "  --seed X               random bytes and ids (default: time)",
            "  --informed             Aeron frames carry the control stream id the nodes use (derived from the",
            "                         cluster key), as from an attacker who sniffed it; default: the configured id",
            "  --sweep-only           print the junk-size sweep and stop, without starting a cluster",
            "  --kinds K,K            floods to run (default all): random, aeron_data, aeron_setup, spoofed_emitter",
            "                         (12,360-byte heartbeat-shaped junk from the emitter's own heartbeat address)",
            "First, a junk-size sweep (in this process, no cluster): what the decoder spends on one frame with a",
            "wrong MAC, 72 B to 12,360 B, random or with a plausible header, for N nodes and for N = 2048, one key",
            "and three.",
            "Loopback only. Prints, per kind, the datagrams sent and the rate reached, the largest gap between two",
            "heartbeats the node saw from its emitter and its observer saw from it (upper bounds: sampled every",
            "200 µs from this process), the publication images the shared media driver created (each a log buffer",
            "in /dev/shm), the CPU time it and the flooded node used, and the ranks any node holds dead afterwards",
            "(a false positive).");
    }

    public int run(final String[] args, final PrintStream out, final PrintStream err) throws Exception
    {
        final Args flags = new Args(args, 0, "--informed", "--sweep-only");
        final int rate = (int)flags.longValue("--rate", 60_000, 1, 1_000_000);
        final int seconds = (int)flags.longValue("--seconds", 3, 1, 60);
        final int nodes = (int)flags.longValue("--nodes", 4, 2, 16);
        final long timeoutNs = flags.durationNs(Args.SUSPICION_TIMEOUT, TimeUnit.MILLISECONDS.toNanos(250));
        final long periodNs = flags.durationNs(Args.HEARTBEAT_PERIOD, timeoutNs / 10);
        final int nice = (int)flags.longValue("--driver-nice", 10, 0, 19);
        final HostileTraffic.Ports ports;
        try
        {
            ports = HostileTraffic.Ports.valueOf(flags.string("--ports", "all").toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--ports must be all, control or heartbeat");
        }
        final long seed = flags.longValue("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
        final boolean informed = flags.switchOn("--informed");
        final boolean sweepOnly = flags.switchOn("--sweep-only");
        final List<HostileTraffic.Kind> kinds = new ArrayList<>();
        for (final String kind : flags.list("--kinds", "random,aeron_data,aeron_setup,spoofed_emitter"))
        {
            try
            {
                kinds.add(HostileTraffic.Kind.valueOf(kind.strip().toUpperCase(Locale.ROOT)));
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("--kinds: unknown kind " + kind);
            }
        }
        flags.finish();

        JunkSweep.run(out, new int[]{nodes, SWEEP_LARGE_CLUSTER}, seed);
        if (sweepOnly)
        {
            return 0;
        }

        final int target = 1;
        err.printf(Locale.ROOT, "flood: %d UDP nodes, eta %.0f ms, delta %.0f ms, driver nice %d; rank %d takes %,d " +
            "datagrams/s for %d s of each kind on %s ports, seed %d, %s%n", nodes, periodNs / 1e6, timeoutNs / 1e6,
            nice, target, rate, seconds, ports.name().toLowerCase(Locale.ROOT), seed,
            informed ? "Aeron frames under the nodes' control stream id" : "Aeron frames under the configured id");
        try (LocalCluster cluster = new LocalCluster(new LocalCluster.Options().nodes(nodes)
            .transport(TransportMode.UDP).heartbeatPeriodNs(periodNs).suspicionTimeoutNs(timeoutNs)
            .graceNs(TimeUnit.SECONDS.toNanos(30)).driverNice(nice)))
        {
            cluster.start();
            if (!cluster.awaitAllUp(120_000))
            {
                err.println("flood: the cluster did not come up");
                return 1;
            }
            final HostileTraffic traffic = new HostileTraffic(cluster, target, seed, ports);
            if (informed)
            {
                traffic.informed();
            }
            out.println("| kind | sent | rate (/s) | largest gap into the node (ms) | largest gap out of it (ms) | " +
                "driver images created | image log buffers (MiB) | /dev/shm growth (MiB) | driver CPU (ms) | " +
                "flooded node CPU (ms) | held dead afterwards |");
            out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
            boolean falsePositive = false;
            for (final HostileTraffic.Kind kind : kinds)
            {
                final HostileTraffic.Result r = traffic.flood(kind, (long)rate * seconds, rate);
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * timeoutNs));
                final String dead = deadRanks(cluster, nodes);
                falsePositive |= !dead.isEmpty();
                out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %.1f | %.1f | %d | %.1f | %.1f | %.0f | %.0f | %s |%n",
                    kind, r.sent(), r.rate(), r.maxGapInNs() / 1e6, r.maxGapOutNs() / 1e6, r.imagesCreated(),
                    r.maxImageBytes() / (1024.0 * 1024.0), r.maxShmGrowthBytes() / (1024.0 * 1024.0),
                    r.driverCpuNs() / 1e6, r.targetCpuNs() / 1e6, dead.isEmpty() ? "nobody" : dead);
            }
            return falsePositive || !cluster.awaitViews(Set.of(), 1) ? 1 : 0;
        }
    }

    private static String deadRanks(final LocalCluster cluster, final int nodes)
    {
        final StringBuilder dead = new StringBuilder();
        final ViewSnapshot snapshot = new ViewSnapshot();
        for (int r = 0; r < nodes; r++)
        {
            if (cluster.tryView(r, snapshot) == null)
            {
                continue;
            }
            for (int d = 0; d < nodes; d++)
            {
                if (snapshot.isDead(d))
                {
                    dead.append(r).append(" holds ").append(d).append(" dead; ");
                }
            }
        }
        return dead.toString();
    }
}
