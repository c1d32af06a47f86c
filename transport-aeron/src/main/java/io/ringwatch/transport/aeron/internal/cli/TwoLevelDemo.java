package io.ringwatch.transport.aeron.internal.cli;

import io.ringwatch.core.process.JobFile;
import io.ringwatch.core.process.JobLayout;
import io.ringwatch.core.protocol.ProtocolSettings;
import io.ringwatch.nativeconfig.TuningProfile;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.cli.UsageException;
import io.ringwatch.transport.aeron.client.ProcessViewLayout;
import io.ringwatch.transport.aeron.launch.LocalCluster;
import org.HdrHistogram.Histogram;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * {@code demo --procs-per-node K|K0,K1,..}: two levels. N daemons, each launching its application processes
 * ({@code app}; K on every node, or one count per node passed to the daemons as a job file); the
 * demo SIGKILLs one application process, then a whole node (its daemon and its processes), and checks that every
 * surviving application process learned exactly the dead processes, printing how long each took to know.
 */
final class TwoLevelDemo
{
    private TwoLevelDemo()
    {
    }

    static int run(final String[] argv) throws Exception
    {
        final Args args = new Args(argv, 1, "--spin", "--verbose");
        final String perNodeArg = args.string(Args.PROCS_PER_NODE, "4");
        final int nodes = args.intValue("--nodes", 4, 3, ProtocolSettings.MAX_CLUSTER_SIZE);
        final long seed = args.longValue("--seed", System.nanoTime(), Long.MIN_VALUE, Long.MAX_VALUE);
        final long heartbeatPeriodArgNs = args.durationNs(Args.HEARTBEAT_PERIOD, -1);
        final long suspicionTimeoutArgNs = args.durationNs(Args.SUSPICION_TIMEOUT, -1);
        final boolean spin = args.switchOn("--spin");
        final boolean verbose = args.switchOn("--verbose");
        args.finish();
        // the same choice as the one-level demo: SCHED_FIFO agents where permitted, with its tighter defaults
        final int realtimePriority = DemoCommand.realtimePriority(null);
        final long heartbeatPeriodNs = heartbeatPeriodArgNs >= 0 ? heartbeatPeriodArgNs : realtimePriority > 0 ?
            DemoCommand.HEARTBEAT_PERIOD_DEFAULT_NS : DemoCommand.HEARTBEAT_PERIOD_FAIR_DEFAULT_NS;
        final long suspicionTimeoutNs = suspicionTimeoutArgNs >= 0 ? suspicionTimeoutArgNs : realtimePriority > 0 ?
            DemoCommand.SUSPICION_TIMEOUT_DEFAULT_NS : DemoCommand.SUSPICION_TIMEOUT_FAIR_DEFAULT_NS;
        ProtocolSettings.of(nodes, heartbeatPeriodNs, suspicionTimeoutNs);

        final JobLayout layout = layout(perNodeArg, nodes);
        final boolean uniform = !perNodeArg.contains(",");
        final Path appDir = Files.createTempDirectory("ringwatch-apps");
        // uneven counts travel as a job file, as an operator would write one; the same file for every daemon
        final Path jobFile = appDir.resolve("job.txt");
        Files.writeString(jobFile, JobFile.format(layout));
        final String java = ProcessHandle.current().info().command().orElse("java");
        final String classpath = absoluteClasspath();
        final String exec = "'" + java + "' -XX:+UseSerialGC -Xmx32m -XX:TieredStopAtLevel=1 -Xshare:auto " +
            "--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED " +
            "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp '" +
            classpath + "' " + Main.class.getName() + " app --dir '" + appDir + "'" + (spin ? " --spin" : "");
        final TuningProfile.Recommendation rec =
            TuningProfile.recommend(nodes, Math.max(0, Runtime.getRuntime().availableProcessors() - 1));
        System.out.println("demo (two levels): nodes=" + nodes + " processes per node=" + perNodeArg + " (ranks 0.." +
            (layout.processCount() - 1) + ") clients " + (spin ? "busy-spin" : "sleep 100us") + " profile=" +
            rec.profile().cliName() + " seed=" + seed);

        final LocalCluster.Options options = new LocalCluster.Options()
            .nodes(nodes).heartbeatPeriodNs(heartbeatPeriodNs).suspicionTimeoutNs(suspicionTimeoutNs)
            .profile(rec.profile().cliName())
            .nodeArgs(uniform ? List.of(Args.PROCS_PER_NODE, perNodeArg, "--exec", exec) :
                List.of("--job", jobFile.toString(), "--exec", exec))
            .inheritOutput(verbose);
        if (rec.profile() == TuningProfile.LOW_NOISE)
        {
            options.realtimePriority(realtimePriority);
        }
        try (LocalCluster cluster = new LocalCluster(options))
        {
            try
            {
                cluster.start();
                if (!cluster.awaitAllUp(60_000))
                {
                    System.out.println("FAILED: nodes did not come up within 60s; node 0 log:\n" + cluster.log(0));
                    return 1;
                }
            }
            catch (final IllegalStateException ex)
            {
                // a daemon fenced or crashed while starting: the check failed, the configuration was fine
                System.out.println("FAILED during start: " + ex.getMessage());
                return 1;
            }
            final Map<Integer, Long> pids = awaitReady(appDir, layout.processCount(), 120_000);
            if (pids == null)
            {
                System.out.println("FAILED: not every application process attached within 120s; node 0 log:\n" +
                    cluster.log(0));
                return 1;
            }
            System.out.println("all " + nodes + " daemons up and all " + layout.processCount() +
                " application processes attached");

            // SplittableRandom mixes its seed: java.util.Random gives nearly the same first draws for neighbouring seeds
            final SplittableRandom random = new SplittableRandom(seed);
            final int[] hosting = hostingNodes(layout);
            final int victimIndex = random.nextInt(hosting.length);
            final int victimNode = hosting[victimIndex];
            final int otherNode = hosting[(victimIndex + 1 + random.nextInt(hosting.length - 1)) % hosting.length];
            final int victimProcess = layout.process(otherNode, random.nextInt(layout.processesOn(otherNode)));

            final long processKilledNs = System.nanoTime();
            if (verbose)
            {
                System.out.println("killing at " + processKilledNs + "ns");
            }
            ProcessHandle.of(pids.get(victimProcess)).ifPresent(ProcessHandle::destroyForcibly);
            System.out.println("SIGKILL application process " + victimProcess + " on node " + otherNode + " (pid " +
                pids.get(victimProcess) + ")");
            Thread.sleep(Math.max(100, TimeUnit.NANOSECONDS.toMillis(suspicionTimeoutNs) / 2));

            final long nodeKilledNs = System.nanoTime();
            cluster.kill(victimNode);
            final Set<Integer> expected = new TreeSet<>();
            expected.add(victimProcess);
            for (int i = 0; i < layout.processesOn(victimNode); i++)
            {
                final int p = layout.process(victimNode, i);
                expected.add(p);
                ProcessHandle.of(pids.get(p)).ifPresent(ProcessHandle::destroyForcibly);
            }
            System.out.println("SIGKILL node " + victimNode + " (daemon and its processes " +
                layout.firstProcess(victimNode) + ".." +
                (layout.firstProcess(victimNode) + layout.processesOn(victimNode) - 1) + ")");

            try
            {
                cluster.awaitViews(Set.of(victimNode), 10_000 + TimeUnit.NANOSECONDS.toMillis(8 * suspicionTimeoutNs));
            }
            catch (final IllegalStateException ex)
            {
                // a surviving daemon stopped (fenced, or fenced itself): the check failed, the set-up was fine
                System.out.println("FAILED: " + ex.getMessage());
                return 1;
            }
            Thread.sleep(Math.max(200, TimeUnit.NANOSECONDS.toMillis(2 * suspicionTimeoutNs)));
            Files.writeString(appDir.resolve("finish"), "go");

            final List<Integer> survivors = new ArrayList<>();
            for (int p = 0; p < layout.processCount(); p++)
            {
                if (!expected.contains(p))
                {
                    survivors.add(p);
                }
            }
            final long exitSeenNs = exitSeenByDaemon(cluster.aeronDir(), options.clusterId(), otherNode,
                layout.localIndexOf(victimProcess));
            return report(appDir, survivors, expected, victimProcess, victimNode, layout, processKilledNs,
                exitSeenNs, nodeKilledNs);
        }
        finally
        {
            deleteQuietly(appDir.toFile());
        }
    }

    /**
     * {@code --procs-per-node K} (K on every node) or {@code K0,K1,...} (one count per node, 0 allowed).
     */
    static JobLayout layout(final String perNode, final int nodes)
    {
        final String[] parts = perNode.split(",");
        if (parts.length != 1 && parts.length != nodes)
        {
            throw new UsageException("--procs-per-node: count mismatch: " + parts.length + " counts for " + nodes +
                " nodes (give one K for all, or one per node)");
        }
        final int[] counts = new int[nodes];
        for (int node = 0; node < nodes; node++)
        {
            final String part = parts[parts.length == 1 ? 0 : node].trim();
            try
            {
                counts[node] = Integer.parseInt(part);
            }
            catch (final NumberFormatException ex)
            {
                throw new UsageException("--procs-per-node: not a number: '" + part + "'");
            }
            if (counts[node] < (parts.length == 1 ? 1 : 0) || counts[node] > 64)
            {
                throw new UsageException("--procs-per-node: " + counts[node] + " out of range (1..64 for all, " +
                    "0..64 per node)");
            }
        }
        final JobLayout layout = JobLayout.of(counts);
        if (hostingNodes(layout).length < 2)
        {
            throw new UsageException("--procs-per-node: at least two nodes must host processes (one loses a " +
                "process, another dies whole)");
        }
        return layout;
    }

    private static int[] hostingNodes(final JobLayout layout)
    {
        final int[] hosting = new int[layout.nodeCount()];
        int count = 0;
        for (int node = 0; node < layout.nodeCount(); node++)
        {
            if (layout.processesOn(node) > 0)
            {
                hosting[count++] = node;
            }
        }
        return Arrays.copyOf(hosting, count);
    }

    private static int report(
        final Path appDir,
        final List<Integer> survivors,
        final Set<Integer> expected,
        final int victimProcess,
        final int victimNode,
        final JobLayout layout,
        final long processKilledNs,
        final long exitSeenNs,
        final long nodeKilledNs) throws IOException, InterruptedException
    {
        final Histogram processLatency = new Histogram(3);
        final Histogram afterExitLatency = new Histogram(3);
        final Histogram nodeLatency = new Histogram(3);
        int wrong = 0;
        final long deadlineMs = System.currentTimeMillis() + 30_000;
        for (final int p : survivors)
        {
            final Path result = appDir.resolve("result-" + p);
            while (!Files.exists(result) && System.currentTimeMillis() < deadlineMs)
            {
                Thread.sleep(20);
            }
            if (!Files.exists(result))
            {
                System.out.println("process " + p + ": no result (did it exit?)");
                wrong++;
                continue;
            }
            final Map<Integer, Long> learned = new HashMap<>();
            for (final String line : Files.readAllLines(result))
            {
                final String[] parts = line.trim().split(" ");
                learned.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
            }
            if (!learned.keySet().equals(expected))
            {
                System.out.println("process " + p + " (node " + layout.nodeOf(p) + ") learned " +
                    new TreeSet<>(learned.keySet()) + ", expected " + expected);
                wrong++;
                continue;
            }
            // the right set, learned too early, is a false detection that the kill happened to make true
            final long nodeLearnedNs = learned.get(layout.firstProcess(victimNode));
            if (learned.get(victimProcess) - processKilledNs < 0 || nodeLearnedNs - nodeKilledNs < 0)
            {
                System.out.println("process " + p + " (node " + layout.nodeOf(p) + ") learned a death before the " +
                    "kill: a false detection (an overloaded host starves the daemons; --spin needs a core per process)");
                wrong++;
                continue;
            }
            processLatency.recordValue(Math.max(0, learned.get(victimProcess) - processKilledNs));
            if (exitSeenNs != 0)
            {
                afterExitLatency.recordValue(Math.max(0, learned.get(victimProcess) - exitSeenNs));
            }
            nodeLatency.recordValue(Math.max(0, learned.get(layout.firstProcess(victimNode)) - nodeKilledNs));
        }

        System.out.println(String.format(Locale.ROOT,
            "application process %d killed -> every surviving process knew: p50 %.3f ms, p99 %.3f ms, max %.3f ms " +
            "(local exit seen by its daemon, broadcast to the daemons, pushed to %d processes)",
            victimProcess, ms(processLatency.getValueAtPercentile(50)), ms(processLatency.getValueAtPercentile(99)),
            ms(processLatency.getMaxValue()), processLatency.getTotalCount()));
        System.out.println(String.format(Locale.ROOT,
            "  of which SIGKILL -> exit seen by its daemon (the killed JVM's teardown, then the exit watcher): " +
            "%.3f ms; " +
            "exit seen -> every surviving process knew: p50 %.3f ms, p99 %.3f ms, max %.3f ms",
            exitSeenNs == 0 ? Double.NaN : ms(exitSeenNs - processKilledNs),
            ms(afterExitLatency.getValueAtPercentile(50)), ms(afterExitLatency.getValueAtPercentile(99)),
            ms(afterExitLatency.getMaxValue())));
        System.out.println(String.format(Locale.ROOT,
            "node %d killed -> every surviving process knew its processes dead: p50 %.3f ms, p99 %.3f ms, max %.3f ms " +
            "(includes the suspicion timeout)", victimNode, ms(nodeLatency.getValueAtPercentile(50)),
            ms(nodeLatency.getValueAtPercentile(99)), ms(nodeLatency.getMaxValue())));
        System.out.println(String.format(Locale.ROOT, "{\"survivors\":%d,\"wrong\":%d,\"processNotifyMs\":{\"p50\":" +
            "%.3f,\"p99\":%.3f,\"max\":%.3f},\"killToExitSeenMs\":%.3f,\"exitSeenToNotifyMs\":{\"p50\":%.3f," +
            "\"p99\":%.3f,\"max\":%.3f},\"nodeNotifyMs\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f}}",
            survivors.size(), wrong, ms(processLatency.getValueAtPercentile(50)),
            ms(processLatency.getValueAtPercentile(99)), ms(processLatency.getMaxValue()),
            exitSeenNs == 0 ? -1.0 : ms(exitSeenNs - processKilledNs), ms(afterExitLatency.getValueAtPercentile(50)),
            ms(afterExitLatency.getValueAtPercentile(99)), ms(afterExitLatency.getMaxValue()),
            ms(nodeLatency.getValueAtPercentile(50)), ms(nodeLatency.getValueAtPercentile(99)),
            ms(nodeLatency.getMaxValue())));
        if (survivors.isEmpty())
        {
            System.out.println("FAILED: no surviving process to check (give more processes per node)");
            return 1;
        }
        if (wrong == 0)
        {
            System.out.println("PASSED: all " + survivors.size() + " surviving processes learned exactly " + expected);
            return 0;
        }
        System.out.println("FAILED: " + wrong + " of " + survivors.size() + " surviving processes did not learn " +
            "exactly " + expected);
        return 1;
    }

    /**
     * @return when the victim's daemon recorded its exit (its process view slot), on this host's clock; 0 if unknown.
     */
    private static long exitSeenByDaemon(final File aeronDir, final int clusterId, final int node, final int localIndex)
    {
        final File file = ProcessViewLayout.fileFor(aeronDir.getAbsolutePath(), clusterId, node);
        final MappedByteBuffer mapped = IoUtil.mapExistingFile(file, "process view");
        try
        {
            return new UnsafeBuffer(mapped).getLongVolatile(
                ProcessViewLayout.slotOffset(localIndex) + ProcessViewLayout.SLOT_EXITED_AT_NS_OFFSET);
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
    }

    private static double ms(final long ns)
    {
        return ns / 1e6;
    }

    private static Map<Integer, Long> awaitReady(final Path dir, final int count, final long timeoutMs)
        throws IOException, InterruptedException
    {
        final long deadlineMs = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadlineMs)
        {
            final Map<Integer, Long> pids = new HashMap<>();
            try (var files = Files.list(dir))
            {
                for (final Path file : (Iterable<Path>)files::iterator)
                {
                    final String name = file.getFileName().toString();
                    if (name.startsWith("ready-") && !name.endsWith(".tmp"))
                    {
                        pids.put(Integer.parseInt(name.substring(6)), Long.parseLong(Files.readString(file).trim()));
                    }
                }
            }
            if (pids.size() == count)
            {
                return pids;
            }
            Thread.sleep(50);
        }
        return null;
    }

    private static String absoluteClasspath()
    {
        final String[] parts = System.getProperty("java.class.path").split(File.pathSeparator);
        final StringBuilder out = new StringBuilder();
        for (final String part : parts)
        {
            out.append(out.length() == 0 ? "" : File.pathSeparator).append(new File(part).getAbsolutePath());
        }
        return out.toString();
    }

    private static void deleteQuietly(final File file)
    {
        final File[] children = file.listFiles();
        if (children != null)
        {
            for (final File child : children)
            {
                deleteQuietly(child);
            }
        }
        file.delete();
    }
}
