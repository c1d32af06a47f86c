package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ControlChannel;

import java.util.Arrays;

/**
 * Bringing back a cluster that has no member left. Under the majority rule a cut that leaves no side a majority stops
 * every node (as it must: either side might be the one that goes on), and the supervisors restart them all as joiners;
 * with every rank joining there is no contact to admit anyone, and without this the cluster would stay down for good.
 * <p>
 * <b>The rule.</b> Only the lowest rank, {@link #LEADER}, may re-form, and only while it is joining itself. Once it has
 * asked to join for {@link #pollPeriodNs} without being admitted it polls every other rank of the cluster file
 * (REFORM_POLL, a fresh token each time: the leader's joiner nonce, low bit aside), and again every period. A member never answers; the leader's nearest live
 * successor among them takes the poll for a join request and admits the leader, which ends the matter. A joiner
 * answers (REFORM_ACK with the token). The first poll
 * of a period only asks; if every other rank answered it within the lease L, the leader polls again at once, and this
 * second poll <i>binds</i>: a joiner that answers it accepts a view only from the leader until L has passed. The
 * leader re-forms, as the lone seed of a new membership that the others then join, only if <b>every</b> other rank
 * answered the binding poll within L of sending it. Two rounds, so that nobody is bound while a member may still be
 * around: a joiner bound after a heal would refuse the view of a contact that had just admitted it, and be admitted
 * twice (found by {@code simulate --partition 40:24 --partition-for 5s --restart-after 1s}, whose restarted
 * minority, rank 0 among it, was polled as the cut healed).
 * <p>
 * <b>Why this is safe.</b> Suppose a member z exists when the leader re-forms at T ≤ t + L (t: the poll's send). Take
 * z's latest admission. If z was a member without a break from before its poll arrived, it was a member when the poll
 * arrived and never answered it: no unanimity. Otherwise it was admitted after answering, while committed (its lease,
 * counted from after t, outlasts T) — by the leader, which was not a member before T: impossible. So at T nobody is a
 * member (t and the answers here are those of the binding poll). Unanimity is what makes it hold: a rank that did not answer may be a member on the far side of a cut (with
 * the settled membership shrunk to a side, even a majority of the cluster file can all be outside it), so silence is
 * never taken for death here. The price: a rank that never comes back keeps the cluster down until an operator starts
 * it afresh (see docs/partitions.md), and a poll costs N − 1 frames every period while the leader cannot join.
 * <p>
 * Part of one {@link DetectorNode}, driven by its thread alone; the leader's answer bits are allocated at its first
 * poll, nothing after.
 */
final class Reform
{
    /** The only rank that may re-form a cluster. */
    static final int LEADER = 0;

    /** What {@link #pollIfDue} or {@link #onAck} tells the node to do. */
    static final int NOTHING = 0;
    static final int POLLED = 1;
    static final int REFORM = 2;

    private final int rank;
    private final int clusterSize;
    private final long pollPeriodNs;
    private final long leaseNs;
    // BREAK_REFORM_UNANIMITY: re-form with whoever answered, silence taken for death (negative controls only)
    private final boolean silenceIsDeath;

    private long[] answered;
    private int answers;
    // the low bit of a token says whether the poll binds (see the class comment)
    private long pollToken;
    private long pollSentNs;
    private long nextPollNs = Long.MAX_VALUE;
    private long committedUntilNs;
    private boolean committed;

    private final ProtocolCounters counters;

    /**
     * @param rank           this node.
     * @param clusterSize    N.
     * @param pollPeriodNs   how long the leader asks to join before it polls, and between polls.
     * @param leaseNs        L: how long an answer commits a joiner, and how long the leader collects answers.
     * @param silenceIsDeath the broken rule, for negative controls only.
     * @param counters       the node's counters.
     */
    Reform(
        final int rank,
        final int clusterSize,
        final long pollPeriodNs,
        final long leaseNs,
        final boolean silenceIsDeath,
        final ProtocolCounters counters)
    {
        if (leaseNs >= pollPeriodNs)
        {
            throw new IllegalArgumentException("the lease must end before the next poll: " + leaseNs + " >= " +
                pollPeriodNs);
        }
        this.rank = rank;
        this.clusterSize = clusterSize;
        this.pollPeriodNs = pollPeriodNs;
        this.leaseNs = leaseNs;
        this.silenceIsDeath = silenceIsDeath;
        this.counters = counters;
    }

    /**
     * The node started to ask to join at {@code askFromNs}: the leader polls one period later if still not admitted.
     */
    void joinStarted(final long askFromNs)
    {
        committed = false;
        nextPollNs = rank == LEADER && clusterSize > 1 ? askFromNs + pollPeriodNs : Long.MAX_VALUE;
    }

    /**
     * The node is a member (admitted, or re-formed): no more polls.
     */
    void stop()
    {
        nextPollNs = Long.MAX_VALUE;
        committed = false;
    }

    long nextPollNs()
    {
        return nextPollNs;
    }

    /**
     * Leader, joining: poll every other rank when a poll is due.
     *
     * @return {@link #POLLED}, {@link #REFORM} (only under the broken rule), or {@link #NOTHING}.
     */
    int pollIfDue(final long nowNs, final ControlChannel control, final long nonce)
    {
        if (nowNs - nextPollNs < 0)
        {
            return NOTHING;
        }
        if (silenceIsDeath && answers > 0)
        {
            return REFORM;
        }
        poll(false, nowNs, control, nonce);
        return POLLED;
    }

    /**
     * @param nonce the leader's nonce as a joiner now: a member that takes the poll for a join request returns the
     *              token in its challenge, so the token must be one no recording of another run can carry.
     */
    private void poll(final boolean binding, final long nowNs, final ControlChannel control, final long nonce)
    {
        if (answered == null)
        {
            answered = RankBits.forCluster(clusterSize);
        }
        Arrays.fill(answered, 0L);
        answers = 0;
        pollToken = (nonce & ~1L) | (binding ? 1 : 0);
        pollSentNs = nowNs;
        nextPollNs = nowNs + pollPeriodNs;
        for (int r = 0; r < clusterSize; r++)
        {
            if (r != rank)
            {
                control.sendReformPoll(r, pollToken);
                counters.increment(ProtocolCounter.REFORM_POLLS_SENT);
            }
        }
    }

    static boolean binds(final long token)
    {
        return (token & 1) != 0;
    }

    /**
     * Leader, joining: an answer to a poll.
     *
     * @return {@link #REFORM} once every other rank answered the binding poll within the lease, {@link #POLLED} when
     * every one answered the first poll and the binding one went out, else {@link #NOTHING}.
     */
    int onAck(final int fromRank, final long token, final long nowNs, final ControlChannel control, final long nonce)
    {
        if (answered == null || token != pollToken || nowNs - pollSentNs > leaseNs || fromRank == rank)
        {
            return NOTHING;
        }
        if (RankBits.addFirst(answered, fromRank))
        {
            answers++;
        }
        if (silenceIsDeath || answers != clusterSize - 1)
        {
            return NOTHING;
        }
        if (binds(pollToken))
        {
            return REFORM;
        }
        poll(true, nowNs, control, nonce);
        return POLLED;
    }

    /**
     * A joiner polled by the leader: answer, and commit for the lease if the poll binds.
     */
    void onPoll(final long token, final long nowNs, final ControlChannel control)
    {
        if (binds(token))
        {
            committed = true;
            committedUntilNs = nowNs + leaseNs;
        }
        control.sendReformAck(LEADER, token);
        counters.increment(ProtocolCounter.REFORM_ACKS_SENT);
    }

    /**
     * @return true while a joiner's answer binds it: it asks, and takes a view from, the leader alone.
     */
    boolean committed(final long nowNs)
    {
        if (committed && nowNs - committedUntilNs >= 0)
        {
            committed = false;
        }
        return committed;
    }

    /**
     * A joiner's view arrived from {@code contact}.
     *
     * @return true if it must be refused: bound to the leader's poll, taking another contact's view could make a
     * member of a rank the leader counted as joining.
     */
    boolean refusesViewFrom(final int contact, final long nowNs)
    {
        if (contact == LEADER || !committed(nowNs))
        {
            return false;
        }
        counters.increment(ProtocolCounter.REFORM_VIEWS_REFUSED);
        return true;
    }

    void reformed()
    {
        counters.increment(ProtocolCounter.REFORMS);
        stop();
    }
}
