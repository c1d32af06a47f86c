package io.ringwatch.core.codec;

import io.ringwatch.core.spi.FrameType;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_BYTE;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Header common to every Ringwatch frame, little-endian, and the MAC trailer that ends every frame.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    Version    |     Type      |         Flags (zero)          |
 *  +---------------+---------------+-------------------------------+
 *  |                          Cluster ID                           |
 *  +---------------------------------------------------------------+
 *  |                          Sender Rank                          |
 *  +---------------------------------------------------------------+
 *  |                      Sender Incarnation                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                       Destination Rank                        |
 *  +---------------------------------------------------------------+
 *  |                         Config Digest                         |
 *  +---------------------------------------------------------------+
 *  |                        Frame Sequence                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                            Run ID                             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          Body ...                            ...
 *  +---------------------------------------------------------------+
 *  |                 MAC (16 bytes, the last of the frame)         |
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * The destination is the rank the sender addressed, so a frame captured on its way to one node is refused by every
 * other. The config digest ({@link ConfigDigest}) is what every node of the cluster must agree on. The frame sequence
 * counts the frames one sender incarnation sent to one destination, from 1; {@link ReplayGuard} refuses one seen
 * before. The run id names the run of the cluster the sender is bound to ({@link FrameStamper#run}): a node accepts
 * a frame only under its own run, except the {@link #isUnbound unbound} types a joiner sends or needs before it knows
 * the run, so a frame recorded in an earlier run of the cluster is refused whatever else it carries. The MAC
 * ({@link FrameAuthenticator}) covers everything before it.
 * <p>
 * The {@code encode} helpers write the frame sequence, the run id and the MAC as zero; {@link FrameStamper} fills
 * them just before the frame is sent. Flyweights wrap a {@link MutableDirectBuffer} and do no bounds checks of their own beyond
 * Agrona's: the {@code encode} helpers check capacity, and {@link FrameDecoder} checks lengths before it reads a field.
 */
public class FrameHeaderFlyweight
{
    /**
     * Protocol version written and accepted: 2 added destination, config digest, frame sequence and MAC; 3 added the
     * subject incarnation to every notice and the JOIN, JOIN_REQUEST and VIEW frames; 4 added JOIN_CHALLENGE and
     * JOIN_PROOF (a contact admits a joiner only once it has returned a fresh nonce); 5 added the run id to the header,
     * the joiner's nonce to JOIN_REQUEST and JOIN_CHALLENGE; 6 made every incarnation 64-bit (the header's sender
     * incarnation, a notice's source and subject incarnations, a VIEW's entries).
     */
    public static final int VERSION = 6;

    /** {@link HeartbeatFlyweight}. */
    public static final int HEARTBEAT_TYPE = FrameType.HEARTBEAT;
    /** {@link NewObserverFlyweight}. */
    public static final int NEW_OBSERVER_TYPE = FrameType.NEW_OBSERVER;
    /** {@link FailureNoticeFlyweight}. */
    public static final int FAILURE_NOTICE_TYPE = FrameType.FAILURE_NOTICE;
    /** {@link LeaveFlyweight}. */
    public static final int LEAVE_TYPE = FrameType.LEAVE;
    /** {@link ProbeFlyweight}: asks for an answer. */
    public static final int PROBE_TYPE = FrameType.PROBE;
    /** {@link ProbeFlyweight}: the answer. */
    public static final int PROBE_ACK_TYPE = FrameType.PROBE_ACK;
    /** {@link ProcessFailureFlyweight}. */
    public static final int PROCESS_FAILURE_TYPE = FrameType.PROCESS_FAILURE;
    /** {@link FailureNoticeFlyweight} of a JOIN broadcast. */
    public static final int JOIN_TYPE = FrameType.JOIN;
    /** {@link ProbeFlyweight}'s layout: a restarted node asks a contact to admit it; the token is its own nonce. */
    public static final int JOIN_REQUEST_TYPE = FrameType.JOIN_REQUEST;
    /** {@link ViewFlyweight}. */
    public static final int VIEW_TYPE = FrameType.VIEW;
    /** {@link ProbeFlyweight}'s layout: the token field holds the digest of the sender's view. */
    public static final int VIEW_DIGEST_TYPE = FrameType.VIEW_DIGEST;
    /** {@link ProbeFlyweight}'s layout: the lowest rank, joining, polls whether every other rank is joining too. */
    public static final int REFORM_POLL_TYPE = FrameType.REFORM_POLL;
    /** {@link ProbeFlyweight}'s layout: a joiner's answer to a REFORM_POLL, the poll's token returned. */
    public static final int REFORM_ACK_TYPE = FrameType.REFORM_ACK;
    /** {@link ProbeFlyweight}'s layout: a contact's nonce for a joiner to return. */
    public static final int JOIN_CHALLENGE_TYPE = FrameType.JOIN_CHALLENGE;
    /** {@link ProbeFlyweight}'s layout: a joiner returns its contact's nonce. */
    public static final int JOIN_PROOF_TYPE = FrameType.JOIN_PROOF;

    /** Returned by {@code encode} helpers when the frame does not fit between offset and capacity. */
    public static final int INSUFFICIENT_CAPACITY = -2;

    private static final int VERSION_FIELD_OFFSET = 0;
    private static final int TYPE_FIELD_OFFSET = VERSION_FIELD_OFFSET + SIZE_OF_BYTE;
    private static final int FLAGS_FIELD_OFFSET = TYPE_FIELD_OFFSET + SIZE_OF_BYTE;
    private static final int CLUSTER_ID_FIELD_OFFSET = FLAGS_FIELD_OFFSET + SIZE_OF_SHORT;
    private static final int SENDER_RANK_FIELD_OFFSET = CLUSTER_ID_FIELD_OFFSET + SIZE_OF_INT;
    private static final int SENDER_INCARNATION_FIELD_OFFSET = SENDER_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int DESTINATION_RANK_FIELD_OFFSET = SENDER_INCARNATION_FIELD_OFFSET + SIZE_OF_LONG;
    private static final int CONFIG_DIGEST_FIELD_OFFSET = DESTINATION_RANK_FIELD_OFFSET + SIZE_OF_INT;
    private static final int FRAME_SEQUENCE_FIELD_OFFSET = CONFIG_DIGEST_FIELD_OFFSET + SIZE_OF_INT;
    private static final int RUN_ID_FIELD_OFFSET = FRAME_SEQUENCE_FIELD_OFFSET + SIZE_OF_LONG;

    /** Length of the common header; bodies start here. */
    public static final int HEADER_LENGTH = RUN_ID_FIELD_OFFSET + SIZE_OF_LONG;

    /** The run id of a sender bound to no run yet: a joiner before its contact's challenge told it the run. */
    public static final long UNBOUND_RUN = 0;

    /** Length of the MAC trailer, the last bytes of every frame. */
    public static final int MAC_LENGTH = 16;

    /** Length of the shortest frame: a header and a MAC. */
    public static final int MIN_FRAME_LENGTH = HEADER_LENGTH + MAC_LENGTH;

    /** Buffer holding the wrapped frame. */
    protected MutableDirectBuffer buffer;
    /** Offset of the wrapped frame in {@link #buffer}. */
    protected int offset;

    /**
     * Wrap a frame for reading or writing.
     *
     * @param buffer holding the frame.
     * @param offset at which the frame begins.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * @return the wrapped buffer.
     */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return the offset of the frame in the wrapped buffer.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * Write a whole header: current version, the given type, zero flags, frame sequence and run id 0 (not yet
     * stamped).
     *
     * @param type              frame type id.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        rank of the sending node.
     * @param senderIncarnation incarnation of the sending node.
     * @param destinationRank   rank the frame is sent to.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight header(
        final int type,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest)
    {
        return version(VERSION)
            .type(type)
            .flags(0)
            .clusterId(clusterId)
            .senderRank(senderRank)
            .senderIncarnation(senderIncarnation)
            .destinationRank(destinationRank)
            .configDigest(configDigest)
            .frameSequence(0)
            .runId(UNBOUND_RUN);
    }

    /**
     * The frame types a receiver takes under any run id, {@link #UNBOUND_RUN} included: what a joiner sends before it
     * knows the run (JOIN_REQUEST, REFORM_POLL, REFORM_ACK) and the JOIN_CHALLENGE that tells it the run. Replayed from
     * another run they can cost a challenge nobody answers, or bind a joiner to a stale re-form poll for a lease;
     * nothing else.
     *
     * @param type frame type id.
     * @return true if frames of that type are not bound to the receiver's run.
     */
    public static boolean isUnbound(final int type)
    {
        return type == JOIN_REQUEST_TYPE || type == JOIN_CHALLENGE_TYPE || type == REFORM_POLL_TYPE ||
            type == REFORM_ACK_TYPE;
    }

    /**
     * @return version field, unsigned.
     */
    public int version()
    {
        return buffer.getByte(offset + VERSION_FIELD_OFFSET) & 0xFF;
    }

    /**
     * @param version field value; the low 8 bits are written.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight version(final int version)
    {
        buffer.putByte(offset + VERSION_FIELD_OFFSET, (byte)version);
        return this;
    }

    /**
     * @return type field, unsigned.
     */
    public int type()
    {
        return buffer.getByte(offset + TYPE_FIELD_OFFSET) & 0xFF;
    }

    /**
     * @param type field value; the low 8 bits are written.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight type(final int type)
    {
        buffer.putByte(offset + TYPE_FIELD_OFFSET, (byte)type);
        return this;
    }

    /**
     * @return flags field, unsigned; reserved, zero in this version.
     */
    public int flags()
    {
        return buffer.getShort(offset + FLAGS_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /**
     * @param flags field value; the low 16 bits are written.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight flags(final int flags)
    {
        buffer.putShort(offset + FLAGS_FIELD_OFFSET, (short)flags, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return cluster id field.
     */
    public int clusterId()
    {
        return buffer.getInt(offset + CLUSTER_ID_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param clusterId field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight clusterId(final int clusterId)
    {
        buffer.putInt(offset + CLUSTER_ID_FIELD_OFFSET, clusterId, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return sender rank field.
     */
    public int senderRank()
    {
        return buffer.getInt(offset + SENDER_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param senderRank field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight senderRank(final int senderRank)
    {
        buffer.putInt(offset + SENDER_RANK_FIELD_OFFSET, senderRank, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return sender incarnation field.
     */
    public long senderIncarnation()
    {
        return buffer.getLong(offset + SENDER_INCARNATION_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param senderIncarnation field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight senderIncarnation(final long senderIncarnation)
    {
        buffer.putLong(offset + SENDER_INCARNATION_FIELD_OFFSET, senderIncarnation, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return destination rank field: the rank the sender addressed.
     */
    public int destinationRank()
    {
        return buffer.getInt(offset + DESTINATION_RANK_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param destinationRank field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight destinationRank(final int destinationRank)
    {
        buffer.putInt(offset + DESTINATION_RANK_FIELD_OFFSET, destinationRank, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return config digest field.
     */
    public int configDigest()
    {
        return buffer.getInt(offset + CONFIG_DIGEST_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param configDigest field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight configDigest(final int configDigest)
    {
        buffer.putInt(offset + CONFIG_DIGEST_FIELD_OFFSET, configDigest, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return frame sequence field: 1 for the first frame a sender incarnation sent to this destination.
     */
    public long frameSequence()
    {
        return buffer.getLong(offset + FRAME_SEQUENCE_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param frameSequence field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight frameSequence(final long frameSequence)
    {
        buffer.putLong(offset + FRAME_SEQUENCE_FIELD_OFFSET, frameSequence, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * @return run id field: the run the sender is bound to, {@link #UNBOUND_RUN} if none yet.
     */
    public long runId()
    {
        return buffer.getLong(offset + RUN_ID_FIELD_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @param runId field value.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight runId(final long runId)
    {
        buffer.putLong(offset + RUN_ID_FIELD_OFFSET, runId, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    /**
     * Zero the MAC trailer of a frame of {@code length} bytes, so an unsigned frame is well defined.
     *
     * @param length of the whole frame, trailer included.
     * @return this for a fluent API.
     */
    public FrameHeaderFlyweight clearMac(final int length)
    {
        buffer.setMemory(offset + length - MAC_LENGTH, MAC_LENGTH, (byte)0);
        return this;
    }

    /**
     * The preamble of every {@code encode} helper: if a frame of {@code length} bytes fits, wrap it, write its
     * {@link #header} and {@link #clearMac zero its MAC}; the caller then writes the body, which lies between the two.
     *
     * @param buffer            destination.
     * @param offset            at which the frame begins.
     * @param length            of the whole frame, MAC included.
     * @param type              frame type id.
     * @param clusterId         cluster the frame belongs to.
     * @param senderRank        rank of the sending node.
     * @param senderIncarnation incarnation of the sending node.
     * @param destinationRank   rank the frame is sent to.
     * @param configDigest      the sender's {@link ConfigDigest}.
     * @return true if the frame was begun; false if it does not fit between offset and capacity, and nothing was
     * written.
     */
    protected final boolean beginFrame(
        final MutableDirectBuffer buffer,
        final int offset,
        final int length,
        final int type,
        final int clusterId,
        final int senderRank,
        final long senderIncarnation,
        final int destinationRank,
        final int configDigest)
    {
        if (offset < 0 || offset > buffer.capacity() - length)
        {
            return false;
        }
        wrap(buffer, offset);
        header(type, clusterId, senderRank, senderIncarnation, destinationRank, configDigest).clearMac(length);
        return true;
    }
}
