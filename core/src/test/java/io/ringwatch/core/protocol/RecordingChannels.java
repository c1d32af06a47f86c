package io.ringwatch.core.protocol;

import io.ringwatch.core.codec.FailureNoticeFlyweight;
import io.ringwatch.core.codec.FrameDecoder;
import io.ringwatch.core.codec.RejectReason;
import io.ringwatch.core.spi.IncarnationTable;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.ExclusionCause;
import io.ringwatch.core.spi.HeartbeatChannel;
import io.ringwatch.core.spi.MembershipListener;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;
import io.ringwatch.core.spi.Notice;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A seam for unit tests of one node's logic: records what the node sends and lets the test set its slot.
 * Distributed behaviour is tested in the simulator and with real processes, not here.
 */
final class RecordingChannels implements HeartbeatChannel, ControlChannel, MembershipListener
{
    private static final int WIRE_CLUSTER_ID = 7;
    private static final int WIRE_CLUSTER_SIZE = 1 << 16;

    record Sent(String type, int to, long value) {}

    record SentNotice(
        int to, int deadRank, int sourceRank, long sequence, boolean join, long subjectIncarnation, RankArray deadSet) {}

    final List<Sent> sent = new ArrayList<>();
    /** JOIN_CHALLENGE frames, apart from {@link #sent}: a contact's step before it acts on a join. */
    final List<Sent> joinChallenges = new ArrayList<>();
    /** VIEW_DIGEST frames, apart from {@link #sent}: they go out every period whatever else a test looks at. */
    final List<Sent> viewDigests = new ArrayList<>();
    final List<SentNotice> notices = new ArrayList<>();
    final List<String> events = new ArrayList<>();
    /** What a receiver's codec says of each sent notice once encoded: anything but NONE would be dropped live. */
    final List<RejectReason> wireVerdicts = new ArrayList<>();
    private final UnsafeBuffer wire = new UnsafeBuffer(new byte[FailureNoticeFlyweight.MAX_LENGTH]);
    private final FailureNoticeFlyweight noticeCodec = new FailureNoticeFlyweight();
    private final FrameDecoder structure = new FrameDecoder(WIRE_CLUSTER_ID, WIRE_CLUSTER_SIZE);
    int slotWriter = -1;
    boolean acceptsFrames = true;
    boolean acceptsObservers = true;
    final List<String> observersOffered = new ArrayList<>();
    long slotCounter;
    /** The nonce of the last JOIN_REQUEST sent, and the joiner's nonce the last JOIN_CHALLENGE returned. */
    long lastJoinerNonce;
    long lastChallengedJoinerNonce;
    /** What the protocol last bound the node to ({@link #bindRun}), and how often it did. */
    long boundRun;
    boolean adoptsHigherRuns;
    int runBinds;

    void deposit(final int writer, final long counter)
    {
        slotWriter = writer;
        slotCounter = counter;
    }

    List<Sent> sentOfType(final String type)
    {
        return sent.stream().filter((s) -> s.type.equals(type)).toList();
    }

    public void writeHeartbeat(final int observerRank, final long counter)
    {
        sent.add(new Sent("heartbeat", observerRank, counter));
    }

    public long readHeartbeat(final int emitterRank)
    {
        return slotWriter == emitterRank ? slotCounter : NO_HEARTBEAT;
    }

    public int lastWriter()
    {
        return slotWriter;
    }

    public boolean deposit(final int writerRank, final long incarnation, final long counter, final long timestampNs)
    {
        if (!acceptsFrames)
        {
            return false;
        }
        deposit(writerRank, counter);
        return true;
    }

    public boolean acceptObserver(
        final int observerRank, final int rkey, final long address, final int length, final long nowNs)
    {
        observersOffered.add("observer " + observerRank + " rkey " + rkey + " address " + address + " length " +
            length + " at " + nowNs);
        return acceptsObservers;
    }

    public void sendNewObserver(final int emitterRank)
    {
        sent.add(new Sent("newObserver", emitterRank, 0));
    }

    public void sendLeave(final int observerRank)
    {
        sent.add(new Sent("leave", observerRank, 0));
    }

    public void sendProbe(final int toRank, final long token)
    {
        sent.add(new Sent("probe", toRank, token));
    }

    public void sendProbeAck(final int toRank, final long token)
    {
        sent.add(new Sent("probeAck", toRank, token));
    }

    public void sendReformPoll(final int toRank, final long token)
    {
        sent.add(new Sent("reformPoll", toRank, token));
    }

    public void sendReformAck(final int toRank, final long token)
    {
        sent.add(new Sent("reformAck", toRank, token));
    }

    public void sendViewDigest(final int toRank, final long digest)
    {
        viewDigests.add(new Sent("viewDigest", toRank, digest));
    }

    public void sendNotice(final int toRank, final Notice notice)
    {
        sent.add(new Sent("notice", toRank, notice.deadRank()));
        notices.add(new SentNotice(toRank, notice.deadRank(), notice.sourceRank(), notice.sequence(), notice.isJoin(),
            notice.subjectIncarnation(), RankArray.copyOf(notice.deadSet())));
        final int length = noticeCodec.encode(wire, 0, WIRE_CLUSTER_ID, notice.sourceRank(), 0, toRank, 0, notice);
        wireVerdicts.add(length < 0 ? RejectReason.WRONG_LENGTH : structure.decode(wire, 0, length));
    }

    RankArray lastViewDead;
    IncarnationTable lastViewIncarnations;

    // the joiner's nonce is kept aside, so a test that expects a request sees it whatever its nonce
    public void sendJoinRequest(final int contactRank, final long joinerNonce)
    {
        sent.add(new Sent("joinRequest", contactRank, 0));
        lastJoinerNonce = joinerNonce;
    }

    public void sendJoinChallenge(final int joinerRank, final long nonce, final long joinerNonce)
    {
        joinChallenges.add(new Sent("joinChallenge", joinerRank, nonce));
        lastChallengedJoinerNonce = joinerNonce;
    }

    public void bindRun(final long run, final boolean adoptHigher)
    {
        boundRun = run;
        adoptsHigherRuns = adoptHigher;
        runBinds++;
    }

    public void sendJoinProof(final int contactRank, final long nonce)
    {
        sent.add(new Sent("joinProof", contactRank, nonce));
    }

    public void sendView(final int joinerRank, final RankSet deadSet, final RankIncarnations incarnations)
    {
        sent.add(new Sent("view", joinerRank, deadSet.size()));
        lastViewDead = RankArray.copyOf(deadSet);
        lastViewIncarnations = IncarnationTable.copyOf(incarnations);
    }

    public void onJoin(final int rank, final long incarnation, final long nowNs)
    {
        events.add("join " + rank + "/" + incarnation + " at " + nowNs);
    }

    public void onFailure(final int rank, final long nowNs, final FailureCause cause, final int reporterRank)
    {
        events.add("failure " + rank + " " + cause + " by " + reporterRank + " at " + nowNs);
    }

    public void onExcluded(final long nowNs, final ExclusionCause cause, final int reporterRank)
    {
        events.add("excluded by " + reporterRank + " at " + nowNs);
        events.add("exclusion cause " + cause);
    }

    public void onViewChange(final long viewEpoch, final int deadCount, final long nowNs)
    {
        events.add("view " + viewEpoch + " dead=" + deadCount);
    }
}
