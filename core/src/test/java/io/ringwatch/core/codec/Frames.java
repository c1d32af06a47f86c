package io.ringwatch.core.codec;

import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;

/**
 * Small helpers shared by the codec tests.
 */
final class Frames
{
    private Frames()
    {
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
