package io.ringwatch.core.protocol;

import io.ringwatch.core.spi.ControlChannel;
import io.ringwatch.core.spi.RankIncarnations;
import io.ringwatch.core.spi.RankSet;

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

    private final long periodNs;
    private long nextDigestNs;
    private final ProtocolCounters counters;

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
        control.sendViewDigest(emitter, digest);
        counters.increment(ProtocolCounter.VIEW_DIGESTS_SENT);
        if (observer != emitter && observer != rank)
        {
            control.sendViewDigest(observer, digest);
            counters.increment(ProtocolCounter.VIEW_DIGESTS_SENT);
        }
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
            final int incarnation = incarnations.incarnationAt(i);
            if (incarnation != 0 && !dead.contains(r))
            {
                digest ^= mix(r, incarnation, false);
            }
        }
        return digest;
    }

    private static long mix(final int rank, final int incarnation, final boolean dead)
    {
        // SplitMix64's finalizer: every input bit moves about half the output bits
        long z = ((long)rank << 32 | (incarnation & 0xFFFF_FFFFL)) ^ (dead ? DEAD_BIT : 0);
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
