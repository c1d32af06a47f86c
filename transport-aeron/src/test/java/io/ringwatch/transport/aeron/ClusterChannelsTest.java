package io.ringwatch.transport.aeron;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ClusterChannelsTest
{
    @Test
    void shouldPreCreateHypercubeLinksNearestPredecessorsAndSuccessor()
    {
        // n = 16, rank 5: ±1, ±2, ±4, ±8 -> 6,7,9,13 and 4,3,1,13; predecessors 4,3,2,1,0 (⌊log₂ 16⌋ + 1 = 5)
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 6, 7, 9, 13}, ClusterChannels.usualControlPeers(5, 16));
    }

    @Test
    void shouldNeverListSelfInTinyClusters()
    {
        assertArrayEquals(new int[]{1}, ClusterChannels.usualControlPeers(0, 2));
        assertArrayEquals(new int[]{}, ClusterChannels.usualControlPeers(0, 1));
        assertArrayEquals(new int[]{0}, ClusterChannels.usualHeartbeatPeers(1, 2));
    }

    @Test
    void shouldPreCreateHeartbeatsToNearestSuccessorsWrappingAround()
    {
        assertArrayEquals(new int[]{0, 1, 6, 7}, ClusterChannels.usualHeartbeatPeers(5, 8));
    }

    @Test
    void shouldPreCreateEveryPeerOnlyInSmallClusters()
    {
        assertArrayEquals(new int[]{6, 7, 0, 1, 2, 3, 4}, ClusterChannels.controlPeersToPreCreate(5, 8, 32));
        assertArrayEquals(ClusterChannels.usualControlPeers(5, 64), ClusterChannels.controlPeersToPreCreate(5, 64, 32));
        assertArrayEquals(ClusterChannels.usualControlPeers(5, 8), ClusterChannels.controlPeersToPreCreate(5, 8, 0));
    }

    @Test
    void shouldBracketIpv6LiteralsInEndpoints()
    {
        assertEquals("[fe80::1]:20000", ClusterChannels.endpoint("fe80::1", 20000));
        assertEquals("[::1]:20000", ClusterChannels.endpoint("[::1]", 20000));
        assertEquals("10.0.0.1:20000", ClusterChannels.endpoint("10.0.0.1", 20000));
        assertEquals("node-3.example:20000", ClusterChannels.endpoint("node-3.example", 20000));
    }
}
