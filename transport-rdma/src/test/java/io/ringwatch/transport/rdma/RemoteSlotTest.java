package io.ringwatch.transport.rdma;

import io.ringwatch.core.slot.HeartbeatSlotLayout;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemoteSlotTest
{
    @Test
    void shouldAcceptAlignedSlotWithRoomForPayload()
    {
        assertNull(RemoteSlot.invalidReason(0x7f00_0000_1000L, 64));
        assertEquals(0x1234, new RemoteSlot(0x7f00_0000_1040L, 0x1234, HeartbeatSlotLayout.PAYLOAD_LENGTH).rkey());
    }

    @Test
    void shouldRejectZeroAddressAsMissingSlot()
    {
        assertTrue(RemoteSlot.invalidReason(0, 64).contains("address is 0"));
    }

    @Test
    void shouldRejectMisalignedAddress()
    {
        assertTrue(RemoteSlot.invalidReason(0x1008, 64).contains("not 64-byte aligned"));
    }

    @Test
    void shouldRejectLengthShorterThanPayload()
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> new RemoteSlot(0x1000, 1, 16));
        assertTrue(ex.getMessage().contains("length 16"), ex.getMessage());
    }
}
