package io.ringwatch.core.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a job description: which application ranks each node rank hosts, so every daemon builds the same
 * {@link JobLayout} whatever the counts per node.
 * <pre>
 *   # comments and blank lines are ignored
 *   processes 10
 *   node 0 ranks 0-3
 *   node 1 ranks 4-5
 *   node 2 ranks 6-9
 *   node 3 ranks none
 * </pre>
 * {@code processes P} comes first; then one line per node rank of the cluster, every node rank exactly once. A range
 * {@code a-b} (or a single rank {@code a}) gives the node's application ranks in local index order: rank {@code a + i}
 * is the node's local process {@code i}. Ranks follow node order (node r's range starts where node r-1's ends), so a
 * node's death names its processes as one range on the wire and in the view.
 */
public final class JobFile
{
    private JobFile()
    {
    }

    /**
     * @param path  the job file.
     * @param nodes node ranks N of the cluster.
     * @return the layout it describes.
     * @throws IllegalArgumentException naming the file and line of the first mistake.
     */
    public static JobLayout load(final Path path, final int nodes)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read job file " + path + ": " + ex, ex);
        }
        return parse(path.toString(), lines, nodes);
    }

    /**
     * @param source name for messages.
     * @param lines  the text.
     * @param nodes  node ranks N of the cluster.
     * @return the layout it describes.
     * @throws IllegalArgumentException naming the source and line of the first mistake.
     */
    public static JobLayout parse(final String source, final List<String> lines, final int nodes)
    {
        int processes = -1;
        final int[] first = new int[nodes];
        final int[] count = new int[nodes];
        final int[] nodeLine = new int[nodes];
        int[] placedOnLine = null;
        int listed = 0;
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = stripComment(lines.get(i));
            if (line.isEmpty())
            {
                continue;
            }
            final int lineNo = i + 1;
            final String where = source + " line " + lineNo + ": ";
            final String[] f = line.split("\\s+");
            if (f.length == 2 && "processes".equals(f[0]))
            {
                if (processes >= 0)
                {
                    throw new IllegalArgumentException(where + "'processes' given a second time");
                }
                processes = number(where, "processes", f[1]);
                if (processes > JobLayout.MAX_PROCESSES)
                {
                    throw new IllegalArgumentException(where + "more than " + JobLayout.MAX_PROCESSES + " processes");
                }
                placedOnLine = new int[processes];
                continue;
            }
            if (f.length != 4 || !"node".equals(f[0]) || !"ranks".equals(f[2]))
            {
                throw new IllegalArgumentException(where + "expected 'processes P' or 'node R ranks A-B|A|none', " +
                    "got '" + line + "'");
            }
            if (placedOnLine == null)
            {
                throw new IllegalArgumentException(where + "'processes P' must come before the node lines");
            }
            final int node = number(where, "node rank", f[1]);
            if (node >= nodes)
            {
                throw new IllegalArgumentException(where + "unknown node rank " + node + ": the cluster has ranks 0.." +
                    (nodes - 1));
            }
            if (nodeLine[node] != 0)
            {
                throw new IllegalArgumentException(where + "node " + node + " listed a second time (first on line " +
                    nodeLine[node] + ")");
            }
            nodeLine[node] = lineNo;
            if ("none".equals(f[3]))
            {
                first[node] = -1;
                continue;
            }
            final int dash = f[3].indexOf('-');
            final int from = number(where, "application rank", dash < 0 ? f[3] : f[3].substring(0, dash));
            final int to = dash < 0 ? from : number(where, "application rank", f[3].substring(dash + 1));
            if (to < from)
            {
                throw new IllegalArgumentException(where + "empty range " + f[3] + " (write 'none' for no process)");
            }
            for (int rank = from; rank <= to; rank++)
            {
                if (rank >= processes)
                {
                    throw new IllegalArgumentException(where + "count mismatch: application rank " + rank +
                        " is not below 'processes " + processes + "'");
                }
                if (placedOnLine[rank] != 0)
                {
                    throw new IllegalArgumentException(where + "duplicate application rank " + rank +
                        " (already placed on line " + placedOnLine[rank] + ")");
                }
                placedOnLine[rank] = lineNo;
            }
            first[node] = from;
            count[node] = to - from + 1;
            listed += count[node];
        }
        if (processes < 0)
        {
            throw new IllegalArgumentException(source + ": missing 'processes P' line");
        }
        for (int node = 0; node < nodes; node++)
        {
            if (nodeLine[node] == 0)
            {
                throw new IllegalArgumentException(source + ": node rank " + node + " has no line (write 'node " +
                    node + " ranks none' for a node hosting no process)");
            }
        }
        if (listed != processes)
        {
            throw new IllegalArgumentException(source + ": count mismatch: the node lines place " + listed +
                " application ranks, 'processes' says " + processes);
        }
        int expected = 0;
        for (int node = 0; node < nodes; node++)
        {
            if (count[node] > 0 && first[node] != expected)
            {
                throw new IllegalArgumentException(source + " line " + nodeLine[node] + ": node " + node +
                    "'s ranks start at " + first[node] + ", expected " + expected + ": application ranks follow " +
                    "node order, so that a node's death names its processes as one range");
            }
            expected += count[node];
        }
        return JobLayout.of(count);
    }

    /**
     * @param layout a layout.
     * @return its job file text, which {@link #parse} reads back to an equal layout.
     */
    public static String format(final JobLayout layout)
    {
        final StringBuilder sb = new StringBuilder("processes ").append(layout.processCount()).append('\n');
        for (int node = 0; node < layout.nodeCount(); node++)
        {
            final int k = layout.processesOn(node);
            sb.append("node ").append(node).append(" ranks ");
            if (k == 0)
            {
                sb.append("none");
            }
            else
            {
                sb.append(layout.firstProcess(node)).append('-').append(layout.firstProcess(node) + k - 1);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String stripComment(final String line)
    {
        final int hash = line.indexOf('#');
        return (hash < 0 ? line : line.substring(0, hash)).trim();
    }

    private static int number(final String where, final String what, final String text)
    {
        try
        {
            final int value = Integer.parseInt(text);
            if (value < 0)
            {
                throw new IllegalArgumentException(where + what + " must be at least 0: " + text);
            }
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + what + " is not a number: '" + text + "'", ex);
        }
    }
}
