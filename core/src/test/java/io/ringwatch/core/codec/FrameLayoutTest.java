package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pins the wire layout byte by byte against the contract, independently of the encoder and decoder agreeing
 * with each other: a round trip cannot catch two fields swapped consistently on both sides.
 */
class FrameLayoutTest
{
    private static final int CLUSTER_ID = 0x11223344;
    private static final int DIGEST = 0x21222324;
    private static final String ZERO_MAC = "00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);

    @Test
    void shouldLayOutHeartbeatLittleEndianAsSpecified()
    {
        final int length = new HeartbeatFlyweight().encode(
            buffer, 0, CLUSTER_ID, 5, 0x3132333435363738L, 6, DIGEST, 0x0102030405060708L, 0x1112131415161718L);

        assertEquals(76, length);
        assertArrayEquals(hex(
            "06 01 00 00  44 33 22 11  05 00 00 00  38 37 36 35 34 33 32 31",
            "06 00 00 00  24 23 22 21  00 00 00 00 00 00 00 00",
            "00 00 00 00 00 00 00 00",
            "08 07 06 05 04 03 02 01  18 17 16 15 14 13 12 11",
            ZERO_MAC),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutNewObserverWithTheEmitterAsDestination()
    {
        final int length = new NewObserverFlyweight().encode(
            buffer, 0, CLUSTER_ID, 2, 1, DIGEST, 1, 0x0A0B0C0D, 0x1020304050607080L, 64);

        assertEquals(84, length);
        assertArrayEquals(hex(
            "06 02 00 00  44 33 22 11  02 00 00 00  01 00 00 00 00 00 00 00",
            "01 00 00 00  24 23 22 21  00 00 00 00 00 00 00 00",
            "00 00 00 00 00 00 00 00",
            "01 00 00 00  0d 0c 0b 0a  80 70 60 50 40 30 20 10",
            "40 00 00 00  00 00 00 00",
            ZERO_MAC),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutFailureNoticeWithRunsAsSpecified()
    {
        final TestNotice notice = new TestNotice(5, 7, 2, 0x0102030405060708L, 4, 5, 6, 100);

        final int length = new FailureNoticeFlyweight().encode(buffer, 0, CLUSTER_ID, 9, 3, 8, DIGEST, notice);

        assertEquals(80 + 2 * 8 + 16, length);
        assertArrayEquals(hex(
            "06 03 00 00  44 33 22 11  09 00 00 00  03 00 00 00 00 00 00 00",
            "08 00 00 00  24 23 22 21  00 00 00 00 00 00 00 00",
            "00 00 00 00 00 00 00 00",
            "05 00 00 00  07 00 00 00  02 00 00 00 00 00 00 00  02 00 00 00",
            "08 07 06 05 04 03 02 01  00 00 00 00 00 00 00 00",
            "04 00 00 00  03 00 00 00  64 00 00 00  01 00 00 00",
            ZERO_MAC),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldLayOutLeaveAsHeaderAndMac()
    {
        final int length = new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 12, 1, 13, DIGEST);

        assertEquals(60, length);
        assertArrayEquals(hex(
            "06 04 00 00  44 33 22 11  0c 00 00 00  01 00 00 00 00 00 00 00",
            "0d 00 00 00  24 23 22 21  00 00 00 00 00 00 00 00",
            "00 00 00 00 00 00 00 00",
            ZERO_MAC),
            Frames.bytes(buffer, 0, length));
    }

    @Test
    void shouldStampSequenceLittleEndianAndMacAsTruncatedHmacSha256OfEverythingBefore() throws Exception
    {
        final FrameStamper stamper = new FrameStamper(16, FrameAuthenticator.withKey(Frames.KEY));
        final int length = new LeaveFlyweight().encode(buffer, 0, CLUSTER_ID, 12, 1, 13, DIGEST);

        assertEquals(length, stamper.stamp(buffer, 0, length));
        stamper.run(0x0102030405060708L);
        assertEquals(length, stamper.stamp(buffer, 0, length));

        final byte[] frame = Frames.bytes(buffer, 0, length);
        assertArrayEquals(hex("02 00 00 00 00 00 00 00"), Arrays.copyOfRange(frame, 28, 36));
        assertArrayEquals(hex("08 07 06 05 04 03 02 01"), Arrays.copyOfRange(frame, 36, 44), "the run, under the MAC");
        final Mac reference = Mac.getInstance("HmacSHA256");
        reference.init(new SecretKeySpec(Frames.KEY, "HmacSHA256"));
        final byte[] expected = Arrays.copyOf(reference.doFinal(Arrays.copyOf(frame, length - 16)), 16);
        assertArrayEquals(expected, Arrays.copyOfRange(frame, length - 16, length));
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

        heartbeat.encode(buffer, offset, CLUSTER_ID, 3, 4, 2, DIGEST, 5L, 6L);

        assertEquals(0, buffer.getByte(offset - 1));
        assertEquals(0, buffer.getByte(offset + HeartbeatFlyweight.LENGTH));
        heartbeat.wrap(buffer, offset);
        assertEquals(FrameHeaderFlyweight.HEARTBEAT_TYPE, heartbeat.type());
        assertEquals(3, heartbeat.senderRank());
        assertEquals(2, heartbeat.destinationRank());
        assertEquals(DIGEST, heartbeat.configDigest());
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
