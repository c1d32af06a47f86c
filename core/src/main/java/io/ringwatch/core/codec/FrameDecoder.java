package io.ringwatch.core.codec;

import io.ringwatch.core.process.ProcessNotice;
import io.ringwatch.core.protocol.BrokenRules;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.NoticeSequences;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.ReusableNotice;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ringwatch.core.codec.FrameHeaderFlyweight.FAILURE_NOTICE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.HEARTBEAT_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_CHALLENGE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_PROOF_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_REQUEST_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.JOIN_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.LEAVE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.MIN_FRAME_LENGTH;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.NEW_OBSERVER_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.PROBE_ACK_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.PROBE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.PROCESS_FAILURE_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.REFORM_ACK_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.REFORM_POLL_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.VERSION;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.VIEW_DIGEST_TYPE;
import static io.ringwatch.core.codec.FrameHeaderFlyweight.VIEW_TYPE;

/**
 * Validates and decodes one received frame at a time, for one node of one cluster. Every field is checked before
 * anything is believed, so a corrupt, truncated, foreign, forged, replayed or hostile frame yields a
 * {@link RejectReason} for the caller to count, never an exception. Accepted frames are canonical: encoding the
 * decoded values and stamping them with the decoded sequence gives back the same bytes.
 * <p>
 * Checks, in order: offset and length inside the buffer; at least a header and a MAC, at most the longest frame;
 * version; a known type; the exact length of that type (for a notice, a range count in {@code [1, ceil(N / 2)]},
 * capped at {@code MAX_RANGES}, and {@link FailureNoticeFlyweight#lengthOf} bytes; views and process notices
 * likewise); then the MAC ({@link FrameAuthenticator}). What is read before the MAC only ever rejects, so nothing an
 * outsider writes is believed, and junk is refused without a hash. Then zero flags; the cluster id; the config
 * digest ({@link ConfigDigest}); a sender rank in {@code [0, N)}; this node as destination; a frame sequence of at
 * least 1; this node's run ({@link #bindRun}; any run for the {@link FrameHeaderFlyweight#isUnbound unbound} types).
 * Then by type: heartbeat counter at least 1; new-observer emitter rank equal to the destination, RDMA length
 * not negative and key and address zero when it is zero, reserved zero; notice dead and source ranks in range,
 * sequence at least 1, every run non-empty and inside {@code [0, N)}, runs ascending with a gap between neighbours,
 * dead rank inside D and source rank outside it; a JOIN likewise, with a subject incarnation above 0; a VIEW's runs as
 * a notice's, its entries' ranks in range and ascending with incarnations above 0. A JOIN_REQUEST and a JOIN_PROOF
 * are the frames taken from an incarnation newer than the one {@link ReplayGuard} admitted (a restarted rank asking
 * to be admitted, and returning its contact's nonce); they are not remembered, and the caller admits the incarnation
 * once the protocol has. Such a frame may be a recording of an earlier run: the protocol acts on nothing before the
 * joiner has returned a nonce fresh from its contact. A PROCESS_FAILURE
 * ({@link ProcessFailureFlyweight}) is checked as a notice for its runs and source, and its processes must be
 * non-negative and strictly ascending. Freshness ({@link ReplayGuard}) is judged after the header and
 * before the body, and a frame is remembered only once it passed everything. Protocol-level judgements (is the
 * sender someone I hold dead) are left to the caller.
 * <p>
 * The cost of a bad frame is bounded: bounds, version, type and that type's length are checked before the MAC, so
 * only a frame shaped like a valid one of its cluster costs a MAC, tried with at most
 * {@link FrameAuthenticator#MAX_KEYS} keys over at most that type's longest length in a cluster of N ranks
 * ({@link #MAX_FRAME_LENGTH} bytes only for PROCESS_FAILURE in clusters of 2,047 ranks or more). The heartbeat port
 * ({@link #decodeHeartbeat}) takes heartbeats only, 72 bytes.
 * <p>
 * With authentication off ({@link FrameAuthenticator#NONE}) neither the MAC nor the run is checked (anyone could
 * name any run) and every frame accepted is counted in {@link #unauthenticatedAccepted()}.
 * <p>
 * After {@link #decode} returns {@link RejectReason#NONE} the accessors describe the frame until the next call;
 * those of other frame types keep stale values. All state is preallocated; only the notice's rank array may grow,
 * and only up to the cluster size. Not thread safe: one decoder per receiving thread.
 * <p>
 * A decoded notice is the same {@link ReusableNotice} a sender fills, pointed at a {@link RankArray} the decoder
 * owns: D_msg is expanded from its runs into that sorted array so lookups are a binary search, and receivers see
 * one notice type whether it came off the wire or was built locally.
 */
public final class FrameDecoder implements InboundFrame
{
    /** Ranks a fresh decoder's notice holds before its first growth. */
    public static final int DEFAULT_NOTICE_CAPACITY = 64;

    /** Longest frame of any type. */
    public static final int MAX_FRAME_LENGTH =
        Math.max(Math.max(FailureNoticeFlyweight.MAX_LENGTH, ProcessFailureFlyweight.MAX_LENGTH),
            ViewFlyweight.MAX_LENGTH);

    private final int clusterId;
    private final int clusterSize;
    private final boolean anyReceiver;
    private int localRank;
    private final int configDigest;
    private final int maxRuns;
    private final boolean structureOnly;
    private final FrameAuthenticator authenticator;
    private ReplayGuard replayGuard;
    private final UnsafeBuffer frame = new UnsafeBuffer();
    private final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final ProbeFlyweight probe = new ProbeFlyweight();
    private final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final FailureNoticeFlyweight failureNotice = new FailureNoticeFlyweight();
    private final ViewFlyweight view = new ViewFlyweight();
    private final RankArray noticeRanks;
    private final RankArray viewDead;
    private final IncarnationTable viewIncarnations = new IncarnationTable(4);
    private final ReusableNotice notice = new ReusableNotice();
    private final ProcessFailureDecoding processFailure;

    private long run = FrameHeaderFlyweight.UNBOUND_RUN;
    private boolean adoptHigherRuns;
    private boolean anyRun;
    private int type;
    private long runId;
    private long joinerNonce;
    private int senderRank;
    private long senderIncarnation;
    private int destinationRank;
    private long frameSequence;
    private long heartbeatCounter;
    private long probeToken;
    private long heartbeatTimestampNs;
    private int newObserverEmitterRank;
    private int rdmaRkey;
    private long rdmaAddress;
    private int rdmaLength;
    private long unauthenticatedAccepted;
    private int mismatchedSenderRank = -1;
    private int mismatchedConfigDigest;

    /**
     * A decoder for a node: checks everything, MAC first, and remembers accepted frames in {@code replayGuard}.
     *
     * @param clusterId     frames of other clusters are rejected.
     * @param clusterSize   number of ranks N; every rank on the wire must lie in {@code [0, N)}.
     * @param localRank     this node: frames addressed to any other rank are rejected.
     * @param configDigest  this node's {@link ConfigDigest}; frames carrying another are rejected.
     * @param authenticator the cluster keyring, or {@link FrameAuthenticator#NONE} with authentication off.
     * @param replayGuard   this node's replay state, of size N; null only for tools and tests that judge frames
     *                      one at a time, without their senders' history.
     */
    public FrameDecoder(
        final int clusterId,
        final int clusterSize,
        final int localRank,
        final int configDigest,
        final FrameAuthenticator authenticator,
        final ReplayGuard replayGuard)
    {
        this(clusterId, clusterSize, localRank, configDigest, authenticator, replayGuard, DEFAULT_NOTICE_CAPACITY);
    }

    /**
     * A decoder for a node, with the size of its notice's first rank array.
     *
     * @param clusterId             frames of other clusters are rejected.
     * @param clusterSize           number of ranks N; every rank on the wire must lie in {@code [0, N)}.
     * @param localRank             this node: frames addressed to any other rank are rejected.
     * @param configDigest          this node's {@link ConfigDigest}; frames carrying another are rejected.
     * @param authenticator         the cluster keyring, or {@link FrameAuthenticator#NONE} with authentication off.
     * @param replayGuard           this node's replay state, of size N; null only for tools and tests.
     * @param initialNoticeCapacity dead ranks a notice may hold before the decoder's array grows.
     */
    public FrameDecoder(
        final int clusterId,
        final int clusterSize,
        final int localRank,
        final int configDigest,
        final FrameAuthenticator authenticator,
        final ReplayGuard replayGuard,
        final int initialNoticeCapacity)
    {
        this(clusterId, clusterSize, localRank, configDigest, authenticator, replayGuard, initialNoticeCapacity, false,
            false);
        if (localRank < 0 || localRank >= clusterSize)
        {
            throw new IllegalArgumentException("localRank " + localRank + " not in [0, " + clusterSize + ")");
        }
        if (replayGuard != null && replayGuard.clusterSize() != clusterSize)
        {
            throw new IllegalArgumentException(
                "replay guard sized for " + replayGuard.clusterSize() + " ranks, cluster has " + clusterSize);
        }
    }

    /**
     * A structure-only decoder: checks layout, cluster id and ranks, but neither MAC, config digest, destination nor
     * freshness. For tools that read frames addressed anywhere (captures, tests), never for a node.
     *
     * @param clusterId   frames of other clusters are rejected.
     * @param clusterSize number of ranks N; every rank on the wire must lie in {@code [0, N)}.
     */
    public FrameDecoder(final int clusterId, final int clusterSize)
    {
        this(clusterId, clusterSize, -1, 0, FrameAuthenticator.NONE, null, DEFAULT_NOTICE_CAPACITY, true, false);
    }

    /**
     * A decoder that judges frames for whichever rank {@link #receiver(int)} last named: for a simulator that hands
     * every node's frames through one decoder on one thread. It checks all a node's decoder checks, MAC and
     * destination included, except freshness: it holds no {@link ReplayGuard}, whose state is per receiver.
     *
     * @param clusterId     frames of other clusters are rejected.
     * @param clusterSize   number of ranks N; every rank on the wire must lie in {@code [0, N)}.
     * @param configDigest  the cluster's {@link ConfigDigest}; frames carrying another are rejected.
     * @param authenticator the cluster keyring, or {@link FrameAuthenticator#NONE} with authentication off.
     * @return a decoder judging frames for rank 0 until {@link #receiver(int)} names another.
     */
    public static FrameDecoder forAnyReceiver(
        final int clusterId, final int clusterSize, final int configDigest, final FrameAuthenticator authenticator)
    {
        return new FrameDecoder(
            clusterId, clusterSize, 0, configDigest, authenticator, null, DEFAULT_NOTICE_CAPACITY, false, true);
    }

    /**
     * Name the rank the next frames are addressed to; only for a decoder made by {@link #forAnyReceiver}, since a
     * node's decoder must never judge frames for another rank.
     *
     * @param localRank in {@code [0, N)}.
     * @return this.
     */
    public FrameDecoder receiver(final int localRank)
    {
        if (!anyReceiver)
        {
            throw new IllegalStateException("a node's decoder judges frames for its own rank only");
        }
        if (!isRank(localRank))
        {
            throw new IllegalArgumentException("localRank " + localRank + " not in [0, " + clusterSize + ")");
        }
        this.localRank = localRank;
        return this;
    }

    /**
     * Name the rank the next frames are addressed to and its replay state; only for a decoder made by
     * {@link #forAnyReceiver}.
     *
     * @param localRank   in {@code [0, N)}.
     * @param replayGuard that rank's replay state, of size N, or null to judge without one.
     * @return this.
     */
    public FrameDecoder receiver(final int localRank, final ReplayGuard replayGuard)
    {
        receiver(localRank);
        this.replayGuard = replayGuard;
        return this;
    }

    private FrameDecoder(
        final int clusterId,
        final int clusterSize,
        final int localRank,
        final int configDigest,
        final FrameAuthenticator authenticator,
        final ReplayGuard replayGuard,
        final int initialNoticeCapacity,
        final boolean structureOnly,
        final boolean anyReceiver)
    {
        if (clusterSize < 1)
        {
            throw new IllegalArgumentException("clusterSize must be positive: " + clusterSize);
        }
        this.clusterId = clusterId;
        this.clusterSize = clusterSize;
        this.localRank = localRank;
        this.configDigest = configDigest;
        this.maxRuns = maxRuns(clusterSize);
        this.authenticator = authenticator;
        this.replayGuard = replayGuard;
        this.structureOnly = structureOnly;
        this.anyReceiver = anyReceiver;
        this.noticeRanks = new RankArray(initialNoticeCapacity, clusterSize);
        this.viewDead = new RankArray(initialNoticeCapacity, clusterSize);
        this.processFailure = new ProcessFailureDecoding(clusterSize, maxRuns);
        // Point the notice at its set now so deadSet() is an empty set, never null, before the first notice.
        notice.set(0, 0, 0, 0L, noticeRanks);
    }

    /**
     * Validate and decode a frame.
     *
     * @param buffer holding the frame; only read.
     * @param offset at which the frame begins.
     * @param length of the frame as received.
     * @return {@link RejectReason#NONE} if the frame is valid, else the first problem found.
     */
    public RejectReason decode(final DirectBuffer buffer, final int offset, final int length)
    {
        return decode(buffer, offset, length, false);
    }

    /**
     * Validate and decode a frame read from the heartbeat port, which carries nothing but heartbeats: any other type
     * is refused as {@link RejectReason#NOT_A_HEARTBEAT} before its MAC is computed.
     *
     * @param buffer holding the frame; only read.
     * @param offset at which the frame begins.
     * @param length of the frame as received.
     * @return {@link RejectReason#NONE} if the frame is a valid heartbeat, else the first problem found.
     */
    public RejectReason decodeHeartbeat(final DirectBuffer buffer, final int offset, final int length)
    {
        return decode(buffer, offset, length, true);
    }

    private RejectReason decode(
        final DirectBuffer buffer, final int offset, final int length, final boolean heartbeatPort)
    {
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length)
        {
            return RejectReason.OUT_OF_BOUNDS;
        }
        if (length < MIN_FRAME_LENGTH)
        {
            return RejectReason.TOO_SHORT;
        }
        if (length > MAX_FRAME_LENGTH)
        {
            return RejectReason.WRONG_LENGTH;
        }

        // Structure before the MAC, so junk costs a few reads rather than a hash of up to MAX_FRAME_LENGTH bytes per
        // key. These reads only ever reject: no field is believed before the MAC matches. A view of exactly the
        // frame: the flyweights need a MutableDirectBuffer but the decoder never writes.
        frame.wrap(buffer, offset, length);
        header.wrap(frame, 0);
        if (header.version() != VERSION)
        {
            return RejectReason.UNSUPPORTED_VERSION;
        }
        final int type = header.type();
        if (heartbeatPort && type != HEARTBEAT_TYPE)
        {
            return RejectReason.NOT_A_HEARTBEAT;
        }
        final RejectReason structure = checkStructure(type, length);
        if (RejectReason.NONE != structure)
        {
            return structure;
        }

        if (!authenticator.verify(buffer, offset, length))
        {
            return FrameAuthenticator.isUnsigned(buffer, offset, length) ? RejectReason.UNSIGNED : RejectReason.BAD_MAC;
        }

        final RejectReason headerFields = checkHeader();
        if (RejectReason.NONE != headerFields)
        {
            return headerFields;
        }
        final long frameRun = header.runId();
        // without authentication anyone can name any run: binding frames to one protects nothing, so it is not judged
        if (!structureOnly && !anyRun && authenticator.authenticates() && frameRun != run &&
            !FrameHeaderFlyweight.isUnbound(type) &&
            !(adoptHigherRuns && frameRun > run))
        {
            return RejectReason.WRONG_RUN;
        }

        // Freshness is judged before the body is decoded, so a stale frame never overwrites the last notice, and
        // remembered only after the body is valid, so only an accepted frame advances the sender's window.
        final int senderRank = header.senderRank();
        final long senderIncarnation = header.senderIncarnation();
        final long frameSequence = header.frameSequence();
        boolean remember = replayGuard != null;
        if (replayGuard != null)
        {
            final RejectReason freshness = replayGuard.check(senderRank, senderIncarnation, frameSequence);
            if ((type == JOIN_REQUEST_TYPE || type == JOIN_PROOF_TYPE) &&
                RejectReason.UNKNOWN_INCARNATION == freshness)
            {
                remember = false;
            }
            else if (RejectReason.NONE != freshness)
            {
                return freshness;
            }
        }

        final RejectReason body;
        switch (type)
        {
            case HEARTBEAT_TYPE:
                body = decodeHeartbeat();
                break;

            case NEW_OBSERVER_TYPE:
                body = decodeNewObserver();
                break;

            case FAILURE_NOTICE_TYPE:
            case JOIN_TYPE:
                body = decodeFailureNotice(type == JOIN_TYPE);
                break;

            case VIEW_TYPE:
                body = decodeView();
                break;

            case PROBE_TYPE:
            case PROBE_ACK_TYPE:
            case VIEW_DIGEST_TYPE:
            case REFORM_POLL_TYPE:
            case REFORM_ACK_TYPE:
            case JOIN_PROOF_TYPE:
                probeToken = probe.wrap(frame, 0).token();
                body = RejectReason.NONE;
                break;

            case JOIN_REQUEST_TYPE:
                joinerNonce = probe.wrap(frame, 0).token();
                body = RejectReason.NONE;
                break;

            case JOIN_CHALLENGE_TYPE:
                probeToken = challenge.wrap(frame, 0).nonce();
                joinerNonce = challenge.joinerNonce();
                body = RejectReason.NONE;
                break;

            case PROCESS_FAILURE_TYPE:
                body = processFailure.decode(frame);
                break;

            default:
                body = RejectReason.NONE;
                break;
        }
        if (RejectReason.NONE != body)
        {
            return body;
        }
        if (remember)
        {
            replayGuard.record(senderRank, senderIncarnation, frameSequence);
        }

        this.type = type;
        this.runId = frameRun;
        this.senderRank = senderRank;
        this.senderIncarnation = senderIncarnation;
        this.destinationRank = header.destinationRank();
        this.frameSequence = frameSequence;
        if (!authenticator.authenticates())
        {
            unauthenticatedAccepted++;
        }
        return RejectReason.NONE;
    }

    /**
     * @return type id of the last accepted frame, one of the {@code *_TYPE} constants of
     * {@link FrameHeaderFlyweight}.
     */
    public int type()
    {
        return type;
    }

    /**
     * @return run id of the last accepted frame: this node's run, or for an {@link FrameHeaderFlyweight#isUnbound
     * unbound} type whatever its sender was bound to, or a higher run while {@link #bindRun adopting}.
     */
    public long runId()
    {
        return runId;
    }

    /**
     * @return the joiner's nonce of the last accepted JOIN_REQUEST, or the one the last JOIN_CHALLENGE returned.
     */
    public long joinerNonce()
    {
        return joinerNonce;
    }

    /**
     * Bind the decoder to a run: set by the runtime when the protocol draws, adopts or learns one. Frames under
     * another run are refused as {@link RejectReason#WRONG_RUN}, except the {@link FrameHeaderFlyweight#isUnbound
     * unbound} types and, while {@code adoptHigher}, frames under a higher run (at boot, for the protocol to adopt).
     *
     * @param run         the node's run, {@link FrameHeaderFlyweight#UNBOUND_RUN} while it knows none.
     * @param adoptHigher whether frames under a higher run are accepted too.
     * @return this.
     */
    public FrameDecoder bindRun(final long run, final boolean adoptHigher)
    {
        this.run = run;
        this.adoptHigherRuns = adoptHigher && run != FrameHeaderFlyweight.UNBOUND_RUN;
        return this;
    }

    /**
     * Negative controls only ({@code BrokenRules.BREAK_RUN_BINDING}): take authentic frames under any run, so
     * that a frame recorded in an earlier run of the cluster is believed as it was before frames named their run.
     *
     * @return this.
     */
    public FrameDecoder acceptAnyRun()
    {
        anyRun = true;
        return this;
    }

    /**
     * @return the run frames must carry.
     */
    public long run()
    {
        return run;
    }

    /**
     * @return sender rank of the last accepted frame.
     */
    public int senderRank()
    {
        return senderRank;
    }

    /**
     * @return sender incarnation of the last accepted frame.
     */
    public long senderIncarnation()
    {
        return senderIncarnation;
    }

    /**
     * @return destination rank of the last accepted frame: this node, for a node's decoder.
     */
    public int destinationRank()
    {
        return destinationRank;
    }

    /**
     * @return frame sequence of the last accepted frame.
     */
    public long frameSequence()
    {
        return frameSequence;
    }

    /**
     * @return frames accepted without a MAC check because authentication is off.
     */
    public long unauthenticatedAccepted()
    {
        return unauthenticatedAccepted;
    }

    /**
     * For the log line that names a misconfigured peer: its rank is trustworthy, the frame carried a valid MAC.
     *
     * @return sender rank of the last frame rejected with {@link RejectReason#CONFIG_MISMATCH}, -1 if none yet.
     */
    public int mismatchedSenderRank()
    {
        return mismatchedSenderRank;
    }

    /**
     * @return config digest carried by the last frame rejected with {@link RejectReason#CONFIG_MISMATCH}.
     */
    public int mismatchedConfigDigest()
    {
        return mismatchedConfigDigest;
    }

    /**
     * @return counter of the last accepted heartbeat, at least 1.
     */
    public long heartbeatCounter()
    {
        return heartbeatCounter;
    }

    /**
     * @return emitter timestamp of the last accepted heartbeat, on the emitter's clock.
     */
    public long heartbeatTimestampNs()
    {
        return heartbeatTimestampNs;
    }

    /**
     * @return token of the last accepted probe or probe-ack frame, the nonce of the last JOIN_CHALLENGE or
     * JOIN_PROOF, or the digest of the last VIEW_DIGEST.
     */
    public long probeToken()
    {
        return probeToken;
    }

    /**
     * @return addressee of the last accepted new-observer frame.
     */
    public int newObserverEmitterRank()
    {
        return newObserverEmitterRank;
    }

    /**
     * @return RDMA remote key of the last accepted new-observer frame.
     */
    public int rdmaRkey()
    {
        return rdmaRkey;
    }

    /**
     * @return RDMA address of the last accepted new-observer frame.
     */
    public long rdmaAddress()
    {
        return rdmaAddress;
    }

    /**
     * @return RDMA length of the last accepted new-observer frame, 0 when it carries no slot.
     */
    public int rdmaLength()
    {
        return rdmaLength;
    }

    /**
     * @return the last accepted notice; the same object every time, overwritten by the next accepted notice.
     * Its dead set is owned by this decoder, so a receiver that keeps the notice must copy it.
     */
    public ReusableNotice notice()
    {
        return notice;
    }

    /**
     * @return the last accepted PROCESS_FAILURE notice; the same object every time, its sets owned by this decoder.
     */
    public ProcessNotice processNotice()
    {
        return processFailure.notice();
    }

    /**
     * Exposed so tests can check that the notice's rank array grows only for larger sets and never past N.
     *
     * @return dead ranks the notice can hold without the decoder allocating.
     */
    public int noticeCapacity()
    {
        return noticeRanks.capacity();
    }

    /**
     * @return cluster id frames must carry.
     */
    public int clusterId()
    {
        return clusterId;
    }

    /**
     * @return number of ranks in the cluster.
     */
    public int clusterSize()
    {
        return clusterSize;
    }

    /**
     * @return config digest frames must carry (not checked by a structure-only decoder).
     */
    public int configDigest()
    {
        return configDigest;
    }

    private RejectReason checkHeader()
    {
        if (header.flags() != 0)
        {
            return RejectReason.BAD_FLAGS;
        }
        if (header.clusterId() != clusterId)
        {
            return RejectReason.WRONG_CLUSTER;
        }
        if (!structureOnly && header.configDigest() != configDigest)
        {
            mismatchedSenderRank = isRank(header.senderRank()) ? header.senderRank() : -1;
            mismatchedConfigDigest = header.configDigest();
            return RejectReason.CONFIG_MISMATCH;
        }
        if (!isRank(header.senderRank()))
        {
            return RejectReason.SENDER_OUT_OF_RANGE;
        }
        final int destination = header.destinationRank();
        if (structureOnly ? !isRank(destination) : destination != localRank)
        {
            return RejectReason.WRONG_DESTINATION;
        }
        if (header.frameSequence() < 1 && !structureOnly)
        {
            return RejectReason.BAD_FRAME_SEQUENCE;
        }
        return RejectReason.NONE;
    }

    private RejectReason checkStructure(final int type, final int length)
    {
        switch (type)
        {
            case HEARTBEAT_TYPE:
                return length == HeartbeatFlyweight.LENGTH ? RejectReason.NONE : RejectReason.WRONG_LENGTH;

            case NEW_OBSERVER_TYPE:
                return length == NewObserverFlyweight.LENGTH ? RejectReason.NONE : RejectReason.WRONG_LENGTH;

            case LEAVE_TYPE:
                return length == LeaveFlyweight.LENGTH ? RejectReason.NONE : RejectReason.WRONG_LENGTH;

            case JOIN_CHALLENGE_TYPE:
                return length == JoinChallengeFlyweight.LENGTH ? RejectReason.NONE : RejectReason.WRONG_LENGTH;

            case VIEW_TYPE:
            {
                if (length < ViewFlyweight.lengthOf(0, 0))
                {
                    return RejectReason.WRONG_LENGTH;
                }
                view.wrap(frame, 0);
                final int rangeCount = view.rangeCount();
                final int entryCount = view.entryCount();
                if (rangeCount < 0 || rangeCount > maxRuns || entryCount < 0 || entryCount > clusterSize ||
                    rangeCount > ViewFlyweight.MAX_ITEMS - entryCount)
                {
                    return RejectReason.RANGE_COUNT_OUT_OF_RANGE;
                }
                return length == ViewFlyweight.lengthOf(rangeCount, entryCount) ?
                    RejectReason.NONE : RejectReason.WRONG_LENGTH;
            }
            case PROBE_TYPE:
            case PROBE_ACK_TYPE:
            case VIEW_DIGEST_TYPE:
            case REFORM_POLL_TYPE:
            case REFORM_ACK_TYPE:
            case JOIN_REQUEST_TYPE:
            case JOIN_PROOF_TYPE:
                return length == ProbeFlyweight.LENGTH ? RejectReason.NONE : RejectReason.WRONG_LENGTH;

            case FAILURE_NOTICE_TYPE:
            case JOIN_TYPE:
            {
                if (length < FailureNoticeFlyweight.lengthOf(0))
                {
                    return RejectReason.WRONG_LENGTH;
                }
                final int rangeCount = failureNotice.wrap(frame, 0).rangeCount();
                if (rangeCount < 1 || rangeCount > maxRuns)
                {
                    return RejectReason.RANGE_COUNT_OUT_OF_RANGE;
                }
                return length == FailureNoticeFlyweight.lengthOf(rangeCount) ?
                    RejectReason.NONE : RejectReason.WRONG_LENGTH;
            }

            case PROCESS_FAILURE_TYPE:
                return processFailure.checkStructure(frame, length);

            default:
                return RejectReason.UNKNOWN_TYPE;
        }
    }

    private RejectReason decodeHeartbeat()
    {
        heartbeat.wrap(frame, 0);
        final long counter = heartbeat.counter();
        if (counter < 1)
        {
            return RejectReason.BAD_COUNTER;
        }
        heartbeatCounter = counter;
        heartbeatTimestampNs = heartbeat.emitterTimestampNs();
        return RejectReason.NONE;
    }

    private RejectReason decodeNewObserver()
    {
        newObserver.wrap(frame, 0);
        final int emitterRank = newObserver.emitterRank();
        if (!isRank(emitterRank))
        {
            return RejectReason.RANK_OUT_OF_RANGE;
        }
        if (emitterRank != newObserver.destinationRank())
        {
            return RejectReason.EMITTER_NOT_DESTINATION;
        }
        final int rkey = newObserver.rdmaRkey();
        final long address = newObserver.rdmaAddress();
        final int rdmaLength = newObserver.rdmaLength();
        if (rdmaLength < 0 || (rdmaLength == 0 && (rkey != 0 || address != 0)))
        {
            return RejectReason.BAD_RDMA_REGION;
        }
        if (newObserver.reserved() != 0)
        {
            return RejectReason.RESERVED_NOT_ZERO;
        }
        newObserverEmitterRank = emitterRank;
        rdmaRkey = rkey;
        rdmaAddress = address;
        this.rdmaLength = rdmaLength;
        return RejectReason.NONE;
    }

    // checkStructure has established 1 <= rangeCount <= MAX_RANGES and an exact length.
    private RejectReason decodeFailureNotice(final boolean join)
    {
        final FailureNoticeFlyweight flyweight = failureNotice.wrap(frame, 0);
        final int deadRank = flyweight.deadRank();
        final int sourceRank = flyweight.sourceRank();
        if (!isRank(deadRank) || !isRank(sourceRank))
        {
            return RejectReason.RANK_OUT_OF_RANGE;
        }
        final long sequence = flyweight.sequence();
        if (sequence < 1)
        {
            return RejectReason.BAD_SEQUENCE;
        }

        final RejectReason badRuns = RejectReason.ofRuns(
            flyweight, clusterSize, RejectReason.RANGES_NOT_SORTED, RejectReason.RANGES_OVERLAP, -1);
        if (badRuns != RejectReason.NONE)
        {
            return badRuns;
        }
        if (!flyweight.runsHold(deadRank))
        {
            return RejectReason.DEAD_RANK_NOT_IN_SET;
        }
        if (flyweight.runsHold(sourceRank))
        {
            return RejectReason.SOURCE_IN_SET;
        }

        // Ranges are disjoint and inside [0, clusterSize), so they hold at most clusterSize ranks: the notice fits.
        noticeRanks.setRuns(flyweight);
        final long subjectIncarnation = flyweight.subjectIncarnation();
        if (subjectIncarnation < 0 || (join && subjectIncarnation == 0 && !NoticeSequences.isHeal(sequence)))
        {
            return RejectReason.BAD_INCARNATION;
        }
        notice.set(deadRank, sourceRank, flyweight.sourceIncarnation(), sequence, noticeRanks)
            .subject(subjectIncarnation, join);
        return RejectReason.NONE;
    }

    // checkStructure has established the counts and an exact length.
    private RejectReason decodeView()
    {
        final ViewFlyweight flyweight = view.wrap(frame, 0);
        final int entryCount = flyweight.entryCount();
        final RejectReason badRuns = RejectReason.ofRuns(
            flyweight, clusterSize, RejectReason.RANGES_NOT_SORTED, RejectReason.RANGES_NOT_SORTED, -1);
        if (badRuns != RejectReason.NONE)
        {
            return badRuns;
        }
        int previousRank = -1;
        for (int i = 0; i < entryCount; i++)
        {
            final int rank = flyweight.entryRank(i);
            if (!isRank(rank))
            {
                return RejectReason.RANK_OUT_OF_RANGE;
            }
            if (rank <= previousRank)
            {
                return RejectReason.RANGES_NOT_SORTED;
            }
            if (flyweight.entryIncarnation(i) < 1)
            {
                return RejectReason.BAD_INCARNATION;
            }
            previousRank = rank;
        }

        viewDead.setRuns(flyweight);
        viewIncarnations.clear();
        for (int i = 0; i < entryCount; i++)
        {
            viewIncarnations.raise(flyweight.entryRank(i), flyweight.entryIncarnation(i));
        }
        return RejectReason.NONE;
    }

    /**
     * @return dead set of the last accepted VIEW; owned by this decoder, overwritten by the next.
     */
    public RankArray viewDead()
    {
        return viewDead;
    }

    /**
     * @return incarnations of the last accepted VIEW; owned by this decoder, overwritten by the next.
     */
    public IncarnationTable viewIncarnations()
    {
        return viewIncarnations;
    }

    /**
     * Runs are canonical (a gap between neighbours) and inside [0, N), so a set of N ranks needs at most
     * ceil(N / 2) of them: a longer frame is junk whatever its MAC, and is refused before it is hashed.
     *
     * @param clusterSize N.
     * @return most runs a notice, view or process notice may carry in a cluster of that size.
     */
    static int maxRuns(final int clusterSize)
    {
        return Math.min(FailureNoticeFlyweight.MAX_RANGES, (int)((clusterSize + 1L) / 2));
    }

    private boolean isRank(final int rank)
    {
        return rank >= 0 && rank < clusterSize;
    }
}
