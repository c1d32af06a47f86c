package io.ringwatch.transport.rdma;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class RdmaHeartbeatChannelTest
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void shouldRejectWildcardBindAddressBecauseTheSlotNeedsOneDevice()
    {
        final RdmaHeartbeatChannel.Context ctx = new RdmaHeartbeatChannel.Context()
            .rank(0)
            .bindAddress(new InetSocketAddress(0));

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, ctx::conclude);
        assertTrue(ex.getMessage().contains("bindAddress"), ex.getMessage());
    }

    @Test
    void shouldRejectMissingRank()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RdmaHeartbeatChannel.Context().bindAddress(LOOPBACK).conclude());
        assertTrue(ex.getMessage().contains("rank"), ex.getMessage());
    }

    @Test
    void shouldRejectOutOfRangeSignalIntervalNamingTheProperty()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RdmaHeartbeatChannel.Context().rank(1).bindAddress(LOOPBACK).signalInterval(0).conclude());
        assertTrue(ex.getMessage().contains(RdmaConfiguration.SIGNAL_INTERVAL_PROP_NAME), ex.getMessage());
    }

    @Test
    void shouldRefuseChangesAfterConclude()
    {
        final RdmaHeartbeatChannel.Context ctx = new RdmaHeartbeatChannel.Context().rank(1).bindAddress(LOOPBACK);
        ctx.conclude();

        assertThrows(IllegalStateException.class, () -> ctx.rank(2));
    }

    @Test
    void shouldFailWithTheProbeReasonOnAHostWithoutRdma()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeFalse(availability.usable(), "this host has usable RDMA; the unavailable path cannot be exercised");

        final RdmaUnavailableException ex = assertThrows(RdmaUnavailableException.class,
            () -> new RdmaHeartbeatChannel(new RdmaHeartbeatChannel.Context().rank(0).bindAddress(LOOPBACK)));

        assertEquals(availability.reason(), ex.getMessage());
    }
}
