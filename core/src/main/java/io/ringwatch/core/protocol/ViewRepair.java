package io.ringwatch.core.protocol;

import io.ringwatch.core.ring.Ring;
import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.RankArray;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

import java.util.Arrays;

/**
 * Anti-entropy for views. The broadcast reaches every participant its sender knows of, yet a node can still miss one:
 * a JOIN that crossed another JOIN at boot (nobody who knew of the one had learned of the other when it passed), a
 * notice a partition swallowed, a frame dropped from a full send queue. Nothing in the broadcast would ever tell that
 * node, so every period an active node sends its emitter and its observer a digest of its view; a neighbour whose own
 * view hashes differently answers with its whole view, which the node merges ({@link DetectorNode#onView}). Both
 * neighbours of a pair send digests, so each learns what the other knew after one period; a VIEW never answers a
 * VIEW, so disagreement costs one VIEW per digest and cannot loop.
 * <p>
 * The digest is the XOR of a 64-bit mix of (rank, incarnation, dead) over every rank that is dead or has rejoined:
 * equal views hash alike whatever order they were learned in, and live ranks at the boot incarnation cost nothing.
 * <p>
 * Part of one {@link DetectorNode}, driven by its thread alone; allocation free.
 */
final class ViewRepair
{
    private static final long DEAD_BIT = 0x9E37_79B9_7F4A_7C15L;
    private static final long HIGH_SPREAD = 0xBF58_476D_1CE4_E5B9L;

    /** {@link #planMerge} step: the rank's newer life is dead in the view: take the incarnation, then the death. */
    static final int DIES_NEWER = 0;
    /** {@link #planMerge} step: alive in the view under a newer incarnation: the life held here ended; admit it. */
    static final int REPLACED = 1;
    /** {@link #planMerge} step: dead in the view at an incarnation no older than this view's. */
    static final int DIES = 2;

    private final long periodNs;
    private final ProtocolCounters counters;
    private final RankArray newlyDead = new RankArray(8);
    private int[] stepKinds = new int[8];
    private int[] stepRanks = new int[8];
    private long[] stepIncarnations = new long[8];
    private int steps;
    private long nextDigestNs;

    /**
     * @param periodNs digest period; 0 turns the repair off.
     * @param counters the node's counters.
     */
    ViewRepair(final long periodNs, final ProtocolCounters counters)
    {
        this.periodNs = periodNs;
        this.counters = counters;
    }

    /**
     * @param startNs the node's start: the first digests go out one period later.
     */
    void rebase(final long startNs)
    {
        nextDigestNs = startNs + periodNs;
    }

    /**
     * Send the digest to both ring neighbours if a period has passed since the last. Not counted as duty-cycle work:
     * it leaves nothing for the next cycle to do, so the idle strategy may sleep right after it.
     */
    void sendIfDue(
        final long nowNs,
        final int rank,
        final int emitter,
        final int observer,
        final RankSet dead,
        final RankIncarnations incarnations,
        final ControlChannel control)
    {
        if (periodNs == 0 || nowNs - nextDigestNs < 0 || emitter == rank)
        {
            return;
        }
        nextDigestNs = nowNs + periodNs;
        final long digest = digest(dead, incarnations);
        send(emitter, digest, control);
        if (observer != emitter && observer != rank)
        {
            send(observer, digest, control);
        }
    }

    /**
     * Send this view's digest to {@code toRank} now, off the schedule: it answers with its view if they differ.
     */
    void askForView(
        final int toRank, final RankSet dead, final RankIncarnations incarnations, final ControlChannel control)
    {
        send(toRank, digest(dead, incarnations), control);
    }

    private void send(final int toRank, final long digest, final ControlChannel control)
    {
        control.sendViewDigest(toRank, digest);
        counters.increment(ProtocolCounter.VIEW_DIGESTS_SENT);
    }

    /**
     * A neighbour's digest arrived.
     *
     * @return true if it differs from this view's: the caller answers with its view.
     */
    boolean differs(final long digest, final RankSet dead, final RankIncarnations incarnations)
    {
        if (digest == digest(dead, incarnations))
        {
            return false;
        }
        counters.increment(ProtocolCounter.VIEW_DIGEST_MISMATCHES);
        return true;
    }

    /**
     * @param dead         a view's dead set.
     * @param incarnations its incarnations (ranks absent are at the boot incarnation 0).
     * @return the view's digest: equal for equal views.
     */
    static long digest(final RankSet dead, final RankIncarnations incarnations)
    {
        long digest = 0;
        for (int i = 0, size = dead.size(); i < size; i++)
        {
            final int r = dead.rankAt(i);
            digest ^= mix(r, incarnations.incarnationOf(r), true);
        }
        for (int i = 0, size = incarnations.size(); i < size; i++)
        {
            final int r = incarnations.rankAt(i);
            final long incarnation = incarnations.incarnationAt(i);
            if (incarnation != 0 && !dead.contains(r))
            {
                digest ^= mix(r, incarnation, false);
            }
        }
        return digest;
    }

    private static long mix(final int rank, final long incarnation, final boolean dead)
    {
        // an incarnation's high half, spread over the word, adds nothing when it is 0: digests of 32-bit ones as before
        final long high = (incarnation >>> 32) * HIGH_SPREAD;
        return SplitMix.mix(((long)rank << 32 | (incarnation & 0xFFFF_FFFFL)) ^ high ^ (dead ? DEAD_BIT : 0));
    }

    /**
     * Plan the merge of a neighbour's view into this one (the answer to a differing digest), as a joiner merges the
     * view it is admitted with. Per rank a newer incarnation wins: alive in the view, the rank is admitted (its older
     * life, if held alive here, ended unnoticed: {@link #REPLACED}); dead there, its newer life is dead
     * ({@link #DIES_NEWER}). At equal incarnations a death wins ({@link #DIES}). Under the majority rule the deaths are
     * taken only if what they leave alive is a majority of M, as for a notice's D_msg: a minority's view is never
     * merged. This node's own entry is never taken from another's view. The node applies the plan in its order.
     *
     * @return how many steps the plan has; read them with {@link #stepKind}, {@link #stepRank},
     * {@link #stepIncarnation}.
     */
    int planMerge(
        final Ring ring,
        final RankSet dead,
        final RankIncarnations known,
        final Quorum quorum,
        final boolean majority,
        final RankSet viewDead,
        final RankIncarnations viewIncarnations)
    {
        final int rank = ring.rank();
        newlyDead.clear();
        for (int i = 0, size = viewDead.size(); i < size; i++)
        {
            final int r = viewDead.rankAt(i);
            if (r != rank && ring.isRank(r) && !dead.contains(r) &&
                viewIncarnations.incarnationOf(r) >= known.incarnationOf(r))
            {
                newlyDead.add(r);
            }
        }
        final boolean takeDeaths = newlyDead.size() == 0 || !majority || quorum.leftAliveByUnion(dead, newlyDead);
        if (!takeDeaths)
        {
            counters.increment(ProtocolCounter.VIEW_REPAIRS_REFUSED);
        }
        steps = 0;
        for (int i = 0, size = viewIncarnations.size(); i < size; i++)
        {
            final int r = viewIncarnations.rankAt(i);
            final long newer = viewIncarnations.incarnationAt(i);
            if (r == rank || !ring.isRank(r) || newer <= known.incarnationOf(r))
            {
                continue;
            }
            if (!viewDead.contains(r))
            {
                step(REPLACED, r, newer);
            }
            else if (takeDeaths)
            {
                step(DIES_NEWER, r, newer);
            }
        }
        for (int i = 0, size = takeDeaths ? newlyDead.size() : 0; i < size; i++)
        {
            step(DIES, newlyDead.rankAt(i), 0);
        }
        return steps;
    }

    int stepKind(final int i)
    {
        return stepKinds[i];
    }

    int stepRank(final int i)
    {
        return stepRanks[i];
    }

    long stepIncarnation(final int i)
    {
        return stepIncarnations[i];
    }

    private void step(final int kind, final int r, final long incarnation)
    {
        if (steps == stepKinds.length)
        {
            // grows with the largest disagreement seen, then never again
            stepKinds = Arrays.copyOf(stepKinds, 2 * steps);
            stepRanks = Arrays.copyOf(stepRanks, 2 * steps);
            stepIncarnations = Arrays.copyOf(stepIncarnations, 2 * steps);
        }
        stepKinds[steps] = kind;
        stepRanks[steps] = r;
        stepIncarnations[steps] = incarnation;
        steps++;
    }
}
