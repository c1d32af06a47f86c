package io.ringwatch.transport.aeron.internal.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FreePortsTest
{
    @Test
    void shouldHandOutDistinctUdpPortsInRange()
    {
        final int[] ports = FreePorts.udp(16);

        assertEquals(16, ports.length);
        assertEquals(16, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        assertTrue(Arrays.stream(ports).allMatch(p -> p >= 1 && p <= 65535), Arrays.toString(ports));
    }

    @Test
    void shouldGiveEveryLocalhostMemberItsRankAndTwoPortsNobodyElseHas()
    {
        final List<ClusterConfig.Member> members = FreePorts.localhostMembers(5);

        assertEquals(5, members.size());
        final Set<Integer> ports = new HashSet<>();
        for (int r = 0; r < members.size(); r++)
        {
            final ClusterConfig.Member m = members.get(r);
            assertEquals(r, m.rank());
            assertEquals("localhost", m.host());
            ports.add(m.controlPort());
            ports.add(m.heartbeatPort());
        }
        assertEquals(10, ports.size(), members.toString());
    }
}
