package io.ringwatch.core.sim;

import io.ringwatch.core.codec.ConfigDigest;
import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameAuthenticator;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.FrameHeaderFlyweight;
import io.ringwatch.core.codec.FrameStamper;
import io.ringwatch.core.codec.JoinChallengeFlyweight;
import io.ringwatch.core.codec.LeaveFlyweight;
import io.ringwatch.core.codec.NewObserverFlyweight;
import io.ringwatch.core.codec.ProbeFlyweight;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.codec.ReplayGuard;
import io.ringwatch.core.codec.ViewFlyweight;
import io.ringwatch.core.protocol.RunIds;
import io.ringwatch.core.spi.FrameType;
import io.ringwatch.core.spi.InboundFrame;
import io.ringwatch.core.spi.Notice;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The codec between simulated nodes: every control frame is encoded by the flyweights the live control channel uses,
 * stamped and signed by a {@link FrameStamper} under the cluster key (when the run has authentication on, its
 * default), and judged by a real {@link FrameDecoder} for its receiver, which is what the node is handed. A wire rule
 * broken by an encoder or refused by the decoder thus shows in a simulation as it would live.
 * <p>
 * A frame is encoded when it is delivered, from the values its event carries (the sender's incarnation, a token, an
 * immutable {@link SimNotice} or {@link SimView}): one buffer, one set of flyweights and one decoder serve the whole
 * run, so nothing is allocated per frame. By default the decoder keeps no {@link ReplayGuard}, whose state is per
 * receiver (32 bytes a sender, so 32·N² bytes in all: 8.6 GB at 16,384 nodes), and memory stays O(N); the one
 * stamper's frame sequences count per destination across all senders, and the decoder only needs them above 0 (the
 * simulated network never duplicates a frame). With {@link SimConfig#replayGuards} (up to
 * {@value #MAX_GUARDED_NODES} nodes) each node has a guard and each sender life a stamper, and receivers
 * admit incarnations as the runtime's agent does: the first heard, a newer one when they apply that rank's JOIN, and
 * while joining themselves the newest heard until their view names them. Frames are then stamped in delivery order,
 * so the guard's window is never needed; its incarnation rules are what it adds.
 * <p>
 * The simulator only sends genuine frames, so each one the encoder or decoder refuses is a wire bug: counted by
 * reason, and a violation of the run ({@link #check}). The one exception is the admission rule under replay guards
 * (a frame of a life the receiver has not admitted), which refuses genuine frames live too: counted, no violation.
 * <p>
 * Keys are fixed bytes, not drawn from the run's random source, so the codec changes no draw of a seeded run.
 */
public final class Wire
{
    /** Most nodes simulated with replay guards: each node's guard and stamper take 48·N bytes, 48 MB in all here. */
    public static final int MAX_GUARDED_NODES = 1024;

    static final int CLUSTER_ID = 0;

    private final int configDigest;
    private final FrameAuthenticator keyring;
    private final FrameStamper stamper;
    // with replay guards: each node's guard, and the stampers of each sender's current and previous life
    private final ReplayGuard[] guards;
    private final FrameStamper[] stampers;
    private final FrameStamper[] previousStampers;
    private final long[] previousIncarnations;
    private final FrameDecoder decoder;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameDecoder.MAX_FRAME_LENGTH]);
    private final NewObserverFlyweight newObserver = new NewObserverFlyweight();
    private final LeaveFlyweight leave = new LeaveFlyweight();
    private final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
    // each node's run and whether it adopts a higher one ({@code DetectorNode}'s run binding); all 0 unless the run
    // gives nodes candidates
    private final long[] runs;
    private final boolean[] adopting;
    private final boolean runBinding;
    // until some node takes a run both arrays hold only zeros: a million-node run without run binding then skips
    // three random reads (two cache misses or more) per frame
    private boolean anyRunBound;
    private final long seed;
    private final FailureNoticeFlyweight notice = new FailureNoticeFlyweight();
    private final ViewFlyweight view = new ViewFlyweight();
    private final ProbeFlyweight probe = new ProbeFlyweight();
    private final FrameHeaderFlyweight header = new FrameHeaderFlyweight();
    private final long[] rejected = new long[RejectReason.values().length];
    // by FrameType number, all below 32
    private final long[] accepted = new long[32];
    private long unencodable;
    private String firstRefusal;

    /**
     * @param config the run: its nodes and protocol options (timing, broadcast, authentication, replay guards).
     */
    public Wire(final SimConfig config)
    {
        final int n = config.nodes();
        final ProtocolOptions protocol = config.protocol();
        configDigest = ConfigDigest.of(
            CLUSTER_ID, n, protocol.heartbeatPeriodNs(), protocol.suspicionTimeoutNs(), protocol.broadcast());
        keyring = protocol.authentication() ? FrameAuthenticator.withKey(key(0x11)) : FrameAuthenticator.NONE;
        stamper = new FrameStamper(n, keyring);
        decoder = FrameDecoder.forAnyReceiver(CLUSTER_ID, n, configDigest, keyring);
        runs = new long[n];
        adopting = new boolean[n];
        runBinding = protocol.runBinding();
        seed = config.seed();
        if (protocol.replayGuards())
        {
            if (n > MAX_GUARDED_NODES)
            {
                throw new IllegalArgumentException(
                    "replay guards are simulated up to " + MAX_GUARDED_NODES + " nodes, not " + n);
            }
            guards = new ReplayGuard[n];
            stampers = new FrameStamper[n];
            previousStampers = new FrameStamper[n];
            previousIncarnations = new long[n];
            for (int rank = 0; rank < n; rank++)
            {
                guards[rank] = new ReplayGuard(n);
                stampers[rank] = new FrameStamper(n, keyring);
            }
        }
        else
        {
            guards = null;
            stampers = null;
            previousStampers = null;
            previousIncarnations = null;
        }
    }

    /**
     * A rank starts a new life: a new process, so a new stamper and an empty guard, which lets the newest incarnation
     * heard win until its JOIN is applied if it joins (as the runtime's agent does).
     *
     * @param rank                the rank.
     * @param previousIncarnation the incarnation of the life that ended: its frames still queued keep its stamper.
     * @param joins               whether the new life joins.
     */
    void restarted(final int rank, final long previousIncarnation, final boolean joins)
    {
        if (guards != null)
        {
            previousStampers[rank] = stampers[rank];
            previousIncarnations[rank] = previousIncarnation;
            guards[rank] = new ReplayGuard(guards.length);
            stampers[rank] = new FrameStamper(guards.length, keyring);
            if (joins)
            {
                guards[rank].admitNewestUntilSettled();
            }
        }
    }

    /**
     * The runtime's admission rule ({@code RingwatchAgent.onJoin}): a receiver admits a rank's newer incarnation when
     * it applies that rank's JOIN, and a joiner admits the incarnations its view names once it is admitted.
     *
     * @param receiver    the node that applied the JOIN.
     * @param joiner      the rank it admitted.
     * @param incarnation the joiner's incarnation.
     * @param known       the receiver's incarnations, for its own JOIN.
     */
    void joined(final int receiver, final int joiner, final long incarnation, final RankIncarnations known)
    {
        if (guards == null)
        {
            return;
        }
        final ReplayGuard guard = guards[receiver];
        if (joiner != receiver)
        {
            guard.admitIncarnation(joiner, incarnation);
        }
        else
        {
            for (int i = 0, size = known.size(); i < size; i++)
            {
                if (known.rankAt(i) != receiver)
                {
                    guard.admitIncarnation(known.rankAt(i), known.incarnationAt(i));
                }
            }
            guard.settle();
        }
    }

    /**
     * @param first the key's first byte; the others follow it.
     * @return a fixed key, so a seeded run is reproducible.
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
     * @return the digest every frame of the run carries.
     */
    int configDigest()
    {
        return configDigest;
    }

    /**
     * @return the cluster keyring, {@link FrameAuthenticator#NONE} with authentication off.
     */
    FrameAuthenticator keyring()
    {
        return keyring;
    }

    public InboundFrame newObserver(final int from, final long incarnation, final int to)
    {
        // T4: the sender becomes the observer of the rank it writes to, so the emitter is the destination
        return deliver(FrameType.NEW_OBSERVER, from, to,
            newObserver.encode(buffer, 0, CLUSTER_ID, from, incarnation, configDigest, to));
    }

    public InboundFrame leave(final int from, final long incarnation, final int to)
    {
        return deliver(FrameType.LEAVE, from, to, leave.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest));
    }

    public InboundFrame challenge(
        final int from, final long incarnation, final int to, final long nonce, final long joinerNonce)
    {
        return deliver(FrameType.JOIN_CHALLENGE, from, to,
            challenge.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest, nonce, joinerNonce));
    }

    /**
     * The candidate run a node's driver draws when its process starts: 0 (bind no runs) unless the run binds them;
     * its virtual start time, in milliseconds above a base of 2027's, over 16 bits mixed from the seed, rank and
     * incarnation, so no draw of the run's random source changes.
     */
    long runCandidate(final int rank, final long incarnation, final long nowNs)
    {
        if (!runBinding)
        {
            return 0;
        }
        long bits = seed ^ (rank * 0x9E37_79B9_7F4A_7C15L) ^ (incarnation * 0xC2B2_AE3D_27D4_EB4FL);
        bits = (bits ^ (bits >>> 31)) * 0xBF58_476D_1CE4_E5B9L;
        bits = (bits ^ (bits >>> 29)) * 0x94D0_49BB_1331_11EBL;
        return RunIds.candidate(1_800_000_000_000L + nowNs / 1_000_000, (int)(bits ^ (bits >>> 32)));
    }

    /**
     * @return the run {@code rank} is bound to now, 0 if none.
     */
    long run(final int rank)
    {
        return runs[rank];
    }

    /**
     * A node took a run: its frames are stamped with it from now on, and its decoder takes frames under it.
     */
    void bindRun(final int rank, final long run, final boolean adoptHigher)
    {
        runs[rank] = run;
        adopting[rank] = adoptHigher;
        anyRunBound |= run != 0 || adoptHigher;
    }

    public InboundFrame notice(final int from, final long incarnation, final int to, final Notice sent)
    {
        final int type = sent.isJoin() ? FrameType.JOIN : FrameType.FAILURE_NOTICE;
        return deliver(type, from, to, notice.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest, sent));
    }

    public InboundFrame view(
        final int from, final long incarnation, final int to, final RankSet dead, final RankIncarnations known)
    {
        return deliver(FrameType.VIEW, from, to, view.encode(buffer, 0, CLUSTER_ID, from, incarnation, to, configDigest, dead, known));
    }

    /**
     * @param type {@link FrameType#PROBE}, PROBE_ACK, VIEW_DIGEST, REFORM_POLL, REFORM_ACK, JOIN_REQUEST or
     *             JOIN_PROOF: the frames of a header and a token.
     */
    public InboundFrame token(final int type, final int from, final long incarnation, final int to, final long token)
    {
        return deliver(type, from, to, probe.encode(buffer, 0, type, CLUSTER_ID, from, incarnation, to, configDigest, token));
    }

    /**
     * Judge a frame someone other than the simulator wrote (a forgery) as its receiver's decoder would.
     *
     * @return the decoder's verdict; on {@link RejectReason#NONE} {@link #decoded()} describes the frame.
     */
    RejectReason judge(final int receiver, final DirectBuffer frame, final int length)
    {
        return decoder.receiver(receiver).bindRun(runs[receiver], adopting[receiver]).decode(frame, 0, length);
    }

    /**
     * @return the decoder, describing the frame last accepted.
     */
    FrameDecoder decoded()
    {
        return decoder;
    }

    private InboundFrame deliver(final int type, final int from, final int to, final int encodedLength)
    {
        if (encodedLength <= 0)
        {
            // the live channel drops a frame its encoder refuses: so does the simulator, as a finding
            unencodable++;
            refused(type, from, to, "encoder refused it (" + encodedLength + ")");
            return null;
        }
        final FrameStamper sender = stamperOf(from);
        final boolean bound = anyRunBound;
        sender.run(bound ? runs[from] : 0);
        final int length = sender.stamp(buffer, 0, encodedLength);
        final RejectReason reason = decoder.receiver(to, guards != null ? guards[to] : null)
            .bindRun(bound ? runs[to] : 0, bound && adopting[to]).decode(buffer, 0, length);
        if (reason != RejectReason.NONE)
        {
            rejected[reason.ordinal()]++;
            if (!isAdmissionRule(reason))
            {
                refused(type, from, to, "decoder rejected it: " + reason);
            }
            return null;
        }
        accepted[type]++;
        return decoder;
    }

    /**
     * Frames are stamped when delivered, so a sender's frames reach each receiver in the order of their sequences:
     * the guard's window is never needed, but its incarnation rules are applied as live.
     */
    private FrameStamper stamperOf(final int from)
    {
        if (stampers == null)
        {
            return stamper;
        }
        final long incarnation = header.wrap(buffer, 0).senderIncarnation();
        return previousStampers[from] != null && incarnation == previousIncarnations[from] ?
            previousStampers[from] : stampers[from];
    }

    private void refused(final int type, final int from, final int to, final String why)
    {
        if (firstRefusal == null)
        {
            firstRefusal = "frame type " + type + " from " + from + " to " + to + ": " + why;
        }
    }

    /**
     * @return genuine frames the encoder or the decoder refused: a wire bug each.
     */
    long refusedFrames()
    {
        long total = unencodable;
        for (final RejectReason reason : RejectReason.values())
        {
            total += isAdmissionRule(reason) ? 0 : rejected[reason.ordinal()];
        }
        return total;
    }

    /**
     * With replay guards, a frame from a life of its sender that the receiver has not admitted (a restarted rank
     * heard before its JOIN is applied there, or a dead life's frame heard after) is refused live too: the
     * runtime's admission rule at work, counted ({@link #rejected}) but no wire bug. So is, with run binding, a frame
     * of another run: a seed's before it adopted the highest during its grace, a joiner's proof of a challenge that
     * did not return its nonce, a node cut off through its whole grace; what such refusals cost shows in the
     * protocol's checks.
     */
    private boolean isAdmissionRule(final RejectReason reason)
    {
        return (guards != null &&
            (reason == RejectReason.UNKNOWN_INCARNATION || reason == RejectReason.STALE_INCARNATION)) ||
            (runBinding && reason == RejectReason.WRONG_RUN);
    }

    /**
     * @param frameType a {@link FrameType} number.
     * @return frames of that type the decoder accepted and handed to their receiver.
     */
    long accepted(final int frameType)
    {
        return accepted[frameType];
    }

    /**
     * @param reason a decoder verdict other than {@link RejectReason#NONE}.
     * @return genuine frames refused so, those refused by the admission rule included.
     */
    long rejected(final RejectReason reason)
    {
        return rejected[reason.ordinal()];
    }

    /**
     * The wire check: the simulator sends genuine frames only, so no frame may be refused.
     */
    void check(final long seed, final List<String> found)
    {
        final long refused = refusedFrames();
        if (refused == 0)
        {
            return;
        }
        final StringBuilder reasons = new StringBuilder();
        for (final RejectReason reason : RejectReason.values())
        {
            if (rejected[reason.ordinal()] > 0 && !isAdmissionRule(reason))
            {
                reasons.append(' ').append(reason).append('=').append(rejected[reason.ordinal()]);
            }
        }
        if (unencodable > 0)
        {
            reasons.append(" UNENCODABLE=").append(unencodable);
        }
        found.add("seed=" + seed + ": wire: " + refused + " genuine frames refused (" + reasons.toString().trim() +
            "); first: " + firstRefusal);
    }
}
