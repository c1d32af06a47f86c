package io.ringwatch.transport.aeron.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.transport.aeron.NodeCounter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An opt-in HTTP endpoint serving a node's counters in the Prometheus text exposition format (which OpenMetrics
 * scrapers read too) at {@code /metrics}. Each scrape maps the media driver's CnC file afresh and reads the counters
 * from it ({@link CncCounters}), on the endpoint's own thread: the node's agent is never touched, so a scrape costs
 * the duty cycle nothing. Names and types come from {@link NodeCounter}, the descriptor {@code stat} reads too.
 */
public final class MetricsEndpoint implements AutoCloseable
{
    /** The exposition format's content type. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final RejectReason[] REASONS = RejectReason.values();

    private final HttpServer server;
    private final ExecutorService executor;
    private final String aeronDir;
    private final int clusterId;
    private final int rank;

    private MetricsEndpoint(final HttpServer server, final String aeronDir, final int clusterId, final int rank)
    {
        this.server = server;
        this.aeronDir = aeronDir;
        this.clusterId = clusterId;
        this.rank = rank;
        executor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "ringwatch-metrics-" + rank);
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", this::serve);
        server.start();
    }

    /**
     * @param address   where to listen: keep it on localhost unless a scraper elsewhere must reach it.
     * @param aeronDir  the node's media driver directory.
     * @param clusterId the node's cluster.
     * @param rank      the node's rank, or -1 for every node whose counters the driver holds.
     * @return the endpoint, serving.
     * @throws IllegalStateException if the address cannot be bound (naming it).
     */
    public static MetricsEndpoint start(
        final InetSocketAddress address, final String aeronDir, final int clusterId, final int rank)
    {
        try
        {
            return new MetricsEndpoint(HttpServer.create(address, 4), aeronDir, clusterId, rank);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot serve metrics on " + address + ": " + ex.getMessage() +
                " (pick another --metrics-port)", ex);
        }
    }

    /**
     * @return the bound address (the port chosen when asked for port 0).
     */
    public InetSocketAddress address()
    {
        return server.getAddress();
    }

    /**
     * @return the exposition text of the counters as they are now; "" if no driver's CnC file is there.
     */
    public String scrape()
    {
        final Map<NodeCounter, List<String>> samples = new EnumMap<>(NodeCounter.class);
        try (CncCounters counters = CncCounters.open(aeronDir))
        {
            if (counters == null)
            {
                return "";
            }
            counters.forEach((c, cluster, r, detail, value, label) ->
            {
                if (cluster == clusterId && (rank < 0 || r == rank))
                {
                    final String reason = c == NodeCounter.FRAMES_REJECTED_BY_REASON && detail >= 0 &&
                        detail < REASONS.length ? ",reason=\"" + REASONS[detail].name() + "\"" : "";
                    samples.computeIfAbsent(c, k -> new ArrayList<>()).add(c.metricName() + "{cluster=\"" +
                        cluster + "\",rank=\"" + r + "\"" + reason + "} " + value);
                }
            });
        }
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<NodeCounter, List<String>> family : samples.entrySet())
        {
            final NodeCounter c = family.getKey();
            text.append("# HELP ").append(c.metricName()).append(' ').append(c.label())
                .append(c == NodeCounter.FRAMES_REJECTED_BY_REASON ? " by reason" : "").append('\n')
                .append("# TYPE ").append(c.metricName()).append(' ').append(c.gauge() ? "gauge" : "counter")
                .append('\n');
            for (final String sample : family.getValue())
            {
                text.append(sample).append('\n');
            }
        }
        return text.toString();
    }

    private void serve(final HttpExchange exchange) throws IOException
    {
        try (exchange)
        {
            if (!"GET".equals(exchange.getRequestMethod()))
            {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            final byte[] body;
            try
            {
                body = scrape().getBytes(StandardCharsets.UTF_8);
            }
            catch (final RuntimeException ex)
            {
                // e.g. a CnC file being replaced by a restarting driver: this scrape fails, the next may not
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(body);
            }
        }
        catch (final UncheckedIOException ignore)
        {
            // the scraper went away
        }
    }

    /**
     * Stop serving.
     */
    public void close()
    {
        server.stop(0);
        executor.shutdownNow();
    }
}
