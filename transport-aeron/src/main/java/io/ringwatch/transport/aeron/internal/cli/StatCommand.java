package io.ringwatch.transport.aeron.internal.cli;

import io.aeron.CommonContext;
import io.ringwatch.core.protocol.NodeState;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.transport.aeron.NodeCounter;
import io.ringwatch.transport.aeron.cli.Args;
import io.ringwatch.transport.aeron.internal.CncCounters;
import io.ringwatch.transport.aeron.internal.slot.HeartbeatSlots;
import io.ringwatch.transport.aeron.view.ViewLayout;
import io.ringwatch.transport.aeron.view.ViewReader;
import io.ringwatch.transport.aeron.view.ViewSnapshot;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code stat}: what the nodes of this host are doing, from their view files and the media driver's CnC file. By
 * default one line per node (rank, pid and whether it is alive, state, incarnation, epoch, dead set, last change and
 * its age, the counters an operator looks at first); {@code --counters} for every counter (non-zero ones unless
 * {@code --all}), the driver's error log and the heartbeat slots; {@code --json} for a program; {@code --watch} to
 * print again every {@code --interval}. {@code --cluster-id} keeps one cluster's nodes and counters.
 */
final class StatCommand
{
    /** The counters the table shows, in its column order. */
    private static final NodeCounter[] TABLE_COUNTERS = {
        NodeCounter.SUSPICIONS, NodeCounter.FRAMES_REJECTED, NodeCounter.HEARTBEAT_DEADLINES_MISSED,
        NodeCounter.MAX_HEARTBEAT_GAP_NS};
    private static final String[] TABLE_COUNTER_HEADERS = {"SUSPECT", "REJECTED", "MISSED", "MAX-GAP"};
    private static final int DEAD_SET_SHOWN = 8;

    record Options(String dir, Integer clusterId, boolean counters, boolean all, boolean json, boolean watch,
        long intervalNs, long count)
    {
    }

    private StatCommand()
    {
    }

    static int run(final String[] argv) throws InterruptedException
    {
        final Args args = new Args(argv, 1, "--counters", "--all", "--json", "--watch", "--history");
        final Options options = new Options(
            args.string("--aeron-dir", CommonContext.getAeronDirectoryName()),
            args.isSet("--cluster-id") ? args.intValue("--cluster-id", 0, Integer.MIN_VALUE, Integer.MAX_VALUE) : null,
            args.switchOn("--counters"),
            args.switchOn("--all"),
            args.switchOn("--json"),
            args.switchOn("--watch"),
            args.durationNs("--interval", TimeUnit.SECONDS.toNanos(1)),
            args.longValue("--count", Long.MAX_VALUE, 1, Long.MAX_VALUE));
        final boolean history = args.switchOn("--history");
        args.finish();
        if (history)
        {
            return MembershipHistory.print(new File(options.dir()),
                options.clusterId() == null ? null : options.clusterId().toString(), System.out);
        }
        if (!new File(options.dir()).isDirectory())
        {
            throw new IllegalStateException("no Aeron directory at " + options.dir() + ": pass the nodes' --aeron-dir");
        }
        // a terminal gets a fresh screen per refresh; a pipe gets one block after the other
        final boolean clear = options.watch() && System.console() != null;
        for (long printed = 1; ; printed++)
        {
            final String text = render(options);
            System.out.print((clear ? "\033[H\033[2J" : "") + text);
            System.out.flush();
            if (!options.watch() || printed >= options.count())
            {
                return 0;
            }
            TimeUnit.NANOSECONDS.sleep(options.intervalNs());
        }
    }

    static String render(final Options options)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        final List<NodeRow> rows = readViews(options);
        try (CncCounters counters = CncCounters.open(options.dir()))
        {
            if (options.json())
            {
                printJson(out, options, rows, counters);
            }
            else if (options.counters())
            {
                printCounters(out, options, counters);
            }
            else
            {
                printTable(out, options, rows, counters);
            }
        }
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * A node's view file, read once, with the time the read was taken.
     */
    record NodeRow(ViewSnapshot view, boolean alive, long readNs, String error, String file)
    {
        int clusterId()
        {
            return view.clusterId();
        }

        int rank()
        {
            return view.rank();
        }

        /**
         * @return the monotonic time of the view's last membership change: the latest death or join it holds, its
         * own exclusion, or its start.
         */
        long lastChangeNs()
        {
            long latest = Math.max(view.startNs(), view.excludedAtNs());
            for (int r = 0; r < view.clusterSize(); r++)
            {
                if (view.cause(r) != ViewLayout.CAUSE_NONE)
                {
                    latest = Math.max(latest, view.detectedAtNs(r));
                }
            }
            return latest;
        }

        String lastChange()
        {
            final long at = lastChangeNs();
            if (view.excludedAtNs() != 0 && at == view.excludedAtNs())
            {
                return view.state() + " by " + view.excludedBy();
            }
            for (int r = 0; r < view.clusterSize(); r++)
            {
                if (view.cause(r) != ViewLayout.CAUSE_NONE && view.detectedAtNs(r) == at)
                {
                    return view.cause(r) == ViewLayout.CAUSE_JOINED ? r + " joined" :
                        r + " " + ViewLayout.causeName(view.cause(r)) + (view.cause(r) == ViewLayout.CAUSE_LEFT ?
                        "" : " by " + view.reporter(r));
                }
            }
            return "started";
        }

        long lastChangeAgeNs()
        {
            return readNs - lastChangeNs();
        }

        List<Integer> dead()
        {
            final List<Integer> dead = new ArrayList<>();
            for (int r = 0; r < view.clusterSize(); r++)
            {
                if (view.isDead(r))
                {
                    dead.add(r);
                }
            }
            return dead;
        }
    }

    private static List<NodeRow> readViews(final Options options)
    {
        final String prefix = options.clusterId() == null ? "ringwatch-" : "ringwatch-" + options.clusterId() + "-";
        final File[] files = new File(options.dir()).listFiles((d, name) -> name.startsWith(prefix) &&
            name.contains("-view-") && name.endsWith(".dat"));
        final List<NodeRow> rows = new ArrayList<>();
        if (files == null)
        {
            return rows;
        }
        for (final File f : files)
        {
            final ViewSnapshot snapshot = new ViewSnapshot();
            try (ViewReader reader = new ViewReader(f))
            {
                reader.read(snapshot);
                rows.add(new NodeRow(snapshot, snapshot.writerAlive(), System.nanoTime(), null, f.getName()));
            }
            catch (final IllegalStateException ex)
            {
                rows.add(new NodeRow(snapshot, false, System.nanoTime(), ex.getMessage(), f.getName()));
            }
        }
        rows.sort((a, b) -> a.error() != null || b.error() != null ? a.file().compareTo(b.file()) :
            a.clusterId() != b.clusterId() ? Integer.compare(a.clusterId(), b.clusterId()) :
            Integer.compare(a.rank(), b.rank()));
        return rows;
    }

    private static void printTable(
        final PrintStream out, final Options options, final List<NodeRow> rows, final CncCounters counters)
    {
        if (rows.isEmpty())
        {
            out.println("no ringwatch nodes in " + options.dir() + (options.clusterId() == null ? "" :
                " for cluster " + options.clusterId()) + " (a node writes its view file there once it starts)");
            return;
        }
        final List<String[]> lines = new ArrayList<>();
        final List<String> header = new ArrayList<>(List.of(
            "CLUSTER", "RANK", "PID", "ALIVE", "STATE", "INCARNATION", "EPOCH", "DEAD", "LAST CHANGE", "AGE"));
        header.addAll(Arrays.asList(TABLE_COUNTER_HEADERS));
        lines.add(header.toArray(new String[0]));
        for (final NodeRow row : rows)
        {
            if (row.error() != null)
            {
                lines.add(new String[]{row.file(), row.error()});
                continue;
            }
            final ViewSnapshot v = row.view();
            final List<String> line = new ArrayList<>(List.of(
                Integer.toString(v.clusterId()), Integer.toString(v.rank()), Long.toString(v.pid()),
                row.alive() ? "yes" : "no", stateText(v, row.alive()), Long.toString(v.incarnation(v.rank())),
                Long.toString(v.viewEpoch()), deadText(row.dead()), row.lastChange(), age(row.lastChangeAgeNs())));
            for (final NodeCounter c : TABLE_COUNTERS)
            {
                final long value = counters == null ? -1 : counters.value(v.clusterId(), v.rank(), c);
                line.add(value < 0 ? "-" : c == NodeCounter.MAX_HEARTBEAT_GAP_NS ? age(value) : Long.toString(value));
            }
            lines.add(line.toArray(new String[0]));
        }
        printAligned(out, lines);
        if (counters == null)
        {
            out.println("(no media driver CnC file in " + options.dir() + ": counters not shown)");
        }
    }

    /**
     * The state as the table shows it, in one word: why it stopped in brackets; a node whose process is gone without
     * stopping is DEAD whatever its file says (its view froze when it was killed).
     */
    static String stateText(final ViewSnapshot v, final boolean alive)
    {
        final NodeState state = v.state();
        if (state == null)
        {
            return "UNKNOWN";
        }
        final ExclusionCause cause = v.exclusionCause();
        final String name = cause == null || state == NodeState.LEFT ? state.name() : state.name() + "(" + cause + ")";
        if (state == NodeState.EXCLUDED || state == NodeState.LEFT)
        {
            return name;
        }
        if (v.stopCause() != ViewLayout.STOP_NONE)
        {
            return "STOPPED(" + ViewLayout.stopCauseName(v.stopCause()) + ",was:" + name + ")";
        }
        return alive ? name : "DEAD(killed,was:" + name + ")";
    }

    private static String deadText(final List<Integer> dead)
    {
        if (dead.isEmpty())
        {
            return "{}";
        }
        final StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < dead.size() && i < DEAD_SET_SHOWN; i++)
        {
            sb.append(i == 0 ? "" : ",").append(dead.get(i));
        }
        if (dead.size() > DEAD_SET_SHOWN)
        {
            sb.append(",… +").append(dead.size() - DEAD_SET_SHOWN);
        }
        return sb.append('}').toString();
    }

    /**
     * @return a duration for a person: whole units, at most two of them.
     */
    static String age(final long ns)
    {
        if (ns < 0)
        {
            return "-";
        }
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        if (ms < 1)
        {
            return TimeUnit.NANOSECONDS.toMicros(ns) + "us";
        }
        if (ms < 10_000)
        {
            return ms + "ms";
        }
        final long s = ms / 1000;
        if (s < 3600)
        {
            return s < 60 ? s + "s" : s / 60 + "m" + s % 60 + "s";
        }
        return s / 3600 + "h" + s % 3600 / 60 + "m";
    }

    private static void printAligned(final PrintStream out, final List<String[]> lines)
    {
        final int columns = lines.get(0).length;
        final int[] widths = new int[columns];
        for (final String[] line : lines)
        {
            if (line.length == columns)
            {
                for (int i = 0; i < columns; i++)
                {
                    widths[i] = Math.max(widths[i], line[i].length());
                }
            }
        }
        for (final String[] line : lines)
        {
            final StringBuilder sb = new StringBuilder();
            for (int i = 0; i < line.length; i++)
            {
                sb.append(i == 0 ? "" : "  ").append(line.length == columns && i < line.length - 1 ?
                    String.format("%-" + widths[i] + "s", line[i]) : line[i]);
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    private static void printCounters(final PrintStream out, final Options options, final CncCounters counters)
    {
        if (counters == null)
        {
            throw new IllegalStateException("no media driver CnC file in " + options.dir() + ": pass the nodes' " +
                "--aeron-dir (a running driver: ringwatch.jar driver, or a node with --driver embedded)");
        }
        out.println("counters (" + counters.file() + (options.all() ? "" : "; zeros left out, --all shows them") +
            "):");
        final String[] node = {""};
        counters.forEach((c, cluster, rank, detail, value, label) ->
        {
            if ((options.clusterId() == null || options.clusterId() == cluster) && (value != 0 || options.all()))
            {
                final String who = "cluster " + cluster + " rank " + rank;
                if (!who.equals(node[0]))
                {
                    node[0] = who;
                    out.println("  " + who + ":");
                }
                out.printf("    %-40s %,20d%n", label.replaceFirst("^ringwatch ", "")
                    .replaceFirst(": cluster=\\S+ rank=\\d+.*$", ""), value);
            }
        });
        out.println("media driver errors:");
        counters.printErrorLog(out);
        printSlots(out, options);
    }

    private static void printSlots(final PrintStream out, final Options options)
    {
        final String prefix = options.clusterId() == null ? "ringwatch-" : "ringwatch-" + options.clusterId() + "-";
        final File[] slotFiles = new File(options.dir()).listFiles((d, name) -> name.startsWith(prefix) &&
            name.endsWith("-heartbeats.dat"));
        if (slotFiles == null)
        {
            return;
        }
        Arrays.sort(slotFiles);
        for (final File f : slotFiles)
        {
            out.println("heartbeat slots (" + f.getName() + "):");
            try (HeartbeatSlots slots = HeartbeatSlots.mapExisting(f))
            {
                for (int i = 0; i < slots.clusterSize(); i++)
                {
                    final int writer = slots.lastWriter(i);
                    out.println(writer < 0 ? "  slot " + i + ": empty" : "  slot " + i + ": writer " + writer +
                        " counter " + slots.lastCounter(i) + ", written " +
                        age(System.nanoTime() - slots.lastWriterTimestampNs(i)) + " ago");
                }
            }
            catch (final IllegalStateException ex)
            {
                out.println("  " + ex.getMessage());
            }
        }
    }

    private static void printJson(
        final PrintStream out, final Options options, final List<NodeRow> rows, final CncCounters counters)
    {
        final Json json = new Json();
        json.open('{').field("aeronDir").string(options.dir()).field("nodes").open('[');
        for (final NodeRow row : rows)
        {
            json.open('{');
            if (row.error() != null)
            {
                json.field("file").string(row.file()).field("error").string(row.error()).close('}');
                continue;
            }
            final ViewSnapshot v = row.view();
            json.field("clusterId").number(v.clusterId()).field("rank").number(v.rank())
                .field("pid").number(v.pid()).field("pidAlive").bool(row.alive())
                .field("state").string(String.valueOf(v.state())).field("stateDetail").string(stateText(v, row.alive()))
                .field("exclusionCause").string(v.exclusionCause() == null ? null : v.exclusionCause().name())
                .field("incarnation").number(v.incarnation(v.rank())).field("epoch").number(v.viewEpoch())
                .field("stoppedAtMs").number(v.stoppedAtMs())
                .field("lastChange").string(row.lastChange())
                .field("lastChangeAgeMs").number(TimeUnit.NANOSECONDS.toMillis(row.lastChangeAgeNs()))
                .field("dead").open('[');
            for (final int r : row.dead())
            {
                json.open('{').field("rank").number(r).field("cause").string(ViewLayout.causeName(v.cause(r)))
                    .field("reporter").number(v.reporter(r))
                    .field("ageMs").number(TimeUnit.NANOSECONDS.toMillis(row.readNs() - v.detectedAtNs(r)))
                    .close('}');
            }
            json.close(']').field("joined").open('[');
            for (int r = 0; r < v.clusterSize(); r++)
            {
                if (!v.isDead(r) && v.cause(r) == ViewLayout.CAUSE_JOINED)
                {
                    json.open('{').field("rank").number(r).field("incarnation").number(v.incarnation(r)).close('}');
                }
            }
            json.close(']').field("counters").open('{');
            if (counters != null)
            {
                counters.forEach((c, cluster, rank, detail, value, label) ->
                {
                    if (cluster == v.clusterId() && rank == v.rank() && (value != 0 || options.all()) &&
                        c != NodeCounter.FRAMES_REJECTED_BY_REASON)
                    {
                        json.field(c.name().toLowerCase()).number(value);
                    }
                });
            }
            json.close('}').close('}');
        }
        json.close(']').close('}');
        out.println(json);
    }

    /**
     * Just enough JSON writing for {@code stat --json}: objects, arrays, strings, numbers, booleans, in order.
     */
    static final class Json
    {
        private final StringBuilder sb = new StringBuilder();
        private boolean first = true;

        Json open(final char bracket)
        {
            separate();
            sb.append(bracket);
            first = true;
            return this;
        }

        Json close(final char bracket)
        {
            sb.append(bracket);
            first = false;
            return this;
        }

        Json field(final String name)
        {
            separate();
            quote(name);
            sb.append(':');
            first = true;
            return this;
        }

        Json string(final String value)
        {
            separate();
            if (value == null)
            {
                sb.append("null");
            }
            else
            {
                quote(value);
            }
            return this;
        }

        Json number(final long value)
        {
            separate();
            sb.append(value);
            return this;
        }

        Json bool(final boolean value)
        {
            separate();
            sb.append(value);
            return this;
        }

        private void separate()
        {
            if (!first)
            {
                sb.append(',');
            }
            first = false;
        }

        private void quote(final String value)
        {
            sb.append('"');
            for (int i = 0; i < value.length(); i++)
            {
                final char c = value.charAt(i);
                if (c == '"' || c == '\\')
                {
                    sb.append('\\').append(c);
                }
                else if (c < 0x20)
                {
                    sb.append(String.format("\\u%04x", (int)c));
                }
                else
                {
                    sb.append(c);
                }
            }
            sb.append('"');
        }

        public String toString()
        {
            return sb.toString();
        }
    }
}
