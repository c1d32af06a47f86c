package io.ringwatch.transport.aeron.internal;

import io.ringwatch.core.broadcast.BroadcastSchedule;
import io.ringwatch.core.broadcast.DoubleHypercubeSchedule;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.transport.aeron.ClusterConfig;
import io.ringwatch.transport.aeron.RingwatchContext;
import io.ringwatch.transport.aeron.TransportMode;
import io.ringwatch.transport.aeron.auth.AuthMode;
import io.ringwatch.transport.rdma.RdmaEndpoint;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterChannelsTest
{
    private static final BroadcastSchedule SCHEDULE = new DoubleHypercubeSchedule();

    @Test
    void shouldPreCreateHypercubeLinksNearestPredecessorsAndSuccessor()
    {
        // n = 16, rank 5: ±1, ±2, ±4, ±8 -> 6,7,9,13 and 4,3,1,13; predecessors 4,3,2,1,0 (⌊log₂ 16⌋ + 1 = 5)
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 6, 7, 9, 13}, ClusterChannels.usualControlPeers(SCHEDULE, 5, 16));
    }

    @Test
    void shouldNeverListSelfInTinyClusters()
    {
        assertArrayEquals(new int[]{1}, ClusterChannels.usualControlPeers(SCHEDULE, 0, 2));
        assertArrayEquals(new int[]{}, ClusterChannels.usualControlPeers(SCHEDULE, 0, 1));
    }

    @Test
    void shouldPreCreateEveryPeerOnlyInSmallClusters()
    {
        assertArrayEquals(new int[]{6, 7, 0, 1, 2, 3, 4}, ClusterChannels.controlPeersToPreCreate(SCHEDULE, 5, 8, 32));
        assertArrayEquals(ClusterChannels.usualControlPeers(SCHEDULE, 5, 64),
            ClusterChannels.controlPeersToPreCreate(SCHEDULE, 5, 64, 32));
        assertArrayEquals(ClusterChannels.usualControlPeers(SCHEDULE, 5, 8),
            ClusterChannels.controlPeersToPreCreate(SCHEDULE, 5, 8, 0));
    }

    @Test
    void shouldPreCreateOnlyTheScheduleLinksNotEveryPowerOfTwoStepAlongTheRing()
    {
        // n = 7, k = 2: the cubes' links are ±1 and ±2; predecessors 6, 5, 4. Rank 3 (= 0 - 4) is no link.
        assertArrayEquals(new int[]{1, 2, 4, 5, 6}, ClusterChannels.usualControlPeers(SCHEDULE, 0, 7));
    }

    /**
     * Before it asked the schedule, ClusterChannels derived the links itself as ±2^j for every 2^j &lt; n. That is
     * the schedule's answer when n is a power of two; otherwise it also named rank ± 2^⌊log₂ n⌋, which is no link
     * of either cube (their coordinates have ⌊log₂ n⌋ bits), so no failure-free broadcast ever used it. The schedule's
     * answer must be that derivation with its steps stopped at the cubes' dimension.
     */
    @Test
    void shouldMatchTheRingDerivationItReplacedExceptForItsStepsBeyondTheCubes()
    {
        int differing = 0;
        for (int n = 1; n <= 300; n++)
        {
            final int beyond = Integer.highestOneBit(n);
            for (int rank = 0; rank < n; rank++)
            {
                final BitSet replaced = ringDerivation(rank, n, n);
                final BitSet expected = ringDerivation(rank, n, beyond);
                final int[] actual = ClusterChannels.usualControlPeers(SCHEDULE, rank, n);
                assertArrayEquals(expected.stream().toArray(), actual, "n=" + n + " rank=" + rank + " got " +
                    Arrays.toString(actual));

                final BitSet gone = (BitSet)replaced.clone();
                gone.andNot(expected);
                gone.clear((rank + beyond) % n);
                gone.clear(Math.floorMod(rank - beyond, n));
                assertTrue(gone.isEmpty(), "n=" + n + " rank=" + rank + " also lost " + gone);
                differing += replaced.equals(expected) ? 0 : 1;
                if (n == beyond)
                {
                    assertEquals(replaced, expected, "n=" + n + " rank=" + rank);
                }
            }
        }
        assertTrue(differing > 0, "the comparison covers sizes where the two differ");
    }

    @Test
    void shouldListEveryTargetTheScheduleEverGivesInTheFullCluster()
    {
        final int n = 100;
        final int[] targets = new int[SCHEDULE.maxFanout(n)];
        for (int rank = 0; rank < n; rank++)
        {
            final int[] peers = ClusterChannels.usualControlPeers(SCHEDULE, rank, n);
            for (int source = 0; source < n; source++)
            {
                final int count = SCHEDULE.neighbours(rank, source, RankArray.of(), n, targets);
                for (int i = 0; i < count; i++)
                {
                    assertTrue(Arrays.binarySearch(peers, targets[i]) >= 0,
                        "rank " + rank + " forwards " + source + "'s notice to " + targets[i]);
                }
            }
            assertTrue(Arrays.binarySearch(peers, Math.floorMod(rank - 1, n)) >= 0, "predecessor of " + rank);
            assertTrue(Arrays.binarySearch(peers, (rank + 1) % n) >= 0, "successor of " + rank);
        }
    }

    @Test
    void shouldPutControlOfRdmaNodesOnTheSameUdpChannelsAndStreamAsUdpNodes()
    {
        final ClusterConfig cluster = new ClusterConfig(7, -1, -1, List.of(
            new ClusterConfig.Member(0, "10.0.0.1", 20000, 20001, new RdmaEndpoint("192.168.100.1", 7471)),
            new ClusterConfig.Member(1, "10.0.0.2", 20002, 20003, new RdmaEndpoint("192.168.100.2", 7471))));
        final ClusterChannels udp = channels(cluster, TransportMode.UDP);
        final ClusterChannels rdma = channels(cluster, TransportMode.RDMA);
        // ipc reaches one host only: the same members on one host
        final ClusterChannels ipc = channels(new ClusterConfig(7, -1, -1, List.of(
            new ClusterConfig.Member(0, "10.0.0.1", 20000, 20001), new ClusterConfig.Member(1, "10.0.0.1", 20002, 20003))),
            TransportMode.IPC);

        assertArrayEquals(udp.controlChannels(), rdma.controlChannels());
        assertArrayEquals(udp.controlStreams(), rdma.controlStreams());
        assertTrue(rdma.controlChannel(1).startsWith("aeron:udp?") && rdma.controlChannel(1).contains("10.0.0.2:20002"),
            rdma.controlChannel(1));
        assertTrue(ipc.controlChannel(1).startsWith("aeron:ipc"), ipc.controlChannel(1));
    }

    private static ClusterChannels channels(final ClusterConfig cluster, final TransportMode transport)
    {
        return new ClusterChannels(new RingwatchContext().authMode(AuthMode.OFF).cluster(cluster).rank(0).transport(transport).conclude());
    }

    private static BitSet predecessors(final int rank, final int n)
    {
        final BitSet set = new BitSet(n);
        for (int i = 1; i <= Math.min(n - 1, 31 - Integer.numberOfLeadingZeros(n) + 1); i++)
        {
            set.set(Math.floorMod(rank - i, n));
        }
        return set;
    }

    /**
     * The derivation {@code usualControlPeers} used before it asked the schedule ({@code stepsBelow = n}), kept as
     * the oracle above.
     */
    private static BitSet ringDerivation(final int rank, final int n, final int stepsBelow)
    {
        final BitSet peers = new BitSet(n);
        for (int step = 1; step < stepsBelow; step <<= 1)
        {
            peers.set((rank + step) % n);
            peers.set(Math.floorMod(rank - step, n));
        }
        peers.or(predecessors(rank, n));
        peers.clear(rank);
        return peers;
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
