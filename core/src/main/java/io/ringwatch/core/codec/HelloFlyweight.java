package io.ringwatch.core.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * HELLO: what a node says about its key and configuration to the heartbeat port of a peer, so that both can name
 * why the other's frames fail (a key or a setting that differs) instead of dropping them in silence. Fixed size,
 * little-endian, not authenticated: it claims, it never proves, and a receiver only logs and counts it (see
 * docs/security.md for what a forged one can and cannot do).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |  Zero (byte)  |   'H' (byte)  |        Hello Version          |
 *  +---------------+---------------+-------------------------------+
 *  |                        Magic 'RWHL'                           |
 *  +---------------------------------------------------------------+
 *  |                          Cluster ID                           |
 *  +---------------------------------------------------------------+
 *  |                          Sender Rank                          |
 *  +---------------------------------------------------------------+
 *  |       Flags (1: a reply, 2: answer me, 4: established)        |
 *  +---------------------------------------------------------------+
 *  |                         Cluster Size                          |
 *  +---------------------------------------------------------------+
 *  |            Key Fingerprint (truncated HMAC, 8 bytes)          |
 *  +---------------------------------------------------------------+
 *  |                   Heartbeat Period η (ns, 8)                  |
 *  +---------------------------------------------------------------+
 *  |                  Suspicion Timeout δ (ns, 8)                  |
 *  +---------------------------------------------------------------+
 *  |                         Frame Version                         |
 *  +---------------------------------------------------------------+
 *  |                             Seeds                             |
 *  +---------------------------------------------------------------+
 *  |                           Job Digest                          |
 *  +---------------+---------------+-------------------------------+
 *  |   Broadcast   |   Partition   |            Zero               |
 *  +---------------+---------------+-------------------------------+
 * </pre>
 * The first byte is zero where every frame has its version (2 or more): every decoder refuses a hello as a frame, so
 * one that reaches a frame port is dropped like any junk, and a hello is never mistaken for a frame.
 */
public final class HelloFlyweight
{
    /** Total length: as long as a heartbeat, so it fits the heartbeat port's receive buffer. */
    public static final int LENGTH = 64;

    /** Hello layout version. */
    public static final int HELLO_VERSION = 1;

    /** Flag: this hello answers another (one that differed, or one that asked); it is never answered itself. */
    public static final int FLAG_REPLY = 1;

    /**
     * Flag: answer this hello even if nothing differs. Sent by a node still deciding how to boot or whether it is the
     * odd one out of its cluster's key and settings (see {@code BootHearing}).
     */
    public static final int FLAG_ASK = 2;

    /** Flag, on a reply: the sender is a member past its startup grace, so its cluster is up. */
    public static final int FLAG_ESTABLISHED = 4;

    private static final int MARKER = 'H';
    private static final int MAGIC = 0x4C485752;
    private static final int MARKER_OFFSET = 1;
    private static final int HELLO_VERSION_OFFSET = 2;
    private static final int MAGIC_OFFSET = 4;
    private static final int CLUSTER_ID_OFFSET = 8;
    private static final int SENDER_RANK_OFFSET = 12;
    private static final int FLAGS_OFFSET = 16;
    private static final int CLUSTER_SIZE_OFFSET = 20;
    private static final int FINGERPRINT_OFFSET = 24;
    private static final int HEARTBEAT_PERIOD_OFFSET = 32;
    private static final int SUSPICION_TIMEOUT_OFFSET = 40;
    private static final int FRAME_VERSION_OFFSET = 48;
    private static final int SEEDS_OFFSET = 52;
    private static final int JOB_DIGEST_OFFSET = 56;
    private static final int BROADCAST_OFFSET = 60;
    private static final int PARTITION_POLICY_OFFSET = 61;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;

    /**
     * @param buffer a datagram.
     * @param offset where it starts.
     * @param length its length.
     * @return true if it is shaped as a hello of this layout version.
     */
    public static boolean isHello(final DirectBuffer buffer, final int offset, final int length)
    {
        return length == LENGTH && offset >= 0 && offset <= buffer.capacity() - LENGTH &&
            buffer.getByte(offset) == 0 && buffer.getByte(offset + MARKER_OFFSET) == MARKER &&
            (buffer.getShort(offset + HELLO_VERSION_OFFSET, ORDER) & 0xFFFF) == HELLO_VERSION &&
            buffer.getInt(offset + MAGIC_OFFSET, ORDER) == MAGIC;
    }

    /**
     * @param buffer to read or write.
     * @param offset where the hello starts.
     * @return this.
     */
    public HelloFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Write a whole hello.
     *
     * @return this.
     */
    public HelloFlyweight encode(
        final int clusterId,
        final int senderRank,
        final int flags,
        final int clusterSize,
        final long keyFingerprint,
        final long heartbeatPeriodNs,
        final long suspicionTimeoutNs,
        final int frameVersion,
        final int seeds,
        final int jobDigest,
        final int broadcast,
        final int partitionPolicy)
    {
        buffer.setMemory(offset, LENGTH, (byte)0);
        buffer.putByte(offset + MARKER_OFFSET, (byte)MARKER);
        buffer.putShort(offset + HELLO_VERSION_OFFSET, (short)HELLO_VERSION, ORDER);
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putInt(offset + CLUSTER_ID_OFFSET, clusterId, ORDER);
        buffer.putInt(offset + SENDER_RANK_OFFSET, senderRank, ORDER);
        buffer.putInt(offset + FLAGS_OFFSET, flags, ORDER);
        buffer.putInt(offset + CLUSTER_SIZE_OFFSET, clusterSize, ORDER);
        buffer.putLong(offset + FINGERPRINT_OFFSET, keyFingerprint, ORDER);
        buffer.putLong(offset + HEARTBEAT_PERIOD_OFFSET, heartbeatPeriodNs, ORDER);
        buffer.putLong(offset + SUSPICION_TIMEOUT_OFFSET, suspicionTimeoutNs, ORDER);
        buffer.putInt(offset + FRAME_VERSION_OFFSET, frameVersion, ORDER);
        buffer.putInt(offset + SEEDS_OFFSET, seeds, ORDER);
        buffer.putInt(offset + JOB_DIGEST_OFFSET, jobDigest, ORDER);
        buffer.putByte(offset + BROADCAST_OFFSET, (byte)broadcast);
        buffer.putByte(offset + PARTITION_POLICY_OFFSET, (byte)partitionPolicy);
        return this;
    }

    /** @return cluster id. */
    public int clusterId()
    {
        return buffer.getInt(offset + CLUSTER_ID_OFFSET, ORDER);
    }

    /** @return the rank the sender claims. */
    public int senderRank()
    {
        return buffer.getInt(offset + SENDER_RANK_OFFSET, ORDER);
    }

    /** @return flags. */
    public int flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET, ORDER);
    }

    /** @return N. */
    public int clusterSize()
    {
        return buffer.getInt(offset + CLUSTER_SIZE_OFFSET, ORDER);
    }

    /** @return the fingerprint of the sender's primary key, 0 with authentication off. */
    public long keyFingerprint()
    {
        return buffer.getLong(offset + FINGERPRINT_OFFSET, ORDER);
    }

    /** @return η. */
    public long heartbeatPeriodNs()
    {
        return buffer.getLong(offset + HEARTBEAT_PERIOD_OFFSET, ORDER);
    }

    /** @return δ. */
    public long suspicionTimeoutNs()
    {
        return buffer.getLong(offset + SUSPICION_TIMEOUT_OFFSET, ORDER);
    }

    /** @return the frame version the sender speaks. */
    public int frameVersion()
    {
        return buffer.getInt(offset + FRAME_VERSION_OFFSET, ORDER);
    }

    /** @return seeds. */
    public int seeds()
    {
        return buffer.getInt(offset + SEEDS_OFFSET, ORDER);
    }

    /** @return the job digest (two levels), 0 without. */
    public int jobDigest()
    {
        return buffer.getInt(offset + JOB_DIGEST_OFFSET, ORDER);
    }

    /** @return the broadcast schedule's ordinal. */
    public int broadcast()
    {
        return buffer.getByte(offset + BROADCAST_OFFSET);
    }

    /** @return the partition policy's ordinal. */
    public int partitionPolicy()
    {
        return buffer.getByte(offset + PARTITION_POLICY_OFFSET);
    }
}
