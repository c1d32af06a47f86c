package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the wire layout byte by byte against the contract, independently of the encoder and decoder agreeing
 * with each other: a round trip cannot catch two fields swapped consistently on both sides.
 */
class FrameLayoutTest
{
    private static final int CLUSTER_ID = 0x11223344;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);

    @Test
    void shouldLayOutHeartbeatLittleEndianAsSpecified()
    {
        final int length = new HeartbeatFlyweight().encode(
            buffer, 0, CLUSTER_ID, 5, 0x0708090A, 0x0102030405060708L, 0x1112131415161718L);

        assertEquals(32, length);
        assertArrayEquals(hex(
            "01 01 00 00  44 33 22 11  05 00 00 00  0a 09 08 07",
            "08 07 06 05 04 03 02 01  18 17 16 15 14 13 12 11"),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutNewObserverLittleEndianAsSpecified()
    {
        final int length = new NewObserverFlyweight().encode(
            buffer, 0, CLUSTER_ID, 2, 1, 1, 0x0A0B0C0D, 0x1020304050607080L, 64);

        assertEquals(40, length);
        assertArrayEquals(hex(
            "01 02 00 00  44 33 22 11  02 00 00 00  01 00 00 00",
            "01 00 00 00  0d 0c 0b 0a  80 70 60 50 40 30 20 10",
            "40 00 00 00  00 00 00 00"),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutFailureNoticeWithRunsAsSpecified()
    {
        final TestNotice notice = new TestNotice(5, 7, 2, 0x0102030405060708L, 4, 5, 6, 100);

        final int length = new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 3, notice);

        assertEquals(40 + 2 * 8, length);
        assertArrayEquals(hex(
            "01 03 00 00  44 33 22 11  09 00 00 00  03 00 00 00",
            "05 00 00 00  07 00 00 00  02 00 00 00  02 00 00 00",
            "08 07 06 05 04 03 02 01",
            "04 00 00 00  03 00 00 00  64 00 00 00  01 00 00 00"),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutLeaveAsHeaderOnly()
    {
        final int length = new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 12, 1);

        assertEquals(16, length);
        assertArrayEquals(hex("01 04 00 00  44 33 22 11  0c 00 00 00  01 00 00 00"), Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldReadUnsignedHeaderFieldsWithoutSignExtension()
    {
        final FrameHeaderFlyweight header = new FrameHeaderFlyweight().wrap(buffer, 0);

        header.version(0xFE).type(0xFD).flags(0xFFFE);

        assertEquals(0xFE, header.version());
        assertEquals(0xFD, header.type());
        assertEquals(0xFFFE, header.flags());
    }

    @Test
    void shouldWriteAtTheWrappedOffset()
    {
        final int offset = 100;
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();

        heartbeat.encode(buffer, offset, CLUSTER_ID, 3, 4, 5L, 6L);

        assertEquals(0, buffer.getByte(offset - 1));
        assertEquals(0, buffer.getByte(offset + HeartbeatFlyweight.LENGTH));
        heartbeat.wrap(buffer, offset);
        assertEquals(FrameHeaderFlyweight.HEARTBEAT_TYPE, heartbeat.type());
        assertEquals(3, heartbeat.senderRank());
        assertEquals(5L, heartbeat.counter());
        assertEquals(6L, heartbeat.emitterTimestampNs());
    }

    private static byte[] hex(final String... lines)
    {
        final String digits = String.join("", lines).replace(" ", "");
        final byte[] bytes = new byte[digits.length() / 2];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
