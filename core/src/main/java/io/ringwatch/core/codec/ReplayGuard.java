package io.ringwatch.core.codec;

/**
 * The replay rule: a frame is accepted at most once, and only from the incarnation of its sender this node admitted.
 * <p>
 * Every frame carries its sender's rank and incarnation and a frame sequence that counts, from 1, the frames that
 * sender incarnation sent to this destination ({@link FrameStamper}); the MAC covers all three and the destination,
 * so none can be altered and a frame captured on its way to another node is refused there by its destination. For
 * each sender rank this guard keeps the admitted incarnation, the highest frame sequence accepted from it and a
 * window of the {@value #WINDOW} sequences below that one (a bit each, as in IPsec's anti-replay window, RFC 4303
 * §3.4.3). A frame is accepted if its sequence is above the highest, or inside the window and not yet seen; it is
 * refused as {@link RejectReason#REPLAYED} if seen, {@link RejectReason#STALE_SEQUENCE} if below the window. The window
 * exists because one sender's frames to one node travel on two streams (heartbeats and control) that may overtake each
 * other by a few frames; the sender stamps a frame just before handing it to its stream, never while it waits in a
 * retry queue, so a frame cannot fall a whole window behind its stream-mates.
 * <p>
 * <b>How each frame stays fresh.</b>
 * <ul>
 *     <li>Heartbeats: a replayed heartbeat repeats a frame sequence and is refused, so a recording cannot keep a dead
 *     node looking alive. (The heartbeat counter alone would not do: any counter unlike the last one read counts as
 *     progress.)</li>
 *     <li>Failure notices: every hop is a new frame from the forwarder with its own sequence, so a recorded hop is
 *     refused wherever it is replayed, and a forged broadcast id cannot reach the broadcast dedup set at all (it
 *     fails the MAC first): no replay or forgery costs a re-broadcast or evicts a remembered broadcast.</li>
 *     <li>Fencing notices: frames from the fencing node to the zombie, sequenced like any other; a recorded fence
 *     is refused by the zombie's guard as a repeat. NEW_OBSERVER and LEAVE likewise.</li>
 * </ul>
 * <p>
 * <b>Incarnations.</b> The first authentic frame from a rank admits its incarnation (trust on first use within a run, which
 * the run binding of the header scopes). Until {@link #admitIncarnation} says otherwise, a frame from
 * any other incarnation of that rank is refused: {@link RejectReason#STALE_INCARNATION} if lower,
 * {@link RejectReason#UNKNOWN_INCARNATION} if higher. A higher incarnation is not admitted on sight: a recording from
 * an earlier run of the cluster (same key) could carry one and, admitted, would lock the live process out.
 * <p>
 * <b>Rejoining (issue 12, done).</b> A restarted rank joins under an incarnation that only grows (its incarnation
 * file: max(last + 1, epoch milliseconds shifted left 16 bits), see {@code StartIncarnation}), so every recording of an earlier life is older than what is admitted. Its
 * JOIN_REQUEST is the one frame {@link FrameDecoder} takes from a newer incarnation without admitting it; the runtime
 * calls {@link #admitIncarnation} when the protocol has accepted the rank's JOIN, and for the incarnations a joiner's
 * view carries; until that view a joiner lets the newest incarnation heard win ({@link #admitNewestUntilSettled}).
 * Still open: a receiver that itself restarted starts with an empty guard, so a frame recorded earlier in the same
 * run and replayed to it is accepted once by the new process (frames do not name the receiver's incarnation).
 * <p>
 * Memory is O(N): four longs per rank, allocated up front. Every call is O(1) and allocation-free. Not thread
 * safe: one guard per receiving thread.
 */
public final class ReplayGuard
{
    /** Frame sequences remembered below the highest accepted one, per sender. */
    public static final int WINDOW = Long.SIZE;

    private static final int STRIDE = 4;
    private static final int INCARNATION = 0;
    private static final int HIGHEST = 1;
    private static final int SEEN = 2;
    private static final int ADMITTED = 3;

    // per rank: admitted incarnation, highest sequence, seen bits, 1 once an incarnation is admitted (0 while none)
    private final long[] state;
    private final int clusterSize;
    private boolean newestWins;

    /**
     * @param clusterSize N: senders are ranks in {@code [0, N)}.
     */
    public ReplayGuard(final int clusterSize)
    {
        if (clusterSize < 1)
        {
            throw new IllegalArgumentException("clusterSize must be positive: " + clusterSize);
        }
        this.clusterSize = clusterSize;
        this.state = new long[clusterSize * STRIDE];
    }

    /**
     * Judge an authentic, well-formed frame and, if it is fresh, remember it: {@link #check} then {@link #record}.
     *
     * @param senderRank  in {@code [0, N)}.
     * @param incarnation the sender's incarnation.
     * @param sequence    the frame sequence, at least 1.
     * @return {@link RejectReason#NONE} if accepted (and now remembered), else why not; nothing changes then.
     */
    public RejectReason accept(final int senderRank, final long incarnation, final long sequence)
    {
        final RejectReason reason = check(senderRank, incarnation, sequence);
        if (RejectReason.NONE == reason)
        {
            record(senderRank, incarnation, sequence);
        }
        return reason;
    }

    /**
     * Judge a frame without remembering it.
     *
     * @param senderRank  in {@code [0, N)}.
     * @param incarnation the sender's incarnation.
     * @param sequence    the frame sequence, at least 1.
     * @return {@link RejectReason#NONE} if {@link #record} may take it, else why not.
     */
    public RejectReason check(final int senderRank, final long incarnation, final long sequence)
    {
        if (senderRank < 0 || senderRank >= clusterSize)
        {
            return RejectReason.SENDER_OUT_OF_RANGE;
        }
        if (sequence < 1)
        {
            return RejectReason.BAD_FRAME_SEQUENCE;
        }
        final int base = senderRank * STRIDE;
        if (state[base + ADMITTED] == 0)
        {
            return RejectReason.NONE;
        }
        final long current = state[base + INCARNATION];
        if (incarnation != current)
        {
            if (incarnation < current)
            {
                return RejectReason.STALE_INCARNATION;
            }
            return newestWins ? RejectReason.NONE : RejectReason.UNKNOWN_INCARNATION;
        }
        final long highest = state[base + HIGHEST];
        if (sequence > highest)
        {
            return RejectReason.NONE;
        }
        final long age = highest - sequence;
        if (age >= WINDOW)
        {
            return RejectReason.STALE_SEQUENCE;
        }
        return (state[base + SEEN] & (1L << age)) != 0 ? RejectReason.REPLAYED : RejectReason.NONE;
    }

    /**
     * Remember a frame {@link #check} accepted; the first frame of a rank admits its incarnation.
     *
     * @param senderRank  in {@code [0, N)}.
     * @param incarnation the sender's incarnation.
     * @param sequence    the frame sequence, at least 1.
     */
    public void record(final int senderRank, final long incarnation, final long sequence)
    {
        final int base = senderRank * STRIDE;
        if (state[base + ADMITTED] == 0 || (newestWins && incarnation > state[base + INCARNATION]))
        {
            state[base + INCARNATION] = incarnation;
            state[base + ADMITTED] = 1;
            state[base + HIGHEST] = 0;
            state[base + SEEN] = 0;
        }
        final long highest = state[base + HIGHEST];
        if (sequence > highest)
        {
            final long shift = sequence - highest;
            state[base + SEEN] = shift >= WINDOW ? 1L : (state[base + SEEN] << shift) | 1L;
            state[base + HIGHEST] = sequence;
        }
        else
        {
            state[base + SEEN] |= 1L << (highest - sequence);
        }
    }

    /**
     * Let a newer incarnation replace the one admitted, as on first use, until {@link #settle()}: for a node that is
     * joining and has no view yet. What it heard first may be a frame a dead life left queued for this rank's stream
     * (its transport hands the new process what the old one never read); admitted on first use, it would lock out the
     * newer life of that rank, and with it the VIEW and NEW_OBSERVER of a contact or successor that rejoined too.
     * Incarnations only grow, so the newest one heard is the live one; this trusts no more than first use does.
     */
    public void admitNewestUntilSettled()
    {
        newestWins = true;
    }

    /**
     * End {@link #admitNewestUntilSettled()}: from now on only {@link #admitIncarnation} moves an incarnation forward.
     */
    public void settle()
    {
        newestWins = false;
    }

    /**
     * The protocol's hook for a rank that rejoins: admit a newer incarnation, forgetting the older one's sequences.
     *
     * @param senderRank  in {@code [0, N)}.
     * @param incarnation to admit.
     * @return true if admitted: the rank had none yet or an older one. An equal or older incarnation is not
     * admitted, so incarnations only move forward.
     */
    public boolean admitIncarnation(final int senderRank, final long incarnation)
    {
        if (senderRank < 0 || senderRank >= clusterSize)
        {
            return false;
        }
        final int base = senderRank * STRIDE;
        if (state[base + ADMITTED] != 0 && incarnation <= state[base + INCARNATION])
        {
            return false;
        }
        state[base + INCARNATION] = incarnation;
        state[base + ADMITTED] = 1;
        state[base + HIGHEST] = 0;
        state[base + SEEN] = 0;
        return true;
    }

    /**
     * @param senderRank in {@code [0, N)}.
     * @return true once an incarnation of that rank is admitted.
     */
    public boolean hasAdmitted(final int senderRank)
    {
        return state[senderRank * STRIDE + ADMITTED] != 0;
    }

    /**
     * @param senderRank in {@code [0, N)} with {@link #hasAdmitted} true.
     * @return the admitted incarnation.
     */
    public long admittedIncarnation(final int senderRank)
    {
        return state[senderRank * STRIDE + INCARNATION];
    }

    /**
     * @param senderRank in {@code [0, N)}.
     * @return highest frame sequence accepted from the admitted incarnation, 0 if none.
     */
    public long highestSequence(final int senderRank)
    {
        return state[senderRank * STRIDE + HIGHEST];
    }

    /**
     * @return N.
     */
    public int clusterSize()
    {
        return clusterSize;
    }
}
