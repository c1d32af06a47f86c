package io.ringwatch.transport.rdma;

import io.ringwatch.core.codec.FrameAuthenticator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class RdmaHeartbeatsContextTest
{
    private static final RdmaEndpoint[] TWO =
        { RdmaEndpoint.parse("127.0.0.1:7471"), RdmaEndpoint.parse("127.0.0.1:7472") };

    private static void assertRejected(final RdmaHeartbeats.Context ctx, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, ctx::conclude);
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }

    @Test
    void shouldNameTheOffendingSetting()
    {
        assertRejected(new RdmaHeartbeats.Context().rank(0), "endpoints");
        assertRejected(new RdmaHeartbeats.Context().endpoints(TWO), "rank must be set");
        assertRejected(new RdmaHeartbeats.Context().rank(2).endpoints(TWO), "rank must be set and in [0, 2)");
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO[0], null), "no RDMA endpoint for rank 1");
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(RdmaEndpoint.parse("0.0.0.0:1"), TWO[1]),
            "concrete IP");
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO).preConnect(2), "preConnect");
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO).signalInterval(0),
            RdmaConfiguration.SIGNAL_INTERVAL_PROP_NAME);
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO).connectTimeoutNs(10),
            RdmaConfiguration.CONNECT_TIMEOUT_PROP_NAME);
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO).portCheckIntervalNs(0),
            RdmaConfiguration.PORT_CHECK_INTERVAL_PROP_NAME);
        assertRejected(new RdmaHeartbeats.Context().rank(0).endpoints(TWO), "FrameAuthenticator.NONE");
    }

    @Test
    void shouldDefaultToTheLogRulePlusOneInboundSpare()
    {
        final RdmaEndpoint[] sixteen = RdmaHeartbeatsTest.endpoints(16);
        final RdmaHeartbeats.Context ctx = new RdmaHeartbeats.Context().rank(3).endpoints(sixteen)
            .authenticator(FrameAuthenticator.NONE).conclude();

        assertEquals(5, ctx.preConnect());
        assertEquals(6, ctx.maxInbound());
        assertThrows(IllegalStateException.class, () -> ctx.rank(4));
    }

    @Test
    void shouldFailWithTheProbeReasonOnAHostWithoutRdma()
    {
        final RdmaDevices.Availability availability = RdmaDevices.probe();
        assumeFalse(availability.usable(), "this host has usable RDMA; the unavailable path cannot be exercised");

        final RdmaUnavailableException ex = assertThrows(RdmaUnavailableException.class,
            () -> new RdmaHeartbeats(new RdmaHeartbeats.Context().rank(0).endpoints(TWO)
                .authenticator(FrameAuthenticator.NONE)));

        assertEquals(availability.reason(), ex.getMessage());
    }
}
