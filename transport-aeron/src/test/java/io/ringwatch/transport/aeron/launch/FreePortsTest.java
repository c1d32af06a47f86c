package io.ringwatch.transport.aeron.launch;

import io.ringwatch.transport.aeron.ClusterConfig;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
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
        // below the ephemeral range: no socket bound to port 0 (a driver's send channel) can take one meanwhile
        final int below = FreePorts.ephemeralLow();
        assertTrue(Arrays.stream(ports).allMatch(p -> p >= FreePorts.LOWEST_PORT && p < below),
            Arrays.toString(ports) + " not in [" + FreePorts.LOWEST_PORT + ", " + below + ")");
    }

    @Test
    void shouldSkipAPortThatIsTaken() throws Exception
    {
        final int taken = FreePorts.udp(1)[0];
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress("localhost", taken)))
        {
            final int[] ports = FreePorts.udp(2, taken - FreePorts.LOWEST_PORT, FreePorts.ephemeralLow());
            assertTrue(Arrays.stream(ports).noneMatch(p -> p == taken), taken + " handed out: " +
                Arrays.toString(ports));
            assertEquals(2, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
        }
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
