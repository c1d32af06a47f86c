package io.ringwatch.transport.aeron;

import io.ringwatch.core.config.Durations;
import io.ringwatch.transport.rdma.RdmaEndpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The cluster file: who the ranks are and where they listen. Plain text, one line per rank, ranks 0..N-1 each once:
 * <pre>
 *   # comments and blank lines are ignored
 *   cluster-id=42
 *   heartbeat-period=1ms     # optional, η; durations need their unit: ns, us, ms or s
 *   suspicion-timeout=10ms   # optional, δ
 *   0 10.0.0.1 20000 20001   # rank host controlPort heartbeatPort [rdma=host:port]
 *   1 10.0.0.2 20000 20001
 * </pre>
 * Ports matter for UDP and RDMA (control frames go on UDP in both); IPC ignores host and ports. A member line may end
 * with {@code rdma=host:port} ({@link RdmaEndpoint#parse}): where the node's RDMA connection manager listens for
 * emitters, an address of its IPoIB or RoCE interface (not the Ethernet control address unless that is RoCE).
 * Transport {@code rdma} needs it on every line, e.g. {@code 0 10.0.0.1 20000 20001 rdma=192.168.100.1:7471}.
 *
 * @param clusterId          cluster id carried in every frame.
 * @param heartbeatPeriodNs  η from the file, or -1 when absent.
 * @param suspicionTimeoutNs δ from the file, or -1 when absent.
 * @param members            members by rank.
 */
public record ClusterConfig(int clusterId, long heartbeatPeriodNs, long suspicionTimeoutNs, List<Member> members)
{
    /** Key of the cluster id line. */
    public static final String CLUSTER_ID = "cluster-id";

    /** Key of the optional η line. */
    public static final String HEARTBEAT_PERIOD = "heartbeat-period";

    /** Key of the optional δ line. */
    public static final String SUSPICION_TIMEOUT = "suspicion-timeout";

    private static final Pattern WHITESPACE = Pattern.compile("\\s");

    /** Syntax of a member line, for error messages. */
    public static final String MEMBER_SYNTAX = "rank host controlPort heartbeatPort [" + RdmaEndpoint.COLUMN +
        "=host:port]";

    /**
     * One rank's endpoints.
     *
     * @param rank          rank.
     * @param host          host name or address.
     * @param controlPort   UDP port of its control/notice subscription.
     * @param heartbeatPort UDP port of its heartbeat subscription.
     * @param rdma          where its RDMA connection manager listens, or null if the line has no {@code rdma=}.
     */
    public record Member(int rank, String host, int controlPort, int heartbeatPort, RdmaEndpoint rdma)
    {
        /**
         * A member without an RDMA endpoint.
         *
         * @param rank          rank.
         * @param host          host name or address.
         * @param controlPort   UDP port of its control/notice subscription.
         * @param heartbeatPort UDP port of its heartbeat subscription.
         */
        public Member(final int rank, final String host, final int controlPort, final int heartbeatPort)
        {
            this(rank, host, controlPort, heartbeatPort, null);
        }

        /**
         * @param rdma where its RDMA connection manager listens.
         * @return a copy with that RDMA endpoint.
         */
        public Member withRdma(final RdmaEndpoint rdma)
        {
            return new Member(rank, host, controlPort, heartbeatPort, rdma);
        }
    }

    /**
     * @return N.
     */
    public int size()
    {
        return members.size();
    }

    /**
     * @param rank rank.
     * @return its member entry.
     */
    public Member member(final int rank)
    {
        if (rank < 0 || rank >= members.size())
        {
            throw new IllegalArgumentException("rank " + rank + " out of range: cluster has ranks 0.." +
                (members.size() - 1));
        }
        return members.get(rank);
    }

    /**
     * @return the first rank whose host differs from rank 0's, or -1 if every member is on one host: what the default
     * transport follows (ipc on one host, udp across hosts).
     */
    public int firstRankOnAnotherHost()
    {
        final String host = members.get(0).host();
        for (int r = 1; r < members.size(); r++)
        {
            if (!members.get(r).host().equals(host))
            {
                return r;
            }
        }
        return -1;
    }

    /**
     * @return the first rank whose line has no {@code rdma=host:port}, or -1 if every member has one.
     */
    public int firstMemberWithoutRdma()
    {
        for (final Member m : members)
        {
            if (m.rdma() == null)
            {
                return m.rank();
            }
        }
        return -1;
    }

    /**
     * @return every member's RDMA endpoint, indexed by rank.
     * @throws IllegalStateException naming the first rank without one.
     */
    public RdmaEndpoint[] rdmaEndpoints()
    {
        final int missing = firstMemberWithoutRdma();
        if (missing >= 0)
        {
            throw new IllegalStateException("rank " + missing + " has no " + RdmaEndpoint.COLUMN + "=host:port");
        }
        final RdmaEndpoint[] endpoints = new RdmaEndpoint[members.size()];
        for (final Member m : members)
        {
            endpoints[m.rank()] = m.rdma();
        }
        return endpoints;
    }

    /**
     * Read and validate a cluster file.
     *
     * @param path the file.
     * @return the cluster.
     * @throws IllegalArgumentException naming the file, line and offending text on any error.
     */
    public static ClusterConfig load(final Path path)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read cluster file " + path + ": " + ex, ex);
        }
        return parse(path.toString(), lines);
    }

    /**
     * @param source name for error messages.
     * @param lines  file content.
     * @return the cluster.
     */
    public static ClusterConfig parse(final String source, final List<String> lines)
    {
        Integer clusterId = null;
        long heartbeatPeriodNs = -1;
        long suspicionTimeoutNs = -1;
        final List<Member> byLine = new ArrayList<>();
        int lineNo = 0;
        for (final String raw : lines)
        {
            lineNo++;
            final int hash = raw.indexOf('#');
            final String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty())
            {
                continue;
            }
            final String where = source + ":" + lineNo + ": ";
            final int eq = line.indexOf('=');
            // a setting's key is one word; a member line has fields before its optional rdma= column
            if (eq >= 0 && !WHITESPACE.matcher(line.substring(0, eq).trim()).find())
            {
                final String key = line.substring(0, eq).trim();
                final String value = line.substring(eq + 1).trim();
                switch (key)
                {
                    case CLUSTER_ID ->
                    {
                        if (clusterId != null)
                        {
                            throw new IllegalArgumentException(where + CLUSTER_ID + " given a second time");
                        }
                        clusterId = parseInt(where, key, value);
                    }
                    case HEARTBEAT_PERIOD -> heartbeatPeriodNs = parseDuration(where, key, value);
                    case SUSPICION_TIMEOUT -> suspicionTimeoutNs = parseDuration(where, key, value);
                    case "heartbeat", "timeout" -> throw new IllegalArgumentException(where + "'" + key +
                        "' was renamed '" + ("heartbeat".equals(key) ? HEARTBEAT_PERIOD : SUSPICION_TIMEOUT) + "'");
                    case RdmaEndpoint.COLUMN -> throw new IllegalArgumentException(where + "'" + key +
                        "=' goes at the end of a member line: '" + MEMBER_SYNTAX + "'");
                    default -> throw new IllegalArgumentException(where + "unknown setting '" + key + "' (expected " +
                        CLUSTER_ID + ", " + HEARTBEAT_PERIOD + " or " + SUSPICION_TIMEOUT + ")");
                }
                continue;
            }

            final String[] fields = line.split("\\s+");
            if (fields.length != 4 && fields.length != 5)
            {
                throw new IllegalArgumentException(where + "expected '" + MEMBER_SYNTAX + "', got '" + line + "'");
            }
            final int rank = parseInt(where, "rank", fields[0]);
            final int controlPort = parsePort(where, "controlPort", fields[2]);
            final int heartbeatPort = parsePort(where, "heartbeatPort", fields[3]);
            final RdmaEndpoint rdma = fields.length == 5 ? parseRdma(where, fields[4]) : null;
            byLine.add(new Member(rank, fields[1], controlPort, heartbeatPort, rdma));
        }

        if (clusterId == null)
        {
            throw new IllegalArgumentException(source + ": missing 'cluster-id=' line");
        }
        if (byLine.isEmpty())
        {
            throw new IllegalArgumentException(source + ": no members listed");
        }
        final Member[] ordered = new Member[byLine.size()];
        for (final Member m : byLine)
        {
            if (m.rank() < 0 || m.rank() >= ordered.length)
            {
                throw new IllegalArgumentException(source + ": rank " + m.rank() + " out of range: " +
                    ordered.length + " members means ranks 0.." + (ordered.length - 1));
            }
            if (ordered[m.rank()] != null)
            {
                throw new IllegalArgumentException(source + ": rank " + m.rank() + " listed twice");
            }
            ordered[m.rank()] = m;
        }
        final Map<String, Integer> endpoints = new HashMap<>();
        for (final Member m : ordered)
        {
            claimEndpoint(source, endpoints, m, m.controlPort(), "control");
            claimEndpoint(source, endpoints, m, m.heartbeatPort(), "heartbeat");
        }
        return new ClusterConfig(clusterId, heartbeatPeriodNs, suspicionTimeoutNs, List.of(ordered));
    }

    /**
     * Render a cluster file that {@link #parse} reads back.
     *
     * @return the file text.
     */
    public String render()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append(CLUSTER_ID).append('=').append(clusterId).append('\n');
        if (heartbeatPeriodNs > 0)
        {
            sb.append(HEARTBEAT_PERIOD).append('=').append(Durations.format(heartbeatPeriodNs)).append('\n');
        }
        if (suspicionTimeoutNs > 0)
        {
            sb.append(SUSPICION_TIMEOUT).append('=').append(Durations.format(suspicionTimeoutNs)).append('\n');
        }
        for (final Member m : members)
        {
            sb.append(m.rank()).append(' ').append(m.host()).append(' ').append(m.controlPort()).append(' ')
                .append(m.heartbeatPort());
            if (m.rdma() != null)
            {
                sb.append(' ').append(RdmaEndpoint.COLUMN).append('=').append(m.rdma());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * Two ranks (or one rank's two subscriptions) on one host:port would receive each other's frames.
     */
    private static void claimEndpoint(
        final String source, final Map<String, Integer> endpoints, final Member m, final int port, final String what)
    {
        final Integer owner = endpoints.putIfAbsent(m.host().toLowerCase(Locale.ROOT) + ":" + port, m.rank());
        if (owner != null)
        {
            throw new IllegalArgumentException(source + ": " + m.host() + ":" + port + ", the " + what +
                " port of rank " + m.rank() + ", is already " +
                (owner == m.rank() ? "its other port" : "a port of rank " + owner) +
                ": every rank needs two UDP ports of its own");
        }
    }

    private static RdmaEndpoint parseRdma(final String where, final String field)
    {
        final String prefix = RdmaEndpoint.COLUMN + "=";
        if (!field.startsWith(prefix))
        {
            throw new IllegalArgumentException(where + "fifth field must be " + prefix + "host:port, got '" + field +
                "'");
        }
        try
        {
            return RdmaEndpoint.parse(field.substring(prefix.length()));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + ex.getMessage(), ex);
        }
    }

    private static long parseDuration(final String where, final String key, final String text)
    {
        try
        {
            return Durations.parseNs(key, text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where + ex.getMessage(), ex);
        }
    }

    private static int parseInt(final String where, final String what, final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + what + " is not a number: '" + text + "'", ex);
        }
    }

    private static int parsePort(final String where, final String what, final String text)
    {
        final int port = parseInt(where, what, text);
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException(where + what + " out of range [1, 65535]: " + port);
        }
        return port;
    }
}
