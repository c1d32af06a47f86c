package io.ringwatch.transport.rdma;

import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * The three messages that authenticate an RDMA connection before the observer's slot is writable over it, and
 * their MAC. Every message is {@value #LENGTH} bytes, little-endian, and ends with the same truncated HMAC-SHA-256
 * under the cluster keyring that frames carry ({@link FrameAuthenticator}):
 * <pre>
 *   0 magic "RWRH"    4 kind          8 cluster id     12 config digest
 *  16 run id (8)                     24 sender rank   28 receiver rank (-1: not known yet)
 *  32 sender incarnation (8)         40 sender nonce (8)
 *  48 echoed nonce (8)               56 slot address (8)
 *  64 slot rkey      68 slot length  72 reserved, zero (8)
 *  80 MAC (16)
 * </pre>
 * The exchange, on the new queue pair, observer first:
 * <ol>
 * <li>{@link #CHALLENGE} (observer → emitter): the observer's rank, incarnation and a fresh nonce.</li>
 * <li>{@link #HELLO} (emitter → observer): the emitter's rank, incarnation and fresh nonce, echoing the observer's
 * nonce. The observer now knows the emitter holds the key and is not replaying: only then, and only for a rank it
 * expects, does it register its slot for remote write on this connection alone.</li>
 * <li>{@link #GRANT} (observer → emitter): that registration (address, rkey, length), echoing the emitter's nonce,
 * so the emitter knows the slot comes from the observer it asked for and not from a recording.</li>
 * </ol>
 * The magic's first byte is not a frame version, and no frame type is {@value #LENGTH} bytes with this layout, so a
 * message sent elsewhere is not taken for a frame. Not thread safe; one instance per node, agent thread only.
 */
final class RdmaHello
{
    /** Every message's length, MAC included. */
    static final int LENGTH = 96;
    /** Observer → emitter: opens the exchange with the observer's nonce. */
    static final int CHALLENGE = 1;
    /** Emitter → observer: proves the key and echoes the challenge. */
    static final int HELLO = 2;
    /** Observer → emitter: the slot, echoing the hello's nonce. */
    static final int GRANT = 3;
    /** The receiver field of a challenge: the observer does not know yet who connected. */
    static final int UNKNOWN_RANK = -1;

    static final int MAGIC = 'R' | 'W' << 8 | 'R' << 16 | 'H' << 24;
    static final int MAGIC_OFFSET = 0;
    static final int KIND_OFFSET = 4;
    static final int CLUSTER_ID_OFFSET = 8;
    static final int CONFIG_DIGEST_OFFSET = 12;
    static final int RUN_ID_OFFSET = 16;
    static final int SENDER_RANK_OFFSET = 24;
    static final int RECEIVER_RANK_OFFSET = 28;
    static final int INCARNATION_OFFSET = 32;
    static final int NONCE_OFFSET = 40;
    static final int ECHO_OFFSET = 48;
    static final int SLOT_ADDRESS_OFFSET = 56;
    static final int SLOT_RKEY_OFFSET = 64;
    static final int SLOT_LENGTH_OFFSET = 68;
    static final int RESERVED_OFFSET = 72;
    static final int MAC_OFFSET = LENGTH - FrameHeaderFlyweight.MAC_LENGTH;

    private final FrameAuthenticator authenticator;
    private final int clusterId;
    private final int configDigest;
    private final long runId;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[LENGTH]);

    /**
     * @param authenticator the node's keyring, the one its frames use (rotated in place with it).
     * @param clusterId     the cluster file's id.
     * @param configDigest  what every node of the cluster agrees on ({@code ConfigDigest}).
     * @param runId         the run this connection belongs to; 0 until runs are named.
     */
    RdmaHello(final FrameAuthenticator authenticator, final int clusterId, final int configDigest, final long runId)
    {
        this.authenticator = authenticator;
        this.clusterId = clusterId;
        this.configDigest = configDigest;
        this.runId = runId;
    }

    /**
     * Build and sign one message in this instance's buffer; valid until the next call.
     *
     * @return the signed message, {@value #LENGTH} bytes from 0.
     */
    DirectBuffer encode(
        final int kind,
        final int senderRank,
        final int receiverRank,
        final long incarnation,
        final long nonce,
        final long echo,
        final RemoteSlot slot)
    {
        out.putInt(MAGIC_OFFSET, MAGIC, LITTLE_ENDIAN);
        out.putInt(KIND_OFFSET, kind, LITTLE_ENDIAN);
        out.putInt(CLUSTER_ID_OFFSET, clusterId, LITTLE_ENDIAN);
        out.putInt(CONFIG_DIGEST_OFFSET, configDigest, LITTLE_ENDIAN);
        out.putLong(RUN_ID_OFFSET, runId, LITTLE_ENDIAN);
        out.putInt(SENDER_RANK_OFFSET, senderRank, LITTLE_ENDIAN);
        out.putInt(RECEIVER_RANK_OFFSET, receiverRank, LITTLE_ENDIAN);
        out.putLong(INCARNATION_OFFSET, incarnation, LITTLE_ENDIAN);
        out.putLong(NONCE_OFFSET, nonce, LITTLE_ENDIAN);
        out.putLong(ECHO_OFFSET, echo, LITTLE_ENDIAN);
        out.putLong(SLOT_ADDRESS_OFFSET, slot == null ? 0 : slot.address(), LITTLE_ENDIAN);
        out.putInt(SLOT_RKEY_OFFSET, slot == null ? 0 : slot.rkey(), LITTLE_ENDIAN);
        out.putInt(SLOT_LENGTH_OFFSET, slot == null ? 0 : slot.length(), LITTLE_ENDIAN);
        out.putLong(RESERVED_OFFSET, 0L, LITTLE_ENDIAN);
        authenticator.sign(out, 0, LENGTH);
        return out;
    }

    /**
     * Check what every message must satisfy, the MAC last: cheap refusals first.
     *
     * @return {@code null} if the message is a well-formed {@code kind} of this cluster and run, addressed to
     * {@code selfRank} (or to nobody yet, for a challenge), under one of the keys; else why not.
     */
    String check(final DirectBuffer message, final int offset, final int kind, final int selfRank)
    {
        if (message.getInt(offset + MAGIC_OFFSET, LITTLE_ENDIAN) != MAGIC)
        {
            return "not a handshake message";
        }
        if (message.getInt(offset + KIND_OFFSET, LITTLE_ENDIAN) != kind)
        {
            return "kind " + message.getInt(offset + KIND_OFFSET, LITTLE_ENDIAN) + " where " + kind + " was due";
        }
        if (message.getInt(offset + CLUSTER_ID_OFFSET, LITTLE_ENDIAN) != clusterId ||
            message.getInt(offset + CONFIG_DIGEST_OFFSET, LITTLE_ENDIAN) != configDigest)
        {
            return "another cluster or configuration";
        }
        if (message.getLong(offset + RUN_ID_OFFSET, LITTLE_ENDIAN) != runId)
        {
            return "another run";
        }
        final int receiver = message.getInt(offset + RECEIVER_RANK_OFFSET, LITTLE_ENDIAN);
        if (receiver != (kind == CHALLENGE ? UNKNOWN_RANK : selfRank))
        {
            return "addressed to rank " + receiver;
        }
        if (message.getLong(offset + RESERVED_OFFSET, LITTLE_ENDIAN) != 0)
        {
            return "reserved bytes set";
        }
        if (!authenticator.verify(message, offset, LENGTH))
        {
            return "bad MAC";
        }
        return null;
    }

    static int senderRank(final DirectBuffer message, final int offset)
    {
        return message.getInt(offset + SENDER_RANK_OFFSET, LITTLE_ENDIAN);
    }

    static long incarnation(final DirectBuffer message, final int offset)
    {
        return message.getLong(offset + INCARNATION_OFFSET, LITTLE_ENDIAN);
    }

    static long nonce(final DirectBuffer message, final int offset)
    {
        return message.getLong(offset + NONCE_OFFSET, LITTLE_ENDIAN);
    }

    static long echo(final DirectBuffer message, final int offset)
    {
        return message.getLong(offset + ECHO_OFFSET, LITTLE_ENDIAN);
    }

    static long slotAddress(final DirectBuffer message, final int offset)
    {
        return message.getLong(offset + SLOT_ADDRESS_OFFSET, LITTLE_ENDIAN);
    }

    static int slotRkey(final DirectBuffer message, final int offset)
    {
        return message.getInt(offset + SLOT_RKEY_OFFSET, LITTLE_ENDIAN);
    }

    static int slotLength(final DirectBuffer message, final int offset)
    {
        return message.getInt(offset + SLOT_LENGTH_OFFSET, LITTLE_ENDIAN);
    }
}
