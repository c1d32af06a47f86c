package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Small helpers shared by the codec tests.
 */
final class Frames
{
    /** A cluster key for tests: bytes 1..32. */
    static final byte[] KEY = key(1);
    /** Another key, unknown to {@link #KEY}'s keyring. */
    static final byte[] OTHER_KEY = key(101);

    private Frames()
    {
    }

    /**
     * @param first value of the first byte; the others follow it.
     * @return a {@link FrameAuthenticator#KEY_LENGTH}-byte key.
     */
    static byte[] key(final int first)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(first + i);
        }
        return key;
    }

    /**
     * Stamp a frame with a chosen sequence and sign it, as {@link FrameStamper} would with that sequence next.
     */
    static int seal(
        final FrameAuthenticator authenticator,
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final long frameSequence)
    {
        return seal(authenticator, buffer, offset, length, frameSequence, FrameHeaderFlyweight.UNBOUND_RUN);
    }

    /**
     * Stamp a frame with a chosen sequence and run and sign it, as {@link FrameStamper} would bound to that run.
     */
    static int seal(
        final FrameAuthenticator authenticator,
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final long frameSequence,
        final long run)
    {
        new FrameHeaderFlyweight().wrap(buffer, offset).frameSequence(frameSequence).runId(run);
        authenticator.sign(buffer, offset, length);
        return length;
    }

    static int[] toArray(final RankSet set)
    {
        final int[] ranks = new int[set.size()];
        for (int i = 0; i < ranks.length; i++)
        {
            ranks[i] = set.rankAt(i);
        }
        return ranks;
    }

    static byte[] bytes(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    static String hex(final DirectBuffer buffer, final int offset, final int length)
    {
        final StringBuilder sb = new StringBuilder(length * 3);
        for (int i = 0; i < length; i++)
        {
            sb.append(String.format("%02x", buffer.getByte(offset + i) & 0xFF));
            sb.append(i % 16 == 15 ? '\n' : ' ');
        }
        return sb.toString();
    }
}
