package io.ringwatch.transport.aeron;

import io.ringwatch.transport.rdma.RdmaEndpoint;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterConfigTest
{
    @Test
    void shouldParseHeaderAndMembersInAnyOrder()
    {
        final ClusterConfig c = ClusterConfig.parse("f", List.of(
            "# demo", "cluster-id=42", "heartbeat-period=2ms", "suspicion-timeout=20ms", "", "1 hostB 30 31",
            "0 hostA 20 21  # first"));
        assertEquals(42, c.clusterId());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(2), c.heartbeatPeriodNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(20), c.suspicionTimeoutNs());
        assertEquals(2, c.size());
        assertEquals("hostA", c.member(0).host());
        assertEquals(31, c.member(1).heartbeatPort());
        assertEquals(c, ClusterConfig.parse("again", List.of(c.render().split("\n"))));
    }

    @Test
    void shouldNameLineOfMalformedMember()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ClusterConfig.parse("f", List.of("cluster-id=1", "0 host 20")));
        assertTrue(ex.getMessage().startsWith("f:2:"), ex.getMessage());
    }

    @Test
    void shouldRejectRankOutOfRangeDuplicateAndMissingClusterId()
    {
        assertMessage("rank 5 out of range", List.of("cluster-id=1", "0 h 1 2", "5 h 3 4"));
        assertMessage("listed twice", List.of("cluster-id=1", "0 h 1 2", "0 h 3 4"));
        assertMessage("missing 'cluster-id='", List.of("0 h 1 2"));
        assertMessage("out of range [1, 65535]: 70000", List.of("cluster-id=1", "0 h 70000 2"));
        assertMessage("f:2: suspicion-timeout 'soon' is not a duration",
            List.of("cluster-id=1", "suspicion-timeout=soon", "0 h 1 2"));
        assertMessage("unknown setting 'colour'", List.of("cluster-id=1", "colour=red", "0 h 1 2"));
    }

    @Test
    void shouldRejectARepeatedClusterIdAndSharedHostPorts()
    {
        assertMessage("f:2: cluster-id given a second time", List.of("cluster-id=1", "cluster-id=2", "0 h 1 2"));
        assertMessage("h:3, the control port of rank 1, is already a port of rank 0",
            List.of("cluster-id=1", "0 h 2 3", "1 h 3 4"));
        assertMessage("H:2, the heartbeat port of rank 0, is already its other port",
            List.of("cluster-id=1", "0 H 2 2"));
        assertEquals(2, ClusterConfig.parse("f", List.of("cluster-id=1", "0 a 2 3", "1 b 2 3")).size());
    }

    @Test
    void shouldRequireUnitsAndNameTheNewKeyOfAnOldOne()
    {
        assertMessage("f:2: heartbeat-period '1' needs a unit: 1ms, 1s, 1us or 1ns",
            List.of("cluster-id=1", "heartbeat-period=1", "0 h 1 2"));
        assertMessage("f:2: 'heartbeat' was renamed 'heartbeat-period'", List.of("cluster-id=1", "heartbeat=1ms"));
        assertMessage("f:3: 'timeout' was renamed 'suspicion-timeout'",
            List.of("cluster-id=1", "", "timeout=10ms", "0 h 1 2"));
    }

    @Test
    void shouldRenderDurationsInTheirLargestWholeUnit()
    {
        final ClusterConfig c = ClusterConfig.parse("f", List.of("cluster-id=3", "heartbeat-period=1500us",
            "suspicion-timeout=0.4s", "0 h 1 2"));

        assertEquals(List.of("cluster-id=3", "heartbeat-period=1500us", "suspicion-timeout=400ms", "0 h 1 2"),
            List.of(c.render().split("\n")));
    }

    @Test
    void shouldRejectRankOutsideClusterWhenLookedUp()
    {
        final ClusterConfig c = ClusterConfig.parse("f", List.of("cluster-id=1", "0 h 1 2"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> c.member(3));
        assertTrue(ex.getMessage().contains("rank 3 out of range"), ex.getMessage());
    }

    @Test
    void shouldReadAnOptionalRdmaEndpointAtTheEndOfAMemberLineAndRenderItBack()
    {
        final ClusterConfig c = ClusterConfig.parse("f", List.of("cluster-id=5",
            "0 10.0.0.1 20000 20001 rdma=192.168.100.1:7471   # IPoIB",
            "1 10.0.0.2 20000 20001\trdma=[fe80::2]:7472",
            "2 10.0.0.3 20000 20001"));

        assertEquals(new RdmaEndpoint("192.168.100.1", 7471), c.member(0).rdma());
        assertEquals(new RdmaEndpoint("fe80::2", 7472), c.member(1).rdma());
        assertNull(c.member(2).rdma(), "the column is optional");
        assertEquals(2, c.firstMemberWithoutRdma());
        assertEquals(List.of("cluster-id=5", "0 10.0.0.1 20000 20001 rdma=192.168.100.1:7471",
            "1 10.0.0.2 20000 20001 rdma=[fe80::2]:7472", "2 10.0.0.3 20000 20001"), List.of(c.render().split("\n")));
        assertEquals(c, ClusterConfig.parse("again", List.of(c.render().split("\n"))));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, c::rdmaEndpoints);
        assertEquals("rank 2 has no rdma=host:port", ex.getMessage());
    }

    @Test
    void shouldGiveEveryRankItsRdmaEndpointInRankOrder()
    {
        final ClusterConfig c = ClusterConfig.parse("f", List.of("cluster-id=5", "1 b 3 4 rdma=ib1:7000",
            "0 a 1 2 rdma=ib0:7000"));

        assertEquals(-1, c.firstMemberWithoutRdma());
        assertArrayEquals(new RdmaEndpoint[]{new RdmaEndpoint("ib0", 7000), new RdmaEndpoint("ib1", 7000)},
            c.rdmaEndpoints());
    }

    @Test
    void shouldNameTheLineOfABadRdmaColumn()
    {
        assertMessage("f:2: RDMA endpoint '192.168.1.1': no port; expected host:port",
            List.of("cluster-id=1", "0 h 1 2 rdma=192.168.1.1"));
        assertMessage("f:2: RDMA endpoint 'ib0:99999': port 99999 not in [1, 65535]",
            List.of("cluster-id=1", "0 h 1 2 rdma=ib0:99999"));
        assertMessage("f:2: RDMA endpoint 'fe80::1:7471': an IPv6 literal must be bracketed",
            List.of("cluster-id=1", "0 h 1 2 rdma=fe80::1:7471"));
        assertMessage("f:2: fifth field must be rdma=host:port, got 'ib0:7471'",
            List.of("cluster-id=1", "0 h 1 2 ib0:7471"));
        assertMessage("f:2: expected 'rank host controlPort heartbeatPort [rdma=host:port]', got '0 h 1 2 rdma = ib0:1'",
            List.of("cluster-id=1", "0 h 1 2 rdma = ib0:1"));
        assertMessage("f:2: 'rdma=' goes at the end of a member line", List.of("cluster-id=1", "rdma=ib0:7471"));
    }

    private static void assertMessage(final String expected, final List<String> lines)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ClusterConfig.parse("f", lines));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }
}
