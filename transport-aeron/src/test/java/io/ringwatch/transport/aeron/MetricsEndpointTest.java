package io.ringwatch.transport.aeron;

import io.ringwatch.transport.aeron.internal.MetricsEndpoint;
import io.ringwatch.transport.aeron.internal.NodeInternals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scrape of a real node's counters (two nodes, a real media driver) over HTTP, as Prometheus would take it: every
 * family typed once, this node's samples only, values as the node published them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetricsEndpointTest
{
    private static final int CLUSTER_ID = 4711;

    @Test
    void shouldServeTheNodesCountersInTheTextFormatReadFromTheCncFile() throws Exception
    {
        try (EmbeddedCluster cluster = new EmbeddedCluster(2, CLUSTER_ID, TimeUnit.MILLISECONDS.toNanos(10),
            TimeUnit.MILLISECONDS.toNanos(100));
            MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0),
                cluster.dir.getAbsolutePath(), CLUSTER_ID, 0))
        {
            cluster.run(300, 0, 1);
            final long sent = NodeInternals.agent(cluster.nodes[0]).counters().get(NodeCounter.HEARTBEATS_SENT);
            assertTrue(sent > 0, "rank 0 sent heartbeats");

            final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + endpoint.address().getPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
            final String body = response.body();
            System.out.println(body);
            assertEquals(200, response.statusCode(), body);
            assertEquals(MetricsEndpoint.CONTENT_TYPE, response.headers().firstValue("Content-Type").orElse(""));

            // the agent is not run between the read above and the scrape: the values are the same
            assertEquals(sent, sample(body, "ringwatch_heartbeats_sent_total"));
            assertEquals(0, sample(body, "ringwatch_node_state"), "ACTIVE");
            for (final String family : List.of("ringwatch_heartbeats_sent_total counter",
                "ringwatch_view_epoch gauge", "ringwatch_max_heartbeat_gap_ns gauge"))
            {
                assertEquals(1, body.lines().filter(line -> line.equals("# TYPE " + family)).count(), family);
            }
            assertFalse(body.contains("rank=\"1\""), "only rank 0's counters: " + body);
            assertTrue(body.lines().filter(line -> !line.startsWith("#")).allMatch(line -> line.matches(
                "ringwatch_[a-z_]+\\{cluster=\"" + CLUSTER_ID + "\",rank=\"0\"(,reason=\"[A-Z_]+\")?} -?\\d+")), body);
        }
    }

    private static long sample(final String body, final String name)
    {
        final Matcher m = Pattern.compile("(?m)^" + name + "\\{cluster=\"" + CLUSTER_ID + "\",rank=\"0\"} (\\d+)$")
            .matcher(body);
        assertTrue(m.find(), name + " in " + body);
        return Long.parseLong(m.group(1));
    }
}
