package io.ringwatch.transport.aeron.auth;

import io.ringwatch.core.codec.FrameAuthenticator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A cluster keyring on disk: one key per line as {@value #HEX_DIGITS} hex digits ({@value
 * FrameAuthenticator#KEY_LENGTH} bytes), the first line the primary (signs), up to two more accepted on receipt;
 * blank lines and lines starting with {@code #} are ignored.
 * <p>
 * Rotation: add the new key as a second line on every node (accepted everywhere), then move it to the first line on
 * every node (it signs; the old key is still accepted from nodes not yet changed), then remove the old key. A node
 * reads its key file when it starts.
 * <p>
 * A key file is refused unless it belongs to the user running the node and only that user may read or write it
 * (mode 0600 or 0400): a readable key lets every local user forge frames, and its owner can change it. The file is
 * opened once and the attributes checked are those of the opened file ({@link OpenedFiles}), so a file swapped in
 * after the check is never read. A key that is one byte repeated (all zero, say) is refused: a placeholder, not a
 * secret. Error messages never contain key material; {@link #fingerprint} names a key in logs.
 */
public final class KeyFile
{
    /** Hex digits of one key. */
    public static final int HEX_DIGITS = 2 * FrameAuthenticator.KEY_LENGTH;

    private static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");

    private static final byte[] FINGERPRINT_LABEL =
        "ringwatch key fingerprint v1".getBytes(StandardCharsets.US_ASCII);

    /** Largest key file read: three key lines and room for comments. */
    private static final int MAX_FILE_BYTES = 64 * 1024;

    private KeyFile()
    {
    }

    /**
     * Read a keyring after checking who owns it and who may read it.
     *
     * @param path key file.
     * @return its keys, primary first: 1 to {@value FrameAuthenticator#MAX_KEYS}.
     * @throws IllegalArgumentException saying what is wrong: missing, not this user's, readable by others, malformed,
     *                                  or a key that is no secret.
     */
    public static List<byte[]> load(final Path path)
    {
        return load(path, System.getProperty("user.name"));
    }

    static List<byte[]> load(final Path path, final String user)
    {
        final String text = readOwnerOnly(path, user);
        final String[] lines = text.split("\n", -1);
        final List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < lines.length; i++)
        {
            final String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            keys.add(parseKey(path, i + 1, line));
        }
        if (keys.isEmpty())
        {
            throw new IllegalArgumentException("key file " + path + " holds no key");
        }
        if (keys.size() > FrameAuthenticator.MAX_KEYS)
        {
            throw new IllegalArgumentException("key file " + path + " holds " + keys.size() + " keys; at most " +
                FrameAuthenticator.MAX_KEYS + " (the primary, then the keys still accepted during a rotation)");
        }
        return keys;
    }

    /**
     * Open the file once, check the attributes of what was opened (not of whatever the path names a moment later:
     * a file swapped in between a check and a read is never read), and read it through the same handle.
     */
    private static String readOwnerOnly(final Path path, final String user)
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            checkPermissions(path, OpenedFiles.attributes(channel, path), user);
            if (channel.size() > MAX_FILE_BYTES)
            {
                throw new IllegalArgumentException("key file " + path + " is " + channel.size() + " bytes: a keyring " +
                    "is at most " + MAX_FILE_BYTES + " (" + FrameAuthenticator.MAX_KEYS + " key lines and comments)");
            }
            final ByteBuffer bytes = ByteBuffer.allocate((int)channel.size());
            channel.position(0);
            while (bytes.hasRemaining() && channel.read(bytes) >= 0)
            {
                // read to the end
            }
            return new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException("key file " + path + " does not exist (make one with: " +
                "java -jar ringwatch.jar keygen --out " + path + ")", ex);
        }
        catch (final UnsupportedOperationException ex)
        {
            throw new IllegalArgumentException("key file " + path + " is on a file system without POSIX " +
                "permissions, so nothing shows that other users cannot read it; keep it on one that has them", ex);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("key file " + path + ": cannot read it: " + ex, ex);
        }
    }

    /**
     * Load a keyring and build the authenticator for it.
     *
     * @param path key file.
     * @return an authenticator signing with the first key and accepting all.
     * @throws IllegalArgumentException saying what is wrong with the file or its keys.
     */
    public static FrameAuthenticator authenticator(final Path path)
    {
        final List<byte[]> keys = load(path);
        try
        {
            return FrameAuthenticator.withKeys(keys);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("key file " + path + ": " + ex.getMessage(), ex);
        }
    }

    private static void checkPermissions(final Path path, final PosixFileAttributes attributes, final String user)
    {
        if (!attributes.isRegularFile())
        {
            throw new IllegalArgumentException("key file " + path + " is not a regular file");
        }
        final String owner = attributes.owner().getName();
        if (!owner.equals(user))
        {
            throw new IllegalArgumentException("key file " + path + " belongs to " + owner + ", not to " + user +
                " who runs this node: its owner can change the cluster's key. Fix: chown " + user + " " + path +
                " (or make a key of this user's own with java -jar ringwatch.jar keygen --out FILE)");
        }
        final Set<PosixFilePermission> permissions = attributes.permissions();
        final List<String> problems = new ArrayList<>();
        if (permissions.contains(PosixFilePermission.GROUP_READ) ||
            permissions.contains(PosixFilePermission.GROUP_WRITE))
        {
            problems.add(permissions.contains(PosixFilePermission.GROUP_READ) ? "readable by its group" :
                "writable by its group");
        }
        if (permissions.contains(PosixFilePermission.OTHERS_READ) ||
            permissions.contains(PosixFilePermission.OTHERS_WRITE))
        {
            problems.add(permissions.contains(PosixFilePermission.OTHERS_READ) ? "readable by other users" :
                "writable by other users");
        }
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException("key file " + path + " is " + String.join(" and ", problems) +
                " (mode " + PosixFilePermissions.toString(permissions) + "): whoever can read it can forge frames " +
                "that exclude any node; refusing it. Fix: chmod 600 " + path);
        }
    }

    /**
     * @param random source of the key.
     * @return a fresh {@value FrameAuthenticator#KEY_LENGTH}-byte key.
     */
    public static byte[] generate(final SecureRandom random)
    {
        final byte[] key = new byte[FrameAuthenticator.KEY_LENGTH];
        random.nextBytes(key);
        return key;
    }

    /**
     * @param key a key.
     * @return its line in a key file.
     */
    public static String toLine(final byte[] key)
    {
        return HexFormat.of().formatHex(key);
    }

    /**
     * Create a new key file holding one key, readable and writable by its owner only from the moment it exists.
     *
     * @param path where; must not exist.
     * @param key  the key.
     * @throws IllegalArgumentException if the file exists or cannot be created with owner-only permissions.
     */
    public static void create(final Path path, final byte[] key)
    {
        try
        {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE));
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new IllegalArgumentException(path + " exists: refusing to overwrite a keyring (to add a key for " +
                "a rotation: java -jar ringwatch.jar keygen >> " + path + ")", ex);
        }
        catch (final UnsupportedOperationException ex)
        {
            throw new IllegalArgumentException(path + " is on a file system without POSIX permissions: cannot " +
                "create a key file only its owner can read", ex);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot create key file " + path + ": " + ex, ex);
        }
        try
        {
            // the umask may only have taken bits away; make sure the owner can still read and write it
            Files.setPosixFilePermissions(path, OWNER_READ_WRITE);
            Files.writeString(path, "# ringwatch cluster keyring: first key signs, up to two more are accepted\n" +
                toLine(key) + "\n", StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot write key file " + path + ": " + ex, ex);
        }
    }

    /**
     * @param key a key.
     * @return the first 8 hex digits of its {@link #fingerprintValue}: names a key in logs without revealing it.
     */
    public static String fingerprint(final byte[] key)
    {
        return fingerprint(fingerprintValue(key));
    }

    /**
     * @param fingerprintValue a {@link #fingerprintValue}.
     * @return its first 8 hex digits, as {@link #fingerprint(byte[])} writes them.
     */
    public static String fingerprint(final long fingerprintValue)
    {
        return String.format("%08x", fingerprintValue >>> 32);
    }

    /**
     * The key's fingerprint: the first 8 bytes of HMAC-SHA256 under the key of a fixed label, so it is bound to the
     * key (only a holder can compute it) and tells nothing about it or about any MAC the key makes.
     *
     * @param key a key.
     * @return its fingerprint, big-endian.
     */
    public static long fingerprintValue(final byte[] key)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return ByteBuffer.wrap(mac.doFinal(FINGERPRINT_LABEL)).getLong();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 is required of every Java platform", ex);
        }
    }

    private static byte[] parseKey(final Path path, final int lineNumber, final String line)
    {
        if (line.length() != HEX_DIGITS)
        {
            throw new IllegalArgumentException("key file " + path + " line " + lineNumber + ": expected " +
                HEX_DIGITS + " hex digits (a " + FrameAuthenticator.KEY_LENGTH + "-byte key), found " +
                line.length() + " characters");
        }
        final byte[] key;
        try
        {
            key = HexFormat.of().parseHex(line);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("key file " + path + " line " + lineNumber + ": not hexadecimal");
        }
        if (isOneByteRepeated(key))
        {
            // says which byte: the key is no secret, and naming it tells the operator which placeholder was left
            throw new IllegalArgumentException("key file " + path + " line " + lineNumber + ": the key is one byte " +
                "repeated (" + String.format("0x%02x", key[0] & 0xFF) + " x " + key.length + "), a placeholder " +
                "anyone can guess, not a secret; make a real one with java -jar ringwatch.jar keygen");
        }
        return key;
    }

    private static boolean isOneByteRepeated(final byte[] key)
    {
        for (final byte b : key)
        {
            if (b != key[0])
            {
                return false;
            }
        }
        return true;
    }
}
