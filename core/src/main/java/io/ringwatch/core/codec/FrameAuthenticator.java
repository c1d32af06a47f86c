package io.ringwatch.core.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.MAC_LENGTH;

/**
 * Signs and verifies frames under a cluster keyring: HMAC-SHA-256 (RFC 2104) of every byte before the MAC trailer,
 * truncated to its first {@value FrameHeaderFlyweight#MAC_LENGTH} bytes (RFC 2104 §5 allows truncation to half the
 * hash), written as the frame's last bytes.
 * <p>
 * <b>Keyring.</b> The first key is the primary: frames are signed with it. Up to {@value #MAX_KEYS} keys in all
 * are accepted on receipt, primary first, so a cluster rotates keys without downtime: add the new key as an accepted
 * key everywhere, then make it primary everywhere, then drop the old one (as memberlist's keyring does).
 * <p>
 * <b>Off.</b> {@link #NONE} signs nothing (the trailer stays zero) and accepts every frame: for clusters that run
 * with authentication off, where anyone who can reach a node can speak for any rank.
 * <p>
 * <b>Cost.</b> HMAC is built here on one reused {@link MessageDigest} rather than through {@code javax.crypto.Mac},
 * whose {@code doFinal} allocates a fresh array for every MAC: sign and verify allocate nothing. A MAC costs four
 * SHA-256 compressions (inner pad, data, outer pad, inner hash) for frames up to 55 bytes of signed data, one more per
 * further 64 bytes. Verification is tried with each key in turn, so a frame that matches none costs at most
 * {@value #MAX_KEYS} MACs: O(1) per bad frame. MAC comparison takes the same time wherever the bytes differ.
 * <p>
 * Not thread safe: one instance per thread ({@link #newInstance()} makes another with the same keys).
 */
public final class FrameAuthenticator
{
    /** Length of every key in bytes: the SHA-256 output size, as RFC 2104 recommends. */
    public static final int KEY_LENGTH = 32;

    /** Most keys a keyring holds: the primary and two more accepted on receipt. */
    public static final int MAX_KEYS = 3;

    /** Authentication off: signs with a zero MAC and accepts every frame. Stateless, so shared. */
    public static final FrameAuthenticator NONE = new FrameAuthenticator();

    private static final int BLOCK_LENGTH = 64;
    private static final int HASH_LENGTH = 32;
    private static final int CHUNK_LENGTH = 512;
    private static final byte INNER_PAD = 0x36;
    private static final byte OUTER_PAD = 0x5C;

    private byte[][] keys;
    private byte[][] innerPads;
    private byte[][] outerPads;
    private final MessageDigest sha256;
    private final byte[] chunk;
    private final byte[] hash = new byte[HASH_LENGTH];

    private FrameAuthenticator()
    {
        keys = new byte[0][];
        innerPads = null;
        outerPads = null;
        sha256 = null;
        chunk = null;
    }

    private FrameAuthenticator(final byte[][] keys)
    {
        this.keys = keys;
        innerPads = new byte[keys.length][];
        outerPads = new byte[keys.length][];
        for (int k = 0; k < keys.length; k++)
        {
            innerPads[k] = pad(keys[k], INNER_PAD);
            outerPads[k] = pad(keys[k], OUTER_PAD);
        }
        sha256 = newSha256();
        chunk = new byte[CHUNK_LENGTH];
    }

    /**
     * A keyring: the first key signs, every key is accepted.
     *
     * @param keys 1 to {@value #MAX_KEYS} keys of {@value #KEY_LENGTH} bytes each, all distinct; copied.
     * @return an authenticator holding them.
     * @throws IllegalArgumentException naming what is wrong with the keys.
     */
    public static FrameAuthenticator withKeys(final List<byte[]> keys)
    {
        if (keys.isEmpty() || keys.size() > MAX_KEYS)
        {
            throw new IllegalArgumentException(
                "a keyring holds 1 to " + MAX_KEYS + " keys (primary first): got " + keys.size());
        }
        final byte[][] copies = new byte[keys.size()][];
        for (int k = 0; k < copies.length; k++)
        {
            final byte[] key = keys.get(k);
            if (key == null || key.length != KEY_LENGTH)
            {
                throw new IllegalArgumentException("key " + (k + 1) + " must be " + KEY_LENGTH + " bytes: got " +
                    (key == null ? "none" : key.length));
            }
            for (int j = 0; j < k; j++)
            {
                if (Arrays.equals(copies[j], key))
                {
                    throw new IllegalArgumentException("key " + (k + 1) + " repeats key " + (j + 1));
                }
            }
            copies[k] = key.clone();
        }
        return new FrameAuthenticator(copies);
    }

    /**
     * @param primary the one key, used to sign and to verify.
     * @return an authenticator holding it.
     */
    public static FrameAuthenticator withKey(final byte[] primary)
    {
        return withKeys(List.of(primary));
    }

    /**
     * @return another authenticator with the same keys and state of its own, for another thread; {@link #NONE} for
     * {@link #NONE}.
     */
    public FrameAuthenticator newInstance()
    {
        return this == NONE ? NONE : new FrameAuthenticator(keys);
    }

    /**
     * Take another keyring's keys, in place, so every decoder and stamper holding this instance signs and verifies with
     * them from now on: key rotation without a restart. Call it on the thread that uses this instance; the
     * replacement may have been built on another (hand it over through a volatile field).
     *
     * @param replacement a keyring from {@link #withKeys(List)}; its key arrays are shared, never modified.
     * @throws IllegalStateException if either is {@link #NONE}: a reload cannot turn authentication on or off.
     */
    public void rekey(final FrameAuthenticator replacement)
    {
        if (this == NONE || replacement == NONE)
        {
            throw new IllegalStateException("a key reload cannot turn authentication on or off");
        }
        keys = replacement.keys;
        innerPads = replacement.innerPads;
        outerPads = replacement.outerPads;
    }

    /**
     * @return false for {@link #NONE}: frames are neither signed nor checked.
     */
    public boolean authenticates()
    {
        return sha256 != null;
    }

    /**
     * @return keys held, the primary first; 0 for {@link #NONE}.
     */
    public int keyCount()
    {
        return keys.length;
    }

    /**
     * Write the MAC of a frame, under the primary key, into its last {@value FrameHeaderFlyweight#MAC_LENGTH} bytes;
     * zero them when authentication is off.
     *
     * @param buffer holding the frame.
     * @param offset at which the frame begins.
     * @param length of the whole frame, trailer included; at least the trailer.
     */
    public void sign(final MutableDirectBuffer buffer, final int offset, final int length)
    {
        final int macOffset = offset + length - MAC_LENGTH;
        if (sha256 == null)
        {
            buffer.setMemory(macOffset, MAC_LENGTH, (byte)0);
            return;
        }
        mac(0, buffer, offset, length - MAC_LENGTH);
        buffer.putBytes(macOffset, hash, 0, MAC_LENGTH);
    }

    /**
     * Whether a frame's trailer is its MAC under one of the keys. Reads only bytes inside the frame.
     *
     * @param buffer holding the frame.
     * @param offset at which the frame begins.
     * @param length of the whole frame, trailer included; at least the trailer, inside the buffer.
     * @return true if some key's MAC matches; always true when authentication is off.
     */
    public boolean verify(final DirectBuffer buffer, final int offset, final int length)
    {
        if (sha256 == null)
        {
            return true;
        }
        final int macOffset = offset + length - MAC_LENGTH;
        for (int k = 0; k < keys.length; k++)
        {
            mac(k, buffer, offset, length - MAC_LENGTH);
            int difference = 0;
            for (int i = 0; i < MAC_LENGTH; i++)
            {
                difference |= hash[i] ^ buffer.getByte(macOffset + i);
            }
            if (difference == 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param buffer holding the frame.
     * @param offset at which the frame begins.
     * @param length of the whole frame, trailer included.
     * @return true if the trailer is all zero: the sender runs with authentication off.
     */
    public static boolean isUnsigned(final DirectBuffer buffer, final int offset, final int length)
    {
        final int macOffset = offset + length - MAC_LENGTH;
        return buffer.getLong(macOffset) == 0 && buffer.getLong(macOffset + Long.BYTES) == 0;
    }

    /**
     * HMAC-SHA-256 of {@code length} bytes under key {@code k}, into {@link #hash}.
     */
    private void mac(final int k, final DirectBuffer buffer, final int offset, final int length)
    {
        final MessageDigest digest = sha256;
        digest.update(innerPads[k], 0, BLOCK_LENGTH);
        for (int done = 0; done < length; done += CHUNK_LENGTH)
        {
            final int n = Math.min(CHUNK_LENGTH, length - done);
            buffer.getBytes(offset + done, chunk, 0, n);
            digest.update(chunk, 0, n);
        }
        finish(digest);
        digest.update(outerPads[k], 0, BLOCK_LENGTH);
        digest.update(hash, 0, HASH_LENGTH);
        finish(digest);
    }

    private void finish(final MessageDigest digest)
    {
        try
        {
            digest.digest(hash, 0, HASH_LENGTH);
        }
        catch (final java.security.DigestException ex)
        {
            throw new IllegalStateException("SHA-256 refused a " + HASH_LENGTH + "-byte output", ex);
        }
    }

    private static byte[] pad(final byte[] key, final byte value)
    {
        final byte[] pad = new byte[BLOCK_LENGTH];
        for (int i = 0; i < BLOCK_LENGTH; i++)
        {
            pad[i] = (byte)((i < key.length ? key[i] : 0) ^ value);
        }
        return pad;
    }

    private static MessageDigest newSha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
        }
    }
}
