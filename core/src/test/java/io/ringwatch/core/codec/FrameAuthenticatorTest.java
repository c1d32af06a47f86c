package io.ringwatch.core.codec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.MAC_LENGTH;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameAuthenticatorTest
{
    private static final byte[] NEW_KEY = Frames.key(77);

    /**
     * A rolling rotation on one node, in place: [old] → [old, new] → [new, old] → [new]; it signs with the primary of
     * the moment and accepts every key it holds.
     */
    @Test
    void shouldRekeyInPlaceThroughARollingRotation()
    {
        final FrameAuthenticator node = FrameAuthenticator.withKey(Frames.KEY);
        final FrameAuthenticator oldOnly = FrameAuthenticator.withKey(Frames.KEY);
        final FrameAuthenticator newOnly = FrameAuthenticator.withKey(NEW_KEY);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);

        node.rekey(FrameAuthenticator.withKeys(List.of(Frames.KEY, NEW_KEY)));
        node.sign(frame, 0, 64);
        assertTrue(oldOnly.verify(frame, 0, 64), "still signs with the old primary");
        newOnly.sign(frame, 0, 64);
        assertTrue(node.verify(frame, 0, 64), "and accepts the new key");

        node.rekey(FrameAuthenticator.withKeys(List.of(NEW_KEY, Frames.KEY)));
        node.sign(frame, 0, 64);
        assertTrue(newOnly.verify(frame, 0, 64), "signs with the new primary");
        oldOnly.sign(frame, 0, 64);
        assertTrue(node.verify(frame, 0, 64), "still accepts the old key");

        node.rekey(newOnly);
        assertFalse(node.verify(frame, 0, 64), "the old key is gone");
        assertThrows(IllegalStateException.class, () -> node.rekey(FrameAuthenticator.NONE));
        assertThrows(IllegalStateException.class, () -> FrameAuthenticator.NONE.rekey(newOnly));
    }

    /**
     * The MAC is the JDK's HMAC-SHA-256 truncated to 16 bytes, over every length a frame can have (including those
     * that cross the copy chunk), on heap and direct buffers, at an offset.
     */
    @Test
    void shouldComputeHmacSha256TruncatedTo128BitsLikeTheJdk() throws Exception
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH + 100]);
        final UnsafeBuffer direct = new UnsafeBuffer(
            ByteBuffer.allocateDirect(FailureNoticeFlyweight.MAX_LENGTH + 100));
        for (int round = 0; round < 300; round++)
        {
            final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
            random.nextBytes(key);
            final FrameAuthenticator authenticator = FrameAuthenticator.withKey(key);
            final Mac reference = Mac.getInstance("HmacSHA256");
            reference.init(new SecretKeySpec(key, "HmacSHA256"));
            final int length = round < 100 ? MAC_LENGTH + round : MAC_LENGTH + random.nextInt(
                FailureNoticeFlyweight.MAX_LENGTH - MAC_LENGTH);
            final int offset = random.nextInt(100);
            final byte[] data = new byte[length];
            random.nextBytes(data);

            final byte[] expected = Arrays.copyOf(reference.doFinal(Arrays.copyOf(data, length - MAC_LENGTH)), 16);
            for (final UnsafeBuffer buffer : List.of(heap, direct))
            {
                buffer.putBytes(offset, data);
                authenticator.sign(buffer, offset, length);
                assertArrayEquals(expected, Frames.bytes(buffer, offset + length - MAC_LENGTH, MAC_LENGTH),
                    "seed=" + seed + " round " + round + " length " + length);
                assertTrue(authenticator.verify(buffer, offset, length));
                assertArrayEquals(Arrays.copyOf(data, length - MAC_LENGTH),
                    Frames.bytes(buffer, offset, length - MAC_LENGTH), "signing wrote outside the trailer");
            }
        }
    }

    @Test
    void shouldAcceptEveryKeyOfTheKeyringButSignWithThePrimaryOnly()
    {
        final UnsafeBuffer buffer = frame();
        final FrameAuthenticator beforeRotation = FrameAuthenticator.withKeys(List.of(Frames.KEY, NEW_KEY));
        final FrameAuthenticator afterRotation = FrameAuthenticator.withKeys(List.of(NEW_KEY, Frames.KEY));
        final FrameAuthenticator newOnly = FrameAuthenticator.withKey(NEW_KEY);

        beforeRotation.sign(buffer, 0, buffer.capacity());
        assertTrue(afterRotation.verify(buffer, 0, buffer.capacity()));
        assertFalse(newOnly.verify(buffer, 0, buffer.capacity()));

        afterRotation.sign(buffer, 0, buffer.capacity());
        assertTrue(beforeRotation.verify(buffer, 0, buffer.capacity()));
        assertTrue(newOnly.verify(buffer, 0, buffer.capacity()));
    }

    @Test
    void shouldRejectAFrameSignedWithAnUnknownKey()
    {
        final UnsafeBuffer buffer = frame();
        FrameAuthenticator.withKey(Frames.OTHER_KEY).sign(buffer, 0, buffer.capacity());

        assertFalse(FrameAuthenticator.withKeys(List.of(Frames.KEY, NEW_KEY)).verify(buffer, 0, buffer.capacity()));
    }

    @Test
    void shouldLeaveTheTrailerZeroAndAcceptEverythingWhenOff()
    {
        final UnsafeBuffer buffer = frame();
        buffer.setMemory(buffer.capacity() - MAC_LENGTH, MAC_LENGTH, (byte)0x55);

        FrameAuthenticator.NONE.sign(buffer, 0, buffer.capacity());

        assertTrue(FrameAuthenticator.isUnsigned(buffer, 0, buffer.capacity()));
        assertTrue(FrameAuthenticator.NONE.verify(buffer, 0, buffer.capacity()));
        assertFalse(FrameAuthenticator.NONE.authenticates());
        assertEquals(0, FrameAuthenticator.NONE.keyCount());
        assertSame(FrameAuthenticator.NONE, FrameAuthenticator.NONE.newInstance());
    }

    @Test
    void shouldGiveANewInstanceTheSameKeysAndStateOfItsOwn()
    {
        final FrameAuthenticator original = FrameAuthenticator.withKeys(List.of(Frames.KEY, NEW_KEY));
        final FrameAuthenticator copy = original.newInstance();
        final UnsafeBuffer buffer = frame();

        copy.sign(buffer, 0, buffer.capacity());

        assertNotSame(original, copy);
        assertEquals(2, copy.keyCount());
        assertTrue(original.verify(buffer, 0, buffer.capacity()));
    }

    @Test
    void shouldCopyKeysSoTheCallerCannotChangeThem()
    {
        final byte[] key = Frames.key(1);
        final FrameAuthenticator authenticator = FrameAuthenticator.withKey(key);
        final UnsafeBuffer buffer = frame();
        authenticator.sign(buffer, 0, buffer.capacity());

        key[0]++;

        assertTrue(authenticator.verify(buffer, 0, buffer.capacity()));
    }

    @Test
    void shouldRefuseMalformedKeyrings()
    {
        assertThrows(IllegalArgumentException.class, () -> FrameAuthenticator.withKeys(List.of()));
        assertThrows(IllegalArgumentException.class, () -> FrameAuthenticator.withKeys(
            List.of(Frames.key(1), Frames.key(2), Frames.key(3), Frames.key(4))));
        assertThrows(IllegalArgumentException.class, () -> FrameAuthenticator.withKey(new byte[16]));
        assertThrows(IllegalArgumentException.class, () -> FrameAuthenticator.withKey(new byte[33]));
        final IllegalArgumentException repeat = assertThrows(IllegalArgumentException.class,
            () -> FrameAuthenticator.withKeys(List.of(Frames.key(1), Frames.key(2), Frames.key(1))));
        assertEquals("key 3 repeats key 1", repeat.getMessage());
        assertEquals(3, FrameAuthenticator.withKeys(List.of(Frames.key(1), Frames.key(2), Frames.key(3))).keyCount());
    }

    private static UnsafeBuffer frame()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[HeartbeatFlyweight.LENGTH]);
        for (int i = 0; i < buffer.capacity(); i++)
        {
            buffer.putByte(i, (byte)(i * 31));
        }
        return buffer;
    }
}
